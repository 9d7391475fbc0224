/**
 * The kind a module's clean room gives the caller's imported `input` (R-SCOPE-3): the module's own
 * input is the Call's params, so the caller's arrives as data of this kind and never merges with it.
 */
export const CALLER_INPUT_KIND = 'callerInput';
