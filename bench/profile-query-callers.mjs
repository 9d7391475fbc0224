/**
 * Who sends a worker's PostgreSQL statements (issue 18): sums, in V8 CPU profiles, the time spent
 * inside the `pg` driver's `client.query` (building and writing the statement, parsing the reply)
 * by the nearest caller that is ideact's `dist/` or the DBOS SDK, so the run store's share and
 * DBOS's share of a worker's time can be told apart. Async callers are the synchronous frames that
 * issued the query. Usage:
 *
 *   node bench/ideact-workers.mjs throughput --runs 300 --skip-in-process --profile /tmp/wprof
 *   node bench/profile-query-callers.mjs /tmp/wprof/*.cpuprofile --per=150
 */
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const perArgument = process.argv.find((argument) => argument.startsWith('--per='));
const per = perArgument === undefined ? 1 : Number(perArgument.slice('--per='.length));

const isQuery = (frame) =>
  frame.functionName === 'query' && /\/pg\/lib\/client\.js$/.test(frame.url);

/** The caller a query is charged to: the nearest ideact dist/ frame or DBOS SDK frame above it. */
function callerOf(frame) {
  if (/\/node_modules\/@dbos-inc\/dbos-sdk\//.test(frame.url)) {
    return `@dbos-inc/dbos-sdk ${frame.functionName || '(anonymous)'}`;
  }
  if (/\/dist\//.test(frame.url) && !/\/node_modules\//.test(frame.url)) {
    return `${frame.url.replace(/^.*\/dist\//, 'dist/')} ${frame.functionName || '(anonymous)'}`;
  }
  return undefined;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);
  const self = new Map();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const inclusive = (id) =>
    (nodes.get(id).children ?? []).reduce(
      (sum, child) => sum + inclusive(child),
      self.get(id) ?? 0,
    );
  const sums = new Map();
  for (const node of profile.nodes) {
    if (!isQuery(node.callFrame)) continue;
    let caller;
    let nested = false;
    for (let id = parents.get(node.id); id !== undefined; id = parents.get(id)) {
      const frame = nodes.get(id).callFrame;
      if (isQuery(frame)) {
        nested = true; // counted with the outer query
        break;
      }
      caller ??= callerOf(frame);
    }
    if (nested) continue;
    const key = caller ?? '(no dist/ or DBOS caller)';
    sums.set(key, (sums.get(key) ?? 0) + inclusive(node.id));
  }
  console.log(
    `\n## ${file}: time inside pg client.query by caller (ms${per === 1 ? '' : ` ÷ ${per}`})`,
  );
  for (const [caller, microseconds] of [...sums].sort((left, right) => right[1] - left[1])) {
    console.log(`${(microseconds / 1000 / per).toFixed(2).padStart(9)}  ${caller}`);
  }
}
