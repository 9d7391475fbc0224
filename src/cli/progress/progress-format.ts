import * as path from 'node:path';
import type { Usage } from '../../llm/provider';

/** Seconds with one decimal (`1.8s`), as every progress line and the final summary show time. */
export function seconds(milliseconds: number): string {
  return `${(Math.max(0, milliseconds) / 1000).toFixed(1)}s`;
}

/** Input plus output tokens: the one number progress shows (cached tokens are part of the input). */
export function tokenCount(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** A nested run's name for people: the file name of the last module in its chain (`composer.json`). */
export function moduleLabel(chain: readonly string[]): string {
  const last = chain[chain.length - 1];
  return last === undefined ? '' : path.basename(last);
}
