import type { JSONSchema } from './json-schema';

/* The Vessel's constant schemas, in a module of their own so the ES entry reads them cheaply. */

/** The schema a param accepts besides its own when references are allowed (R-VAR-1). */
export const REFERENCE_PARAM_SCHEMA: JSONSchema = {
  type: 'string',
  pattern: '^†',
  description:
    'A reference to a value in the context instead of the value itself: †kind.path, e.g. †state.weather; a || b = first present.',
};

/** The default Vessel output when none is given: a final answer in words, or null to go on. */
export const DEFAULT_VESSEL_OUTPUT: JSONSchema = {
  type: 'string',
  description:
    'The final answer for the user, once the task is done; null while calls are still needed.',
};
