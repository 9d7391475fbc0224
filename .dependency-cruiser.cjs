/**
 * The architecture as code (issue 15): each layer of src/ may import only the layers listed for it,
 * and no module may take part in an import cycle. `npm run lint` runs it; CI fails on any violation.
 *
 *   errors, internal   (bottom: no ideact imports besides each other)
 *   protocol           ← pure rules, no I/O
 *   llm, codegen       ← providers; Idea → TypeScript
 *   runs               ← a run's identity and data: RunContext, events, tracing, the RunStore
 *                        interface, the state types, the journal
 *   requests           ← one model request: prepare, send, repair, message handlers
 *   calls              ← THE call pipeline (DESIGN §8) and its executors (calls/executors/), the
 *                        Executor, Toolkit, Toolsets, module loading, batches
 *   agent              ← the loop: Agent, Run, Prompter/Generator/Discriminator/Actor
 *   decorators         ← records metadata, builds tool schemas
 *   store              ← run stores (files, PostgreSQL) behind the runs' RunStore interface
 *   container          ← wires everything with typedi
 *   engine             ← workers: runs as DBOS workflows on PostgreSQL (the SDK loads lazily)
 *   evals              ← evals (issue 33): cases run as tagged runs, scorers, reports, baselines
 *   mcp                ← MCP both ways: MCP servers' tools as a Toolset; Tools and Ideas served over MCP
 *   dev                ← `ideact dev`: the local web playground's server (runs, events, approvals)
 *   serve              ← `createRunHandler` / `ideact serve`: runs served to apps over HTTP (the AI
 *                        SDK's UI message stream, AG-UI), resumable event streams, auth and limits
 *   cli                ← the `ideact` command
 *   testing, index.ts  ← public entries
 */
/**
 * Each layer with the layers directly below it; a layer may import itself and everything reachable
 * downwards (so `cli` may import `container`, `decorators`, `runtime`, … down to `errors`).
 */
const below = {
  internal: [],
  errors: ['internal'],
  protocol: ['errors'],
  llm: ['protocol'],
  codegen: ['protocol'],
  runs: ['llm', 'codegen'],
  requests: ['runs'],
  calls: ['requests'],
  agent: ['calls'],
  decorators: ['calls'],
  store: ['runs'],
  // container → store: createAgent keeps `stateFile` runs in a one-run FileRunStore (issue 18).
  container: ['decorators', 'store', 'agent'],
  engine: ['container', 'store'],
  // evals → container: an eval's target is an Idea or a config module made into an agent.
  evals: ['container', 'store'],
  mcp: ['container'],
  // dev → evals: the playground's Evals page reads the experiments an eval saved.
  dev: ['container', 'store', 'evals'],
  // serve reuses the playground's catalog and one-Call runs, and the engine's stored-run cancel.
  serve: ['dev', 'engine'],
  cli: ['container', 'store', 'engine', 'mcp', 'dev', 'serve', 'evals'],
  testing: ['llm'],
};

/** The layers `layer` may import: itself and, transitively, everything below it. */
function allowedFrom(layer, seen = new Set()) {
  if (seen.has(layer)) return seen;
  seen.add(layer);
  for (const lower of below[layer]) allowedFrom(lower, seen);
  return seen;
}

const layers = Object.fromEntries(
  Object.keys(below).map((layer) => [layer, [...allowedFrom(layer)]]),
);

const folders = (names) => `^src/(${names.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties layers or files together; move the shared piece down a layer.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unknown-layer',
      severity: 'error',
      comment:
        'Every folder of src/ is a layer listed in .dependency-cruiser.cjs; add a new folder there with the layers it may import.',
      from: { path: '^src/[^/]+/', pathNot: folders(Object.keys(layers)) },
      to: {},
    },
    {
      name: 'no-unknown-layer',
      severity: 'error',
      comment:
        'Every folder of src/ is a layer listed in .dependency-cruiser.cjs; add a new folder there with the layers it may import.',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: folders(Object.keys(layers)) },
    },
    {
      name: 'calls-through-the-pipeline',
      severity: 'error',
      comment:
        'Entry points reach Calls only through the call pipeline (src/calls: Executor, runCall); the executors behind it (src/calls/executors/) are its own (DESIGN §8, docs/calls.md).',
      from: { path: '^src/', pathNot: '^src/calls/' },
      to: { path: '^src/calls/executors/' },
    },
    ...Object.entries(layers).map(([layer, allowed]) => ({
      name: `layer-${layer}`,
      severity: 'error',
      comment: `src/${layer} may import only: ${allowed.join(', ')} (arrows point down the layers; README, Contributing).`,
      from: { path: `^src/${layer}/` },
      to: { path: '^src/', pathNot: folders(allowed) },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules|bench|coverage)/' },
  },
};
