/* The `_meta` keys ideact's MCP server sets on what it serves (read by ideact's MCP client too). */

/**
 * The `_meta` key an ideact server sets on a tool whose output travels wrapped: its value is the
 * property (`result`) holding the output in `structuredContent` and in `outputSchema.properties`.
 * MCP requires an object-typed outputSchema; an ideact client unwraps by this key.
 */
export const OUTPUT_WRAPPER_META_KEY = 'ideact/outputWrapper';

/** The property a non-object output is wrapped in (`{ result: output }`). */
export const OUTPUT_WRAPPER_PROPERTY = 'result';

/** The `_meta` key of a failed call's result: `{ code, message }` of the ideact error (and `issues`). */
export const ERROR_META_KEY = 'ideact/error';
