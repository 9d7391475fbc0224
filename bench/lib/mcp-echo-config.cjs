// `ideact mcp serve --config` for bench/mcp-overhead.mjs: one Activity Tool with an object `_output`
// (plain ToolSchema, no decorators), so every call is pure transport and framework overhead.
const echoTool = {
  type: 'object',
  description: 'Echoes its text and number.',
  properties: {
    _tool: { const: 'echo' },
    text: { type: 'string' },
    n: { type: 'integer' },
    _output: {
      type: 'object',
      properties: { text: { type: 'string' }, n: { type: 'integer' } },
      required: ['text', 'n'],
    },
  },
  required: ['_tool', 'text', 'n'],
};

module.exports = {
  tools: [echoTool],
  activities: [{ echo: async ({ text, n }) => ({ text, n }) }],
};
