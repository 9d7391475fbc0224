/**
 * What `ideact run` needs from the layers below, gathered in one module that the command loads on
 * first use (`await import`), so `ideact --help` stays fast. The CLI never imports the package entry.
 */
export { createAgent } from '../../container/create-agent';
export { MissingApiKeyError } from '../../errors/missing-api-key.error';
export { MissingProviderError } from '../../errors/missing-provider.error';
export { formatIssues } from '../../errors/validation-issue';
export { createDefaultProvider } from '../../llm/default-provider';
export { OfflineProvider } from '../../llm/offline/offline-provider';
export { OpenAIProvider } from '../../llm/openai/openai-provider';
export { findIdeaInput } from '../../protocol/invert-idea';
export { validateJson } from '../../protocol/json-validation';
export { saveStateFile } from '../../store/state-file-store';
