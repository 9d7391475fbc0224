/** The `--model` help every command that runs a model shows (docs/cli.md, docs/providers.md). */
export const MODEL_HELP =
  'the model: <prefix>:<name> for an installed AI SDK provider package (anthropic:claude-sonnet-4-5, google:gemini-2.5-flash), ' +
  'or a name for the openai provider (default: IDEACT_MODEL, else gpt-4o-mini)';
