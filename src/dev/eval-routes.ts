import type { ServerResponse } from 'node:http';
import { compareExperiments } from '../evals/compare-experiments';
import type { ExperimentStore } from '../evals/experiment-store';
import { sendJson } from './http-json';
import { PlaygroundRequestError } from './playground-request-error';

/**
 * The playground's eval API (issue 33 item 3, docs/playground.md): `GET /api/evals` (the
 * experiments, newest first), `GET /api/evals/:id` (one experiment's cases, scores and reasons, each
 * trial's run id) and `GET /api/evals/:baseline/vs/:id` (two experiments case by case).
 */
export async function handleEvalsApi(
  experiments: ExperimentStore,
  method: string,
  segments: readonly string[],
  response: ServerResponse,
): Promise<void> {
  if (method !== 'GET') throw notFound();
  const [id, verb, other, ...rest] = segments;
  if (rest.length > 0) throw notFound();
  if (id === undefined || id === '') {
    return sendJson(response, 200, { dir: experiments.dir, experiments: await experiments.list() });
  }
  const experiment = await load(experiments, id);
  if (verb === undefined) return sendJson(response, 200, experiment);
  if (verb !== 'vs' || other === undefined) throw notFound();
  const current = await load(experiments, other);
  return sendJson(response, 200, {
    baseline: experiment,
    experiment: current,
    comparison: compareExperiments(experiment, current),
  });
}

async function load(experiments: ExperimentStore, id: string) {
  const found = await experiments.load(id);
  if (found === undefined) {
    throw new PlaygroundRequestError(
      404,
      'EXPERIMENT_NOT_FOUND',
      `No experiment "${id}" in ${experiments.dir} (ideact eval saves experiments there).`,
    );
  }
  return found;
}

function notFound(): PlaygroundRequestError {
  return new PlaygroundRequestError(
    404,
    'NOT_FOUND',
    'No such API endpoint (see docs/playground.md).',
  );
}
