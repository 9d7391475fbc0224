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

  it('round-trips names that need encoding', () => {
    for (const route of [
      { page: 'tool', name: 'music/composer idea' },
      { page: 'run', runId: 'run a/b' },
      { page: 'runs' },
      { page: 'tools' },
    ] as const) {
      expect(parseRoute(routeHash(route))).toEqual(route);
    }
  });
});
