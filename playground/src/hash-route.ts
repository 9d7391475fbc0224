/**
 * The playground's pages as hash routes (`#/`, `#/tools/:name`, `#/runs/:id`, `#/runs`, `#/evals`,
 * `#/evals/:id`, `#/evals/:baseline/vs/:id`): the server
 * answers every page path with index.html, so routing stays in the browser and links survive reloads.
 */

/** A page of the playground. */
export type Route =
  | { page: 'tools' }
  | { page: 'tool'; name: string }
  | { page: 'runs' }
  | { page: 'run'; runId: string }
  | { page: 'evals' }
  | { page: 'experiment'; id: string }
  | { page: 'compare'; baseline: string; id: string }
  | { page: 'not-found'; hash: string };

/** The page `hash` (`location.hash`, with or without `#`) shows. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  if (path === '' || path === '/') return { page: 'tools' };
  const [, section, ...rest] = path.split('/');
  const argument = rest.length > 0 ? decodeURIComponent(rest.join('/')) : undefined;
  if (section === 'tools' && argument !== undefined) return { page: 'tool', name: argument };
  if (section === 'tools') return { page: 'tools' };
  if (section === 'runs' && argument !== undefined) return { page: 'run', runId: argument };
  if (section === 'runs') return { page: 'runs' };
  if (section === 'evals') {
    const parts = rest.map((part) => decodeURIComponent(part));
    if (parts.length === 0) return { page: 'evals' };
    if (parts.length === 1) return { page: 'experiment', id: parts[0] as string };
    if (parts.length === 3 && parts[1] === 'vs') {
      return { page: 'compare', baseline: parts[0] as string, id: parts[2] as string };
    }
  }
  return { page: 'not-found', hash };
}

/** The hash that shows `route`. */
export function routeHash(route: Route): string {
  switch (route.page) {
    case 'tools':
      return '#/';
    case 'tool':
      return `#/tools/${encodeURIComponent(route.name)}`;
    case 'runs':
      return '#/runs';
    case 'run':
      return `#/runs/${encodeURIComponent(route.runId)}`;
    case 'evals':
      return '#/evals';
    case 'experiment':
      return `#/evals/${encodeURIComponent(route.id)}`;
    case 'compare':
      return `#/evals/${encodeURIComponent(route.baseline)}/vs/${encodeURIComponent(route.id)}`;
    case 'not-found':
      return route.hash;
  }
}
