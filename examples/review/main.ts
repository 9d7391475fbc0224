/**
 * `npm run example -- review`: human approval in the terminal (R-LOOP-4). The agent proposes three
 * Calls; before any runs, you approve, edit or reject each one. Rejections (with your reason) go back
 * to the LLM as `result` errors, edits run as edited. Offline it uses scripted replies.
 */
import { createInterface } from 'node:readline';
import {
  agentFromContainer,
  createContainer,
  createDefaultProvider,
  type AgentResult,
  type ConfirmCalls,
  type ProviderRequest,
  type Provider,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { terminalConfirm } from './terminal-confirm';
import { DeleteBranch, ReleaseChores, SendEmail } from './tools';

/** Schema of the final report: what was done and what the human refused (with the reason). */
export const REVIEW_OUTPUT = {
  type: 'object',
  properties: {
    done: { type: 'array', items: { type: 'string' } },
    refused: {
      type: 'array',
      items: {
        type: 'object',
        properties: { tool: { type: 'string' }, reason: { type: 'string' } },
        required: ['tool', 'reason'],
      },
    },
  },
  required: ['done', 'refused'],
};

/** What a model would answer: three Calls, then a report built from the results it was shown. */
export function reviewScript(): (request: ProviderRequest, index: number) => unknown {
  return (request, index) => {
    if (index === 0) {
      const body = 'Release 1.2 is out: faster sync and a new export.';
      return {
        calls: [
          { _tool: 'sendEmail', to: 'team@example.com', subject: 'Release 1.2', body },
          { _tool: 'sendEmail', to: 'customers@example.com', subject: 'Release 1.2', body },
          { _tool: 'deleteBranch', name: 'main', _reasoningForCall: 'The release is merged.' },
        ],
        output: null,
      };
    }
    const text = request.messages.map((message) => message.content).join('\n');
    const done = [...text.matchAll(/"deliveredTo": "([^"]+)"/g)].map((m) => `mailed ${m[1]}`);
    done.push(...[...text.matchAll(/"deleted": "([^"]+)"/g)].map((m) => `deleted ${m[1]}`));
    const refused = [
      ...text.matchAll(/## Result of (\w+)[\s\S]*?rejected by the user: (.*?)\. Do not/g),
    ];
    return {
      calls: [],
      output: { done, refused: refused.map((m) => ({ tool: m[1], reason: m[2] })) },
    };
  };
}

/** Runs the release agent with `confirm` deciding about every Call; returns the run and the effects. */
export async function runReview(options: {
  provider: Provider;
  confirm: ConfirmCalls;
}): Promise<{ result: AgentResult; chores: ReleaseChores }> {
  const container = createContainer({
    tools: [SendEmail, DeleteBranch],
    activities: [ReleaseChores],
    provider: options.provider,
  });
  const agent = agentFromContainer(container, { confirm: options.confirm });
  const result = await agent.run({
    task: 'Release 1.2 is out. Tell the team and the customers, clean up, then report.',
    output: REVIEW_OUTPUT,
    maxTurns: 4,
  });
  return { result, chores: container.get(ReleaseChores) };
}

/** Asks on stdin about each Call, then prints what ran, what was refused, and the final output. */
export async function main(): Promise<void> {
  const real =
    // Blank values count as unset, like createDefaultProvider() sees them.
    Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());
  const provider = real ? createDefaultProvider() : new ScriptedProvider(reviewScript());
  const write = (text: string): void => void process.stdout.write(text);
  write(
    real
      ? `provider: ${provider.name ?? 'custom'}\n`
      : 'provider: scripted replies (offline, not a model)\n',
  );
  const terminal = createInterface({ input: process.stdin });
  try {
    const confirm = terminalConfirm({
      lines: terminal[Symbol.asyncIterator](),
      write,
      echo: !process.stdin.isTTY,
    });
    const { result, chores } = await runReview({ provider, confirm });
    write('\nresults, in the order they were settled:\n');
    const results = result.state.nodes.filter(
      (node) => node.message.type === 'result' && node.metadata.source !== undefined,
    );
    for (const node of results) {
      if (node.message.type !== 'result') continue;
      const { _tool, _reasoningForCall, ...params } = node.message.call;
      const status = node.metadata.rejected
        ? 'rejected'
        : node.message.error
          ? `failed (${node.message.error.code})`
          : node.metadata.originalCall
            ? 'ran as edited'
            : 'ran';
      write(`${_tool} ${JSON.stringify(params)}\n  → ${status}\n`);
    }
    write(`outbox: ${chores.outbox.map((mail) => mail.to).join(', ') || '(empty)'}\n`);
    write(`deleted branches: ${chores.deletedBranches.join(', ') || '(none)'}\n`);
    write(`output: ${JSON.stringify(result.output, null, 2)}\n`);
  } finally {
    terminal.close();
  }
}

if (require.main === module) {
  void main();
}
