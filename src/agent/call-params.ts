import type { Call } from '../protocol/call';

/** The Call's params as the model wrote them: its keys without the `_` meta-fields. @internal */
export function callParams(call: Call): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call)) if (!key.startsWith('_')) params[key] = value;
  return params;
}
