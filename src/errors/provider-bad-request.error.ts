import { ProviderApiError } from './provider-api.error';

/**
 * The provider rejected the request as malformed (HTTP 400 or 422). The vendor's explanation is in
 * the message; when it concerns the response schema, `schemaName` names the schema that was sent, so
 * the keyword at fault can be found (docs/providers.md lists how each family's schema is converted).
 */
export class ProviderBadRequestError extends ProviderApiError {
  static override readonly code: string = 'PROVIDER_BAD_REQUEST';

  /** The name of the schema the request carried (`vessel`, a module's name, `solution`). */
  readonly schemaName?: string;
  /** True when the vendor's explanation mentions the schema (the response format or a keyword). */
  readonly schemaProblem: boolean;

  constructor(options: {
    url: string;
    status: number;
    attempts: number;
    detail?: string;
    schemaName?: string;
    cause?: unknown;
  }) {
    const schemaProblem =
      /schema|response_?format|json|keyword|output_config|generationConfig/i.test(
        options.detail ?? '',
      );
    const fix = schemaProblem
      ? `The vendor rejected the response schema "${options.schemaName ?? 'solution'}": the message above names the keyword or position. ` +
        "Set aiSdkProvider's `structuredOutput: 'prompt'` option to send the schema in the prompt instead (ideact still validates the reply against it), " +
        'or simplify that part of the schema.'
      : 'Check the request settings (model name, temperature, maxOutputTokens, providerOptions) against the vendor’s API reference.';
    super({
      url: options.url,
      status: options.status,
      attempts: options.attempts,
      detail: options.detail,
      cause: options.cause,
      message:
        `The provider at ${options.url} rejected the request (HTTP ${options.status})` +
        (options.detail ? `: ${options.detail}` : '') +
        `. ${fix}`,
    });
    if (options.schemaName !== undefined) this.schemaName = options.schemaName;
    this.schemaProblem = schemaProblem;
  }
}
