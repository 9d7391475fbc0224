/**
 * The agent of the worker benchmarks (issue 18), the same in the worker processes and in-process: its
 * model is a ScriptedProvider keyed by the conversation (the number of assistant messages so far),
 * never by a counter of its own, so any worker process answers any request of any run alike.
 * Its Activities append one JSON line per execution to a side-effect log when one is given, so the
 * bench can check that no Call ran twice and no run was lost.
 */
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { loadIdeact, ROOT } from './ideact-package.mjs';

const require = createRequire(import.meta.url);

/** Tasks the scripted model knows. */
export const TASKS = {
  /** 3 turns of 2 instant Calls each, then the answer (8 DBOS steps on a worker: 4 model turns, 4 Actor steps). */
  short: 'bench short run',
  /** One turn of an instant Call and a slow one (slow on its first attempt only), then the answer. */
  slow: 'bench slow run',
  /** One module Call whose nested agent (the helper) does what the slow run does (`nestedBenchAgent`). */
  nested: 'bench nested run',
  /** The helper's own task (its module context names it). */
  helper: 'bench helper run',
};

/** Turns of 2 Calls in a short run. */
export const SHORT_TURNS = 3;
/** The output of every short run. */
export const SHORT_OUTPUT = `recorded ${SHORT_TURNS * 2}`;
/** The output of the slow run. */
export const SLOW_OUTPUT = 'recorded a, slept s';
/** The output of the nested run: the helper's output. */
export const NESTED_OUTPUT = 'helped';

const tool = (name, properties) => ({
  type: 'object',
  description: `The ${name} tool of the worker benchmarks.`,
  properties: { _tool: { const: name }, ...properties },
  required: ['_tool', ...Object.keys(properties)],
});

const TOOLS = [
  tool('record', { name: { type: 'string' } }),
  tool('slow', { ms: { type: 'number' } }),
];

function answer(request, slowMs) {
  const text = JSON.stringify(request.messages);
  const turn = request.messages.filter((message) => message.role === 'assistant').length;
  if (text.includes(TASKS.short)) {
    if (turn < SHORT_TURNS) {
      return {
        calls: [
          { _tool: 'record', name: `t${turn}a` },
          { _tool: 'record', name: `t${turn}b` },
        ],
        output: null,
      };
    }
    return { calls: [], output: SHORT_OUTPUT };
  }
  // The helper's conversation names only its task; the top agent's names its own first.
  if (text.includes(TASKS.nested)) {
    if (turn === 0) return { calls: [{ _tool: 'helper', job: 'help' }], output: null };
    return { calls: [], output: NESTED_OUTPUT };
  }
  if (text.includes(TASKS.slow) || text.includes(TASKS.helper)) {
    if (turn === 0) {
      return {
        calls: [
          { _tool: 'record', name: 'a' },
          { _tool: 'slow', ms: slowMs },
        ],
        output: null,
      };
    }
    return { calls: [], output: text.includes(TASKS.helper) ? NESTED_OUTPUT : SLOW_OUTPUT };
  }
  throw new Error(`the bench model knows no task in ${text.slice(0, 200)}`);
}

/**
 * The bench agent. `log`: a file every Activity execution appends a line to (runId, callId, attempt,
 * pid, time). `config`: the Agent's config (e.g. `{ store }`). `slowMs`: how long the slow Call waits
 * on its first attempt (later attempts return at once: the recovery bench kills the first one).
 */
export function benchAgent({ log, config = {}, slowMs = 60_000, nested = false } = {}) {
  const ideact = loadIdeact();
  if (ideact.loadError) throw new Error(ideact.loadError);
  const { Agent, Executor, Toolkit, executorWithNestedAgents } = ideact;
  const { ScriptedProvider } = require(path.join(ROOT, 'dist', 'testing', 'index.js'));
  const provider = new ScriptedProvider((request) => answer(request, slowMs));
  const effect = (tool, context) => {
    if (log === undefined) return;
    const line = {
      tool,
      runId: context.runId,
      callId: context.callId,
      attempt: context.attempt ?? 1,
      pid: process.pid,
      time: Date.now(),
    };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  };
  const options = {
    provider,
    tools: nested ? [...TOOLS, HELPER_TOOL] : TOOLS,
    activities: [
      {
        record: (params, context) => {
          effect('record', context);
          return { recorded: String(params.name) };
        },
        slow: async (params, context) => {
          effect('slow', context);
          const ms = (context.attempt ?? 1) === 1 ? Number(params.ms) : 0;
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            context.signal?.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(new Error('aborted'));
            });
          });
          return { slept: 's' };
        },
      },
    ],
  };
  const executor = nested
    ? executorWithNestedAgents({ ...options, moduleRoot: helperModuleRoot() })
    : new Executor(options);
  return new Agent({ provider, toolkit: new Toolkit({ tools: options.tools }), executor }, config);
}

/** The top agent's Tool of the nested run: it runs the helper module, an agent Idea (R-MOD-5). */
const HELPER_TOOL = {
  ...tool('helper', { job: { type: 'string' } }),
  properties: {
    _tool: { const: 'helper' },
    _module: { const: 'helper.json' },
    job: { type: 'string' },
  },
};

/** Writes the helper module (a Vessel Idea offering `record` and `slow`) and returns its folder. */
function helperModuleRoot() {
  const root = path.join(tmpdir(), 'ideact-bench-modules');
  mkdirSync(root, { recursive: true });
  const idea = {
    name: 'helper',
    context: [
      { type: 'system', text: `You are the helper of the ${TASKS.helper}.` },
      {
        type: 'input',
        input: { job: 'x' },
        schema: { type: 'object', properties: { job: { type: 'string' } } },
      },
    ],
    schema: {
      type: 'object',
      properties: {
        calls: { type: 'array', items: { anyOf: TOOLS } },
        output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['calls', 'output'],
      additionalProperties: false,
    },
  };
  // Atomic: a worker starting now must not let another one read a half-written module.
  const temporary = path.join(root, `helper.json.${process.pid}`);
  writeFileSync(temporary, JSON.stringify(idea));
  renameSync(temporary, path.join(root, 'helper.json'));
  return root;
}
