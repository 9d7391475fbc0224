import { ScriptedProvider } from 'ideact/testing';
import { planScript, planTrip } from '../../examples/plan/main';
import { stayOffline } from './capture-stdout';

stayOffline();

describe('examples/plan: a Vessel run as a dataflow graph, with a delegated Call (R-FLOW-1, R-DEL-1, R-SCOPE-1)', () => {
  let provider: ScriptedProvider;
  let outcome: Awaited<ReturnType<typeof planTrip>>;
  beforeAll(async () => {
    provider = planScript();
    outcome = await planTrip(provider);
  });

  it('R-FLOW-1 starts the independent Calls at once and each dependant after what it reads', () => {
    const order = outcome.timeline.map((entry) => `${entry.event}:${entry.tool}`);
    const at = (entry: string) => order.indexOf(entry);
    expect(order.slice(0, 2).sort()).toEqual(['start:findFlight', 'start:forecast']);
    expect(at('start:findHotel')).toBeGreaterThan(at('end:findFlight'));
    expect(at('start:summarize')).toBeGreaterThan(at('end:findHotel'));
    expect(at('start:summarize')).toBeGreaterThan(at('end:findFlight'));
    expect(outcome.result.output).toBe('Booked: flight AB123, Harbour Inn, snow expected.');
    expect(outcome.result.failedCalls).toEqual([]);
  });

  it('R-DEL-1 R-SCOPE-1 the delegate gets its own context, then the scoped State, then the params as input', () => {
    const delegated = provider.requests.find((request) => request.schemaName === 'tripSummary');
    const text = (delegated?.messages ?? []).map((message) => message.content).join('\n');
    expect(text).toContain('You write short, warm trip summaries.');
    expect(text).toContain('quiet rooms'); // the run's State, appended by _scopes
    expect(text).not.toContain('Plan my trip to Oslo'); // the conversation stays outside
    expect(text).toContain('Harbour Inn'); // the hotel param, resolved from †state.hotel
    expect(text.indexOf('You write short')).toBeLessThan(text.indexOf('quiet rooms'));
  });
});
