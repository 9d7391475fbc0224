import type { JSONSchema, Message } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  INSTANCES,
  TICKETS,
  batchScript,
  main,
  runBatch,
  type BatchRun,
} from '../../examples/batch/main';
import { captureStdout, stayOffline } from './capture-stdout';

stayOffline();

describe('examples/batch: one request over five instances (R-INST-1)', () => {
  let provider: ScriptedProvider;
  let run: BatchRun;

  beforeAll(async () => {
    provider = new ScriptedProvider(batchScript());
    run = await runBatch(provider);
  });

  it('R-INST-1 one Vessel request offers _instance ①…⑤ and returns a Call for every instance', () => {
    expect(provider.requests).toHaveLength(1);
    provider.assertComplete();
    const calls = provider.requests[0]?.schema.properties?.calls;
    const callSchema = (calls?.items as JSONSchema | undefined)?.anyOf?.[0];
    expect(callSchema?.properties?._instance?.enum).toEqual(INSTANCES);
    expect(run.calls.map((call) => call._instance)).toEqual(INSTANCES);
    // Every instance's State reaches the LLM as its own block, under its instance token.
    const messages = provider.requests[0]?.messages ?? [];
    for (const instance of INSTANCES) {
      const block = messages.find((message) =>
        message.content.startsWith(`## Data: ¶state (instance ${instance})`),
      );
      expect(block?.content).toContain(TICKETS[instance]!.ticket.subject);
    }
  });

  it('R-VAR-1 R-INST-1 the same references resolve to each instance’s own ticket', () => {
    expect(new Set(run.calls.map((call) => call.subject))).toEqual(
      new Set(['†state.ticket.subject']),
    );
    for (const instance of INSTANCES) {
      const state = run.states[instance] as { triage: { reason: string } };
      expect(state.triage.reason).toContain(`"${TICKETS[instance]!.ticket.subject}"`);
    }
  });

  it('R-INST-1 the global State is the default and an instance’s own State overrides it', () => {
    const plans = INSTANCES.map(
      (instance) => (run.states[instance] as { customer: { plan: string } }).customer.plan,
    );
    expect(plans).toEqual(['enterprise', 'free', 'pro', 'free', 'enterprise']);
    const reasons = INSTANCES.map(
      (instance) => (run.states[instance] as { triage: { reason: string } }).triage.reason,
    );
    expect(reasons.map((reason) => reason.split(' plan')[0])).toEqual(plans);
  });

  it('R-OUT-1 R-INST-1 each Call writes its output into its own State only', () => {
    expect(run.batch.ok).toBe(true);
    const patches = run.batch.messages.filter(
      (message): message is Extract<Message, { type: 'state' }> => message.type === 'state',
    );
    expect(patches.map((patch) => patch._instance)).toEqual(INSTANCES);
    expect(
      INSTANCES.map((instance) => {
        const { queue, priority } = (run.states[instance] as { triage: Record<string, string> })
          .triage;
        return `${queue}/${priority}`;
      }),
    ).toEqual(['tech/urgent', 'billing/normal', 'general/normal', 'tech/normal', 'billing/high']);
  });

  it('R-INST-1 without _instance the reference has no ticket to read: a typed error, no patch', async () => {
    const [call] = (batchScript()[0] as { calls: Array<Record<string, unknown>> }).calls;
    const { _instance, ...global } = call!;
    expect(_instance).toBe('①');
    const failing = await runBatch(new ScriptedProvider([{ calls: [global], output: null }]));
    expect(failing.batch.ok).toBe(false);
    expect(failing.batch.messages).toEqual([
      expect.objectContaining({
        type: 'result',
        error: expect.objectContaining({ code: 'UNRESOLVED_REFERENCE' }),
      }),
    ]);
  });

  it('prints the offline label first, then every instance’s State', async () => {
    const printed = await captureStdout(main);
    const lines = printed.trimEnd().split('\n');
    expect(lines[0]).toBe('provider: scripted replies (offline, not a model)');
    expect(lines[1]).toBe('1 request → 5 calls (① ② ③ ④ ⑤), executor.all ok: true');
    expect(lines.slice(2).map((line) => line.split(' ')[0])).toEqual(INSTANCES);
    expect(lines[2]).toContain('"triage":{"queue":"tech","priority":"urgent"');
  });
});
