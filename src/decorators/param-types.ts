/** The JSON types `@Param({ type })` accepts; each stands for one class-validator rule. */
export const PARAM_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
