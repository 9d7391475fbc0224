import Form from '@rjsf/core';
import type { ErrorSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { useEffect, useMemo, useState } from 'react';
import { ApiError, api } from './api';
import type { ToolSummary } from './api-types';
import { routeHash } from './hash-route';
import { JsonView } from './json-view';
import { issuesToErrorSchema, planForm, runtimeStyleMessage } from './schema-form';

/** ajv with the runtime's options (validateJson: all errors, not strict, formats on). */
const validator = customizeValidator({ ajvOptionsOverrides: { allErrors: true, strict: false } });

/** Rewrites rjsf's messages as the runtime's validation writes them. */
function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((error) => ({ ...error, message: runtimeStyleMessage(error) }));
}

/** `#/tools/:name`: the form generated from the Tool's input schema, and the Run button. */
export function ToolPage(props: { name: string }) {
  const [loaded, setLoaded] = useState<
    { tool: ToolSummary; inputSchema: unknown; outputSchema?: unknown } | undefined
  >();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [formData, setFormData] = useState<Record<string, unknown>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ErrorSchema | undefined>();
  const [runError, setRunError] = useState<string | undefined>();
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    api.tool(props.name).then(
      (body) => {
        setLoaded(body);
        setFormData(planForm(body.inputSchema).formData);
      },
      (error: Error) => setLoadError(error.message),
    );
  }, [props.name]);

  const plan = useMemo(
    () => (loaded === undefined ? undefined : planForm(loaded.inputSchema)),
    [loaded],
  );

  if (loadError !== undefined) return <p className="error">{loadError}</p>;
  if (loaded === undefined || plan === undefined) return <p className="empty">Loading…</p>;
  const { tool } = loaded;

  const run = async (params: Record<string, unknown>): Promise<void> => {
    setStarting(true);
    setRunError(undefined);
    setServerErrors(undefined);
    try {
      const { runId } = await api.startRun(tool.name, params);
      window.location.hash = routeHash({ page: 'run', runId });
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0) {
        setServerErrors(issuesToErrorSchema(error.issues) as ErrorSchema);
      }
      setRunError((error as Error).message);
    } finally {
      setStarting(false);
    }
  };

  return (
    <section className="tool-page">
      <h1>
        {tool.name} <span className={`badge ${tool.kind}`}>{tool.kind}</span>
        {tool.agent && <span className="badge agent">agent</span>}
      </h1>
      {tool.description !== undefined && <p className="description">{tool.description}</p>}
      <dl className="facts">
        {tool.module !== undefined && (
          <>
            <dt>module</dt>
            <dd className="mono">{tool.module}</dd>
          </>
        )}
        {tool.file !== undefined && (
          <>
            <dt>file</dt>
            <dd className="mono">{tool.file}</dd>
          </>
        )}
      </dl>
      <div className="form-card" data-testid="tool-form">
        <Form
          schema={plan.schema}
          uiSchema={plan.uiSchema as UiSchema}
          formData={formData}
          validator={validator}
          liveValidate={submitted ? 'onChange' : undefined}
          showErrorList={false}
          noHtml5Validate
          transformErrors={transformErrors}
          extraErrors={serverErrors}
          onChange={(event) => {
            setFormData((event.formData ?? {}) as Record<string, unknown>);
            setServerErrors(undefined);
          }}
          onError={() => setSubmitted(true)}
          onSubmit={(event) => {
            setSubmitted(true);
            void run((event.formData ?? {}) as Record<string, unknown>);
          }}
        >
          <div className="actions">
            <button type="submit" className="primary" data-testid="run-button" disabled={starting}>
              {starting ? 'Starting…' : 'Run'}
            </button>
            {runError !== undefined && (
              <span className="error" data-testid="run-error">
                {runError}
              </span>
            )}
          </div>
        </Form>
      </div>
      {loaded.outputSchema !== undefined && (
        <details>
          <summary>Output schema</summary>
          <JsonView value={loaded.outputSchema} />
        </details>
      )}
      <details>
        <summary>Input schema</summary>
        <JsonView value={loaded.inputSchema} />
      </details>
    </section>
  );
}
