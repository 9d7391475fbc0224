import { declareAppendOnly } from '../runs/state-edits';
import { formatJson } from '../protocol/format-json';
import type { JSONSchema } from '../protocol/json-schema';
import type { ChatMessage } from '../protocol/message';
import { runRenderedRequest } from '../requests/run-request';
import type { AgentRuntime } from './agent-runtime';
import { commitOptions, discriminatorArgs } from './commit-options';
import type { StepModule } from './step-module';
import { addUsage } from '../llm/usage';
import { addRunUsage } from './usage';

/** What the judge answers: the 1-based number of the best option and why. */
export interface JudgeVerdict {
  choice: number;
  reason: string;
}

/** The judge's instruction, appended after the conversation the options answer. */
export const JUDGE_INSTRUCTION =
  'Several candidate next moves were proposed for the conversation above. Pick the one most likely to ' +
  'complete the task correctly and efficiently. Answer with its number as "choice" and a one-sentence "reason".';

/**
 * A Discriminator that asks the LLM to pick the best of the Generator's options (R-LOOP-2): the same
 * conversation plus the numbered options, schema `{ choice, reason }`. The reason is stored in the
 * chosen node's metadata; the other options stay in the tree as siblings. One option → no request.
 */
export class JudgeDiscriminator implements StepModule {
  async run(agent: AgentRuntime): Promise<void> {
    const { options, messages } = discriminatorArgs(agent.state);
    if (options.length === 1) {
      commitOptions(agent.state, 0);
      return;
    }
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        choice: {
          type: 'integer',
          minimum: 1,
          maximum: options.length,
          description: 'Number of the best option.',
        },
        reason: { type: 'string', description: 'Why it is the best.' },
      },
      required: ['choice', 'reason'],
      additionalProperties: false,
    };
    const listing = options
      .map(
        (option, index) =>
          `### Option ${index + 1}\n${formatJson({ calls: option.calls, output: option.output })}`,
      )
      .join('\n\n');
    const judgeMessages: ChatMessage[] = [
      ...(messages ?? []),
      { role: 'user', content: `${JUDGE_INSTRUCTION}\n\n${listing}` },
    ];
    const result = await runRenderedRequest(
      { messages: judgeMessages, schema, config: { schemaName: 'judge' } },
      {
        provider: agent.provider,
        handlers: agent.settings.handlers,
        maxRepairs: agent.settings.maxRepairs,
        signal: agent.settings.signal,
        model: agent.settings.model,
        run: agent.run,
      },
    );
    const verdict = result.solution as JudgeVerdict;
    // With a run context the run counts the request from its events; a hand-built runtime here.
    if (agent.run === undefined) addRunUsage(agent.state, result.usage);
    const { usage } = discriminatorArgs(agent.state);
    commitOptions(agent.state, verdict.choice - 1, {
      reason: verdict.reason,
      usage: addUsage(usage, result.usage),
      judgeUsage: { ...result.usage },
    });
  }
}

// It only appends nodes and sets nextStep: the path caches may trust what they checked (issue 28).
declareAppendOnly(JudgeDiscriminator);
