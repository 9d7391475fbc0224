import { parseRoute, routeHash } from '../../playground/src/hash-route';

/** The playground's hash routes (`#/`, `#/tools/:name`, `#/runs/:id`, `#/runs`) survive a reload. */
describe('hash routes', () => {
  it('parses every page', () => {
    expect(parseRoute('')).toEqual({ page: 'tools' });
    expect(parseRoute('#/')).toEqual({ page: 'tools' });
    expect(parseRoute('#/tools/composer')).toEqual({ page: 'tool', name: 'composer' });
    expect(parseRoute('#/runs')).toEqual({ page: 'runs' });
    expect(parseRoute('#/runs/')).toEqual({ page: 'runs' });
    expect(parseRoute('#/runs/run_1')).toEqual({ page: 'run', runId: 'run_1' });
    expect(parseRoute('#/elsewhere')).toEqual({ page: 'not-found', hash: '#/elsewhere' });
  });

  it('issue 33: parses the Evals pages (list, one experiment, two compared)', () => {
    expect(parseRoute('#/evals')).toEqual({ page: 'evals' });
    expect(parseRoute('#/evals/music-1')).toEqual({ page: 'experiment', id: 'music-1' });
    expect(parseRoute('#/evals/music-1/vs/music-2')).toEqual({
      page: 'compare',
      baseline: 'music-1',
      id: 'music-2',
    });
    expect(parseRoute('#/evals/a/b')).toEqual({ page: 'not-found', hash: '#/evals/a/b' });
  });

  it('round-trips names that need encoding', () => {
    for (const route of [
      { page: 'tool', name: 'music/composer idea' },
      { page: 'run', runId: 'run a/b' },
      { page: 'runs' },
      { page: 'tools' },
      { page: 'evals' },
      { page: 'experiment', id: 'music 1/x' },
      { page: 'compare', baseline: 'a/b', id: 'c d' },
    ] as const) {
      expect(parseRoute(routeHash(route))).toEqual(route);
    }
  });
});
