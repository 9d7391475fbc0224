import type { TokenPricing } from '../eval-spec';
import { checkResult, type Scorer } from './scorer';

/**
 * The scorers that read usage and timings (issue 33 item 2): `maxTurns`, `maxCost` (tokens of the
 * run, nested runs and module requests included; dollars with a price list) and `maxLatency`.
 */

/** `maxTurns`: the run took at most `max` turns. */
export function maxTurnsScorer(name: string, max: number, threshold?: number): Scorer {
  return {
    name,
    needsEvents: false,
    score: (trial) =>
      checkResult(
        name,
        trial.usage.turns <= max,
        `${trial.usage.turns} turn(s), ${trial.usage.turns <= max ? 'within' : 'over'} the limit of ${max}`,
        threshold,
      ),
  };
}

/** `maxCost`: tokens (input + output) at most `maxTokens`, and/or dollars at most `maxUsd`. */
export function maxCostScorer(options: {
  name: string;
  maxTokens?: number;
  maxUsd?: number;
  pricing?: TokenPricing;
  threshold?: number;
}): Scorer {
  const { name, maxTokens, maxUsd, pricing, threshold } = options;
  return {
    name,
    needsEvents: false,
    score(trial) {
      const { inputTokens, outputTokens, cachedTokens } = trial.usage;
      const tokens = inputTokens + outputTokens;
      const parts: string[] = [];
      let ok = true;
      if (maxTokens !== undefined) {
        ok = ok && tokens <= maxTokens;
        parts.push(`${tokens} tokens (${inputTokens} in, ${outputTokens} out; limit ${maxTokens})`);
      }
      if (maxUsd !== undefined && pricing !== undefined) {
        const cachedPrice = pricing.cachedInputPerMillion ?? pricing.inputPerMillion;
        const usd =
          ((inputTokens - cachedTokens) * pricing.inputPerMillion +
            cachedTokens * cachedPrice +
            outputTokens * pricing.outputPerMillion) /
          1_000_000;
        ok = ok && usd <= maxUsd;
        parts.push(`$${usd.toFixed(6)} (limit $${maxUsd})`);
      }
      return checkResult(
        name,
        ok,
        `${parts.join(', ')}: ${ok ? 'within' : 'over'} budget`,
        threshold,
      );
    },
  };
}

/** `maxLatency`: the run took at most `maxMs`, start to end. */
export function maxLatencyScorer(name: string, maxMs: number, threshold?: number): Scorer {
  return {
    name,
    needsEvents: false,
    score: (trial) => {
      const ms = Math.round(trial.latencyMs);
      return checkResult(
        name,
        trial.latencyMs <= maxMs,
        `took ${ms} ms, ${trial.latencyMs <= maxMs ? 'within' : 'over'} the limit of ${maxMs} ms`,
        threshold,
      );
    },
  };
}
