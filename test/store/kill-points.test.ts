import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRunStore, PostgresRunStore, type RunStore } from 'ideact';
import { databaseForThisFile } from '../support/test-database';

const ROOT = path.resolve(__dirname, '../..');
// Plain JS on the built package (`npm test` builds first): a child starts in ~0.2 s, not seconds.
const CHILD = path.join(__dirname, 'fixtures/kill-point-child.cjs');
const KILLS_PER_RUN = 5;
const database = databaseForThisFile();

/**
 * Where the child's run lives and whether it is watched step by step. Unwatched, a run goes on while
 * its commits are written (issue 31), and PostgreSQL commits with `sync: 'batch'` (its default).
 */
interface Variant {
  label: string;
  runs: number;
  arguments: (directory: string) => string[];
  store: (directory: string) => RunStore;
}

const variants: Variant[] = [
  {
    label: 'FileRunStore, watched step by step',
    runs: 6,
    arguments: () => ['watched', 'file'],
    store: (directory) => new FileRunStore({ dir: path.join(directory, 'runs') }),
  },
  {
    label: 'FileRunStore, unwatched (commits written while the run goes on)',
    runs: 4,
    arguments: () => ['unwatched', 'file'],
    store: (directory) => new FileRunStore({ dir: path.join(directory, 'runs') }),
  },
  {
    label: "PostgresRunStore (sync 'batch'), unwatched",
    runs: 4,
    arguments: () => ['unwatched', 'postgres', database.schema],
    store: () => new PostgresRunStore({ connectionString: database.url, schema: database.schema }),
  },
];

function startChild(directory: string, variant: Variant) {
  const child = spawn(process.execPath, [CHILD, directory, ...variant.arguments(directory)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, IDEACT_TEST_DATABASE_URL: database.url },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stderr: () => stderr };
}

async function waitFor(condition: () => boolean, limitMs: number): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return condition();
}

describe.each(variants)(
  'no completed Call runs again across kill points (issue 18 item 2): $label',
  (variant) => {
    const RUNS = variant.runs;
    it(`${RUNS * KILLS_PER_RUN} random SIGKILLs: every Call is recorded once, and never started again after its recorded attempt`, async () => {
      const base = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-kill-points-'));
      try {
        let killsLanded = 0;
        for (let runIndex = 0; runIndex < RUNS; runIndex++) {
          const directory = path.join(base, `run-${runIndex}`);
          await fs.mkdir(directory);
          for (let kill = 0; kill < KILLS_PER_RUN; kill++) {
            await fs.rm(path.join(directory, 'ready'), { force: true });
            const { child, exited } = startChild(directory, variant);
            await waitFor(
              () => existsSync(path.join(directory, 'ready')) || child.exitCode !== null,
              20_000,
            );
            // A random point in the run: between two turns, inside an Activity, between a result and its commit…
            await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 120)));
            child.kill('SIGKILL');
            const outcome = await exited;
            if (outcome.signal === 'SIGKILL') killsLanded += 1;
            if (outcome.code === 0) break; // finished before the kill
          }
          const last = startChild(directory, variant);
          const outcome = await last.exited;
          expect({ code: outcome.code, stderr: last.stderr() }).toEqual({ code: 0, stderr: '' });

          const runId = (await fs.readFile(path.join(directory, 'run-id'), 'utf8')).trim();
          const store = variant.store(directory);
          const stored = await store.load(runId);
          await store.close?.();
          const state = stored!.state;
          expect(state.nextStep).toMatchObject({
            module: 'done',
            args: { reason: 'output', output: 'done' },
          });
          // One recorded result per Call; the attempt it records is the last one ever started.
          const recorded = new Map<string, number>();
          for (const node of state.nodes) {
            const source = node.metadata.source;
            if (source === undefined) continue;
            const callId = `${source.nodeId}:${source.callIndex}`;
            expect(recorded.has(callId)).toBe(false);
            recorded.set(callId, (node.message as { output: { attempt: number } }).output.attempt);
          }
          expect(recorded.size).toBe(9);
          const lines = (await fs.readFile(path.join(directory, 'effects.log'), 'utf8'))
            .trim()
            .split('\n');
          const starts = new Map<string, number[]>();
          for (const line of lines) {
            const [kind, callId, attempt] = line.split(' ');
            if (kind === 'start')
              starts.set(callId!, [...(starts.get(callId!) ?? []), Number(attempt)]);
          }
          for (const [callId, attempts] of starts) {
            // Attempts only grow (one journaled right before a kill may never reach the Activity, so
            // numbers can be skipped), and none started after the attempt that was recorded.
            expect(attempts).toEqual([...attempts].sort((left, right) => left - right));
            expect(new Set(attempts).size).toBe(attempts.length);
            expect(Math.max(...attempts)).toBe(recorded.get(callId));
          }
        }
        // Most kills must hit a running child (not one that had already finished).
        expect(killsLanded).toBeGreaterThanOrEqual(RUNS * 2);
      } finally {
        await fs.rm(base, { recursive: true, force: true });
      }
    }, 240_000);
  },
);
