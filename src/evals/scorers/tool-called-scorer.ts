import type { RunEvent } from '../../runs/run-event';
import { matchesPartially } from './partial-match';
import { checkResult, shortJson, type Scorer } from './scorer';

/** Options of {@link toolCalledScorer}. */
export interface ToolCalledOptions {
  name: string;
  tool: string;
  params?: Record<string, unknown>;
  min: number;
  max?: number;
  threshold?: number;
}

/**
 * `toolCalled` (issue 33 item 2): counts the Calls of a Tool in the run's `call-start` events —
 * the agent's own and those inside nested modules (a nested run's events reach the root run's
 * subscribers with their `path`) — whose params match `params` partially, and checks the count.
 * The reason names where the matching Calls ran, or which Calls ran instead.
 */
export function toolCalledScorer(options: ToolCalledOptions): Scorer {
  const { name, tool, params, min, max, threshold } = options;
  const wanted = `${tool}${params === undefined ? '' : ` with ${shortJson(params)}`}`;
  const bounds =
    max === undefined ? `at least ${min}` : min === max ? `exactly ${min}` : `${min} to ${max}`;
  return {
    name,
    needsEvents: true,
    score(trial) {
      const chains = new Map<string, string[]>();
      const calls: Array<{ tool: string; params: Record<string, unknown>; where: string }> = [];
      for (const event of trial.events) {
        if (event.type === 'run-start') chains.set(event.runId, event.chain);
        if (event.type === 'call-start') {
          calls.push({ tool: event.tool, params: event.params, where: whereOf(event, chains) });
        }
      }
      const matching = calls.filter(
        (call) =>
          call.tool === tool && (params === undefined || matchesPartially(call.params, params)),
      );
      const count = matching.length;
      const ok = count >= min && (max === undefined || count <= max);
      if (count > 0) {
        const places = [...new Set(matching.map((call) => call.where))].join(', ');
        return checkResult(name, ok, `${wanted} called ${count}× (${bounds}) ${places}`, threshold);
      }
      const sameTool = calls.filter((call) => call.tool === tool);
      const seen = summarize(calls);
      const detail =
        sameTool.length > 0 && params !== undefined
          ? `; ${tool} ran with ${sameTool.map((call) => shortJson(call.params, 60)).join(', ')}`
          : '';
      return checkResult(
        name,
        ok,
        `${wanted} was not called (${bounds}); Calls seen: ${seen || 'none'}${detail}`,
        threshold,
      );
    },
  };
}

/** `by the agent` for the root run's Calls, `in <module>` for a nested run's. */
function whereOf(event: RunEvent, chains: Map<string, string[]>): string {
  if (event.path.length <= 1) return 'by the agent';
  const chain = chains.get(event.runId);
  const module = chain?.[chain.length - 1];
  if (module !== undefined) return `in ${baseName(module)}`;
  return `in a module (path ${event.path.join('/')})`;
}

function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

/** `composer ×1, soundDesigner ×2`. */
function summarize(calls: Array<{ tool: string }>): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.tool, (counts.get(call.tool) ?? 0) + 1);
  return [...counts].map(([toolName, count]) => `${toolName} ×${count}`).join(', ');
}
