import {
  addUsage,
  createAgent,
  emptyUsage,
  type Provider,
  type ProviderRequest,
  type ProviderResponse,
  type Usage,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import {
  collect,
  makeRunModuleRoot,
  nestedScript,
  ofType,
  plannerTool,
  removeRunModuleRoot,
  summarizeTool,
  sunny,
  weatherTool,
} from './run-fixtures';

/** Issue 16 item 6: usage per request, per model and per run path, totalled over the run tree. */
let root: string;
beforeAll(async () => {
  root = await makeRunModuleRoot();
});
afterAll(async () => {
  await removeRunModuleRoot(root);
});

/** Answers through `inner`, reporting the model `modelFor` names and keeping every usage. */
class ModelReportingProvider implements Provider {
  readonly name = 'recording';
  readonly usages: Usage[] = [];
  constructor(
    private readonly inner: Provider,
    private readonly modelFor: (request: ProviderRequest) => string = (request) =>
      request.model ?? 'default-model',
  ) {}
  async generate(request: ProviderRequest): Promise<ProviderResponse> {
    const response = await this.inner.generate(request);
    this.usages.push(response.usage);
    return { ...response, model: this.modelFor(request) };
  }
}

/** The summarizer's sub-request is answered by a small model, the agents' turns by a big one. */
function modelOfPrompt(request: ProviderRequest): string {
  const summarizer = request.messages.some((message) =>
    message.content.includes('You are summarizer.'),
  );
  return summarizer ? 'small-model' : 'big-model';
}

function sum(usages: Iterable<Usage>): Usage {
  let total = emptyUsage();
  for (const usage of usages) total = addUsage(total, usage);
  return total;
}

function tokens(usage: Usage): Usage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedTokens: usage.cachedTokens,
  };
}

const byJson = (left: Usage, right: Usage): number =>
  JSON.stringify(left).localeCompare(JSON.stringify(right));

describe('run usage (issue 16 item 6)', () => {
  it('totals every request of the run tree; byModel and byPath sum to the totals; each request-end has its own usage', async () => {
    const provider = new ModelReportingProvider(new ScriptedProvider(nestedScript), modelOfPrompt);
    const agent = createAgent({
      tools: [summarizeTool, plannerTool],
      activities: [sunny],
      provider,
      moduleRoot: root,
    });
    const stream = agent.stream({ task: 'Summarize and plan' });
    const events = await collect(stream);
    const result = await stream.result;
    expect(result.output).toBe('done');

    // 2 root turns + 1 module sub-request + 2 nested turns.
    const ends = ofType(events, 'request-end');
    expect(ends).toHaveLength(5);
    expect(provider.usages).toHaveLength(5);
    for (const end of ends) expect(end.usage.inputTokens).toBeGreaterThan(0);
    // Each request-end carries the usage of its own response (as the provider reported it).
    expect(ends.map((end) => tokens(end.usage)).sort(byJson)).toEqual(
      provider.usages.map(tokens).sort(byJson),
    );

    const totals = tokens(result.usage);
    expect(totals).toEqual(sum(ends.map((end) => end.usage)));
    expect(totals).toEqual(sum(provider.usages));
    expect(sum(Object.values(result.usage.byModel ?? {}))).toEqual(totals);
    expect(sum(Object.values(result.usage.byPath ?? {}))).toEqual(totals);
    expect(Object.keys(result.usage.byModel ?? {}).sort()).toEqual(['big-model', 'small-model']);
    expect(result.usage.byModel?.['small-model']).toEqual(
      sum(ends.filter((end) => end.model === 'small-model').map((end) => end.usage)),
    );

    // A module sub-request and a nested agent each have their own path key.
    const rootId = stream.runId;
    const nestedId = ofType(events, 'run-start').find((event) => event.runId !== rootId)!.runId;
    const keys = {
      root: rootId,
      module: `${rootId}/1:0`,
      nested: `${rootId}/1:1/${nestedId}`,
    };
    expect(Object.keys(result.usage.byPath ?? {}).sort()).toEqual(Object.values(keys).sort());
    for (const key of Object.values(keys)) {
      const atPath = ends.filter((end) => end.path.join('/') === key);
      expect(atPath.length).toBeGreaterThan(0);
      expect(result.usage.byPath?.[key]).toEqual(sum(atPath.map((end) => end.usage)));
    }
    expect(ends.filter((end) => end.path.join('/') === keys.module)).toHaveLength(1);
    expect(ends.filter((end) => end.path.join('/') === keys.nested)).toHaveLength(2);

    // The module Call's result node keeps its sub-request's usage.
    const summarizeResult = result.state.nodes.find(
      (node) => node.message.type === 'result' && node.message.call._tool === 'summarize',
    );
    expect(summarizeResult?.metadata.usage).toEqual(result.usage.byPath?.[keys.module]);
    expect(result.usage.byModel?.['small-model']).toEqual(result.usage.byPath?.[keys.module]);

    // The nested run's own run-end totals its own requests; the root's run-end totals everything.
    const runEnds = ofType(events, 'run-end');
    const nestedEnd = runEnds.find((event) => event.runId === nestedId)!;
    expect(tokens(nestedEnd.usage)).toEqual(result.usage.byPath?.[keys.nested]);
    const rootEnd = runEnds.find((event) => event.runId === rootId)!;
    expect(tokens(rootEnd.usage)).toEqual(totals);
    expect(rootEnd.usage.byPath).toEqual(result.usage.byPath);
  });

  it('breaks usage down by the model each request reports', async () => {
    const provider = new ModelReportingProvider(
      new ScriptedProvider([
        { calls: [{ _tool: 'weather', city: 'Oslo' }], output: null },
        { calls: [], output: 'sunny' },
      ]),
    );
    const agent = createAgent({
      tools: [weatherTool],
      activities: [sunny],
      provider,
      model: 'model-a',
    });
    const stream = agent.stream({ task: 'Weather in Oslo?' });
    const events = await collect(stream);
    const result = await stream.result;
    const ends = ofType(events, 'request-end');
    expect(ends.map((end) => end.model)).toEqual(['model-a', 'model-a']);
    expect(result.usage.byModel).toEqual({ 'model-a': tokens(result.usage) });
    expect(ofType(events, 'request-start').map((event) => event.model)).toEqual([
      'model-a',
      'model-a',
    ]);
  });

  it('a repaired request counts every attempt, each with its own request-end (R-REQ-3)', async () => {
    const scripted = new ScriptedProvider([
      ScriptedProvider.raw('{"calls": [ not json'),
      { calls: [], output: 'fixed' },
    ]);
    const provider = new ModelReportingProvider(scripted);
    const agent = createAgent({ tools: [weatherTool], activities: [sunny], provider });
    const stream = agent.stream({ task: 'Answer' });
    const events = await collect(stream);
    const result = await stream.result;
    expect(result.output).toBe('fixed');
    const ends = ofType(events, 'request-end');
    expect(ofType(events, 'request-start').map((event) => event.attempt)).toEqual([0, 1]);
    expect(ends).toHaveLength(2);
    expect(ends.map((end) => tokens(end.usage))).toEqual(provider.usages.map(tokens));
    expect(tokens(result.usage)).toEqual(sum(provider.usages));
    expect(result.usage.byPath).toEqual({ [stream.runId]: tokens(result.usage) });
  });
});
