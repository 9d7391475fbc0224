/**
 * `npm run example -- batch`: instancing (R-INST-1). Five support tickets, each in its own State
 * (`_instance` ①…⑤). ONE Request returns a `triageTicket` Call per ticket; the Executor runs them as
 * one batch, and each Call reads ITS ticket through `†state…` references and writes into ITS State.
 */
import { IsIn, IsString } from 'class-validator';
import {
  Activity,
  Describe,
  Executor,
  OutputPath,
  Service,
  Tool,
  buildVesselSchema,
  createContainer,
  createDefaultProvider,
  disposeContainer,
  parseVessel,
  request,
  viewOfKind,
  type BatchResult,
  type Call,
  type Message,
  type Provider,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';

/** The instance ids: one per ticket. */
export const INSTANCES = ['①', '②', '③', '④', '⑤'];

/** Each instance's starting State. ② and ④ name no plan: they get the global default. */
export const TICKETS: Record<
  string,
  { customer: { name: string; plan?: string }; ticket: { subject: string } }
> = {
  '①': {
    customer: { name: 'Ada', plan: 'enterprise' },
    ticket: { subject: 'Checkout is down for all users' },
  },
  '②': { customer: { name: 'Ben' }, ticket: { subject: 'Refund for a double charge' } },
  '③': {
    customer: { name: 'Chloe', plan: 'pro' },
    ticket: { subject: 'How do I export my data?' },
  },
  '④': { customer: { name: 'Dan' }, ticket: { subject: 'Login fails with error 500' } },
  '⑤': {
    customer: { name: 'Eve', plan: 'enterprise' },
    ticket: { subject: 'Invoice shows the wrong VAT number' },
  },
};

/** An explicit tool (its Activity is the function below); the output lands in the Call's own State. */
@Tool({ description: 'Route one support ticket to a queue with a priority.' })
@OutputPath('state.triage')
export class TriageTicket {
  @IsString()
  @Describe('The ticket subject: pass †state.ticket.subject.')
  subject!: string;

  @IsIn(['free', 'pro', 'enterprise'])
  @Describe("The customer's plan: pass †state.customer.plan.")
  plan!: string;
}

/** What `triageTicket` returns (and the State keeps under `triage`). */
export interface Triage {
  queue: 'billing' | 'tech' | 'general';
  priority: 'urgent' | 'high' | 'normal';
  reason: string;
}

/** The Activities: `triageTicket` runs Calls of the tool of the same name (R-TOOL-2). */
@Service()
export class TicketRules {
  /** Plain routing rules over the params the references resolved to. */
  @Activity()
  triageTicket({ subject, plan }: TriageTicket): Triage {
    const queue = /refund|charge|invoice|vat/i.test(subject)
      ? 'billing'
      : /down|error|fail|login/i.test(subject)
        ? 'tech'
        : 'general';
    const priority = /down|outage/i.test(subject)
      ? 'urgent'
      : plan === 'enterprise'
        ? 'high'
        : 'normal';
    return { queue, priority, reason: `${plan} plan: "${subject}"` };
  }
}

/** The context: instructions, a global State (the default plan), then one State per instance. */
export function batchContext(): Message[] {
  return [
    {
      type: 'system',
      text:
        'You triage support tickets. Each ticket is a separate instance (¶state ①…⑤). Call ' +
        'triageTicket once per instance, set its _instance, and pass references, not copies: ' +
        'subject "†state.ticket.subject", plan "†state.customer.plan".',
    },
    { type: 'state', state: { customer: { plan: 'free' } } },
    ...INSTANCES.map((instance): Message => ({
      type: 'state',
      state: TICKETS[instance],
      _instance: instance,
    })),
    { type: 'text', text: 'Triage all five tickets now.' },
  ];
}

/** What a model would answer: five Calls in ONE Vessel, the same references, one per instance. */
export function batchScript(): unknown[] {
  const calls = INSTANCES.map((instance) => ({
    _tool: 'triageTicket',
    _instance: instance,
    subject: '†state.ticket.subject',
    plan: '†state.customer.plan',
  }));
  return [{ calls, output: null }];
}

/** The outcome of {@link runBatch}: the Calls, the batch, and every instance's State after it. */
export interface BatchRun {
  calls: Call[];
  batch: BatchResult;
  states: Record<string, unknown>;
}

/**
 * One Vessel Request offering `_instance` (`buildVesselSchema(…, { instances })`), then
 * `executor.all` over its Calls; the State patches carry each Call's `_instance`.
 */
export async function runBatch(provider: Provider): Promise<BatchRun> {
  const container = createContainer({
    tools: [TriageTicket],
    activities: [TicketRules],
    provider,
  });
  try {
    const executor = container.get(Executor);
    const tools = [...executor.tools];
    const context = batchContext();
    const schema = buildVesselSchema(tools, undefined, {
      instances: INSTANCES,
      activities: executor.activityNames,
    });
    const solution = await request({ context, schema, schemaName: 'vessel' }, { provider });
    const { calls } = parseVessel(solution, tools);
    const batch = await executor.all(calls, context);
    const after = [...context, ...batch.messages];
    const states = Object.fromEntries(
      INSTANCES.map((instance) => [instance, viewOfKind(after, 'state', instance)?.data]),
    );
    return { calls, batch, states };
  } finally {
    disposeContainer(container);
  }
}

/** Runs the batch and prints each instance's State. */
export async function main(): Promise<void> {
  const real =
    // Blank values count as unset, like createDefaultProvider() sees them.
    Boolean(process.env.OPENAI_API_KEY?.trim()) || Boolean(process.env.OPENAI_BASE_URL?.trim());
  const provider = real ? createDefaultProvider() : new ScriptedProvider(batchScript());
  process.stdout.write(
    real
      ? `provider: ${provider.name ?? 'custom'}\n`
      : 'provider: scripted replies (offline, not a model)\n',
  );
  const { calls, batch, states } = await runBatch(provider);
  const targets = calls.map((call) => String(call._instance ?? 'global')).join(' ');
  process.stdout.write(
    `1 request → ${calls.length} calls (${targets}), executor.all ok: ${batch.ok}\n`,
  );
  for (const instance of INSTANCES) {
    process.stdout.write(`${instance} ${JSON.stringify(states[instance])}\n`);
  }
}

if (require.main === module) {
  void main();
}
