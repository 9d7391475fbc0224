import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MissingApiKeyError } from '../../errors/missing-api-key.error';
import { ModelPackageMissingError } from '../../errors/model-package-missing.error';
import { UnknownModelProviderError } from '../../errors/unknown-model-provider.error';
import { UnsupportedModelError } from '../../errors/unsupported-model.error';
import type { AiSdkLanguageModel } from './ai-sdk-model';
import { AiSdkProvider, type AiSdkProviderOptions } from './ai-sdk-provider';
import {
  MODEL_PACKAGES,
  knownModelPrefixes,
  parseModelSpec,
  type ModelPackage,
  type ModelSpec,
} from './model-packages';

/** Where and with what a prefixed model is created. */
export interface ModelPackageOptions {
  /** Environment the key and base URL come from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The project whose `node_modules` the package is resolved from (default the working directory). */
  projectDir?: string;
  /** More options of the provider (temperature, providerOptions, …). */
  provider?: AiSdkProviderOptions;
}

/**
 * An AiSdkProvider for a prefixed model name (`anthropic:claude-sonnet-4-5`): the prefix's AI SDK
 * package is resolved from the project now (a missing one → ModelPackageMissingError naming it, an
 * unknown prefix → UnknownModelProviderError) and loaded on the first request, with its usual key and
 * base-URL variables (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, …). A request naming another
 * prefixed model (a module Idea's `model` setting) gets that model the same way.
 */
export function providerForModel(model: string, options: ModelPackageOptions = {}): AiSdkProvider {
  const env = options.env ?? process.env;
  const projectDir = path.resolve(options.projectDir ?? process.cwd());
  const { spec, modelPackage } = packageOf(model);
  const resolved = resolvePackage(modelPackage, model, projectDir);
  const apiKeyVariable = modelPackage.apiKeyVariable;
  if (apiKeyVariable !== undefined && blank(env[apiKeyVariable])) {
    throw new MissingApiKeyError({ variable: apiKeyVariable, model });
  }
  const loader = {
    name: `${spec.prefix}:${spec.modelId}`,
    modelId: spec.modelId,
    load: () => createModel(resolved, modelPackage, spec, env),
  };
  return new AiSdkProvider(loader, {
    ...(apiKeyVariable === undefined ? {} : { keyVariable: apiKeyVariable }),
    ...options.provider,
    modelFor:
      options.provider?.modelFor ??
      ((name: string) => {
        const other = parseModelSpec(name);
        if (other === undefined || !(other.prefix in MODEL_PACKAGES)) {
          throw new UnsupportedModelError({
            model: name,
            reason: `a request asks for "${name}" but this provider serves ${loader.name}; name another model as <prefix>:<model> (e.g. ${spec.prefix}:${spec.modelId}).`,
          });
        }
        const otherPackage = MODEL_PACKAGES[other.prefix] as ModelPackage;
        return createModel(
          resolvePackage(otherPackage, name, projectDir),
          otherPackage,
          other,
          env,
        );
      }),
  });
}

/** True when `model` names an AI SDK package's model by a known prefix (not `openai:`). */
export function isPackageModel(model: string | undefined): boolean {
  const spec = model === undefined ? undefined : parseModelSpec(model);
  return spec !== undefined && spec.prefix in MODEL_PACKAGES;
}

function packageOf(model: string): { spec: ModelSpec; modelPackage: ModelPackage } {
  const spec = parseModelSpec(model);
  const modelPackage = spec === undefined ? undefined : MODEL_PACKAGES[spec.prefix];
  if (spec === undefined || modelPackage === undefined) {
    throw new UnknownModelProviderError({
      model,
      prefix: spec?.prefix ?? '',
      known: knownModelPrefixes(),
    });
  }
  return { spec, modelPackage };
}

/** The package's entry file, from the project first, then from where ideact is installed. */
function resolvePackage(modelPackage: ModelPackage, model: string, projectDir: string): string {
  const attempts = [createRequire(path.join(projectDir, 'package.json')), require];
  let lastError: unknown;
  for (const attempt of attempts) {
    try {
      return attempt.resolve(modelPackage.packageName);
    } catch (error) {
      lastError = error;
    }
  }
  throw new ModelPackageMissingError({
    model,
    packageName: modelPackage.packageName,
    searchedFrom: projectDir,
    cause: lastError,
  });
}

/** Loads the package (CommonJS by require, an ES module by import) and creates the model. */
async function createModel(
  resolved: string,
  modelPackage: ModelPackage,
  spec: ModelSpec,
  env: Record<string, string | undefined>,
): Promise<AiSdkLanguageModel> {
  const exported = (await loadModule(resolved)) as Record<string, unknown>;
  const factoryName = modelPackage.factories.find((name) => typeof exported[name] === 'function');
  if (factoryName === undefined) {
    throw new UnsupportedModelError({
      model: `${spec.prefix}:${spec.modelId}`,
      reason: `${modelPackage.packageName} exports none of ${modelPackage.factories.join(', ')}; install a version for ai@6 or ai@7 (npm install ${modelPackage.packageName}@latest).`,
    });
  }
  const settings: Record<string, string> = {};
  const apiKey = modelPackage.apiKeyVariable && env[modelPackage.apiKeyVariable];
  const baseURL = modelPackage.baseURLVariable && env[modelPackage.baseURLVariable];
  if (apiKey) settings.apiKey = apiKey.trim();
  if (baseURL) settings.baseURL = baseURL.trim();
  const factory = exported[factoryName] as (settings: object) => (modelId: string) => unknown;
  return factory(settings)(spec.modelId) as AiSdkLanguageModel;
}

async function loadModule(resolved: string): Promise<unknown> {
  if (!isEsModule(resolved)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a provider package the user installed
    return require(resolved) as unknown;
  }
  // A real dynamic import (TypeScript would turn `import()` into `require()` for CommonJS output).
  const load = new Function('specifier', 'return import(specifier)') as (
    specifier: string,
  ) => Promise<unknown>;
  return load(pathToFileURL(resolved).href);
}

/** True for an `.mjs` file, or a `.js` file in a package whose package.json says `"type": "module"`. */
function isEsModule(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (path.dirname(dir) === dir) return false;
  }
}

function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}
