/**
 * What `ideact run` needs from the layers below, gathered in one module that the command loads on
 * first use (`await import`), so `ideact --help` stays fast. The CLI never imports the package entry.
 */
export { createAgent } from '../../container/create-agent';
export { formatIssues } from '../../errors/validation-issue';
export { findIdeaInput } from '../../protocol/invert-idea';
export { validateJson } from '../../protocol/json-validation';
export { saveStateFile, StateFileRunStore } from '../../store/state-file-store';
