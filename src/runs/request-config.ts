/** Model settings for one request; message handlers may change them (R-REQ-2). */
export interface RequestConfig {
  /** Model name; the provider's default when absent. */
  model?: string;
  /** Sampling temperature; the provider's default when absent. */
  temperature?: number;
  /** How many options to generate (default 1). */
  n?: number;
  /** Schema name sent to the provider (OpenAI's `json_schema.name`); `solution` when absent. */
  schemaName?: string;
}
