import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Agent, Executor, FileRunStore, Toolkit, type ToolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

const CHILD = path.join(__dirname, 'fixtures/approval-child.cjs');

describe('approvals survive the process (issue 18 item 3)', () => {
  it('a run stops awaiting approval in one process; another process decides and finishes it from the store', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-approval-'));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [CHILD, directory]);
      const stopped = JSON.parse(stdout) as {
        runId: string;
        stopReason: string;
        interruptions: Array<{ callId: string; tool: string; params: unknown }>;
      };
      expect(stopped.stopReason).toBe('awaiting_approval');
      expect(stopped.interruptions).toEqual([
        { callId: '1:0', tool: 'transfer', params: { amount: 50 } },
      ]);
      // The child has exited: nothing ran yet.
      await expect(fs.readFile(path.join(directory, 'effects.log'), 'utf8')).rejects.toThrow();

      const store = new FileRunStore({ dir: path.join(directory, 'runs') });
      expect((await store.list()).map((run) => [run.runId, run.status])).toEqual([
        [stopped.runId, 'awaiting_approval'],
      ]);
      const tools: ToolSchema[] = [
        {
          type: 'object',
          needsApproval: true,
          properties: { _tool: { const: 'transfer' }, amount: { type: 'number' } },
          required: ['_tool', 'amount'],
        },
      ];
      const provider = new ScriptedProvider([{ calls: [], output: 'paid 50' }]);
      const executed: string[] = [];
      const executor = new Executor({
        provider,
        tools,
        activities: [
          {
            transfer: (params, context) => {
              executed.push(`${context.callId} attempt ${context.attempt}`);
              return { sent: params.amount };
            },
          },
        ],
      });
      const agent = new Agent({ provider, toolkit: new Toolkit({ tools }), executor }, { store });
      const result = await agent.resume(stopped.runId, { decisions: { '1:0': { approve: true } } });
      expect(result.stopReason).toBe('output');
      expect(result.output).toBe('paid 50');
      expect(result.runId).toBe(stopped.runId);
      expect(executed).toEqual(['1:0 attempt 1']);
      expect((await store.load(stopped.runId))?.status).toBe('completed');
      await store.close();
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });
});
