/**
 * A benchmark's worker child process (bench/ideact-workers.mjs, bench/dbos-floor.mjs): started with
 * its environment as one JSON variable, ready once it prints `{"ready": id, "pid", "cpu"}`, and
 * stopped with SIGTERM, after which it prints `{"cpu"}` (its CPU ms, so the caller can tell the
 * worker's own cost from ready to stop).
 */
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

/**
 * Starts `node [...nodeArgs] script worker` in `cwd` with `environment` as JSON in `variable`;
 * resolves once the child is ready ({ child, pid, executorId, exited, cpu(), stderr() }) or rejects
 * with its stderr when it exits first (`label` names it in that error).
 */
export function startWorkerChild({ script, cwd, variable, environment, nodeArgs = [], label }) {
  const child = spawn(process.execPath, [...nodeArgs, script, 'worker'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, [variable]: JSON.stringify(environment) },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((text) => text.startsWith('{"ready"'));
      if (line === undefined) return;
      const ready = JSON.parse(line);
      // CPU ms from ready to the SIGTERM stop (once stopped; undefined when killed).
      const cpu = () => {
        const stopped = stdout.split('\n').find((text) => text.startsWith('{"cpu"'));
        return stopped === undefined ? undefined : JSON.parse(stopped).cpu - ready.cpu;
      };
      resolve({
        child,
        pid: ready.pid,
        executorId: ready.ready,
        exited,
        cpu,
        stderr: () => stderr,
      });
    });
    void exited.then((how) => reject(new Error(`${label} exited (${how}) early:\n${stderr}`)));
  });
}

/** Stops a worker child: SIGTERM, then SIGKILL when it has not exited after 5 s. */
export async function stopWorkerChild(worker) {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill('SIGTERM');
  const timer = setTimeout(() => worker.child.kill('SIGKILL'), 5_000);
  await worker.exited;
  clearTimeout(timer);
}
