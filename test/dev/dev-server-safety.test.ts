import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startPlayground, type PlaygroundFixture } from './support/start-playground';
import { http } from './support/http-client';

/**
 * Issue 20 item 5: the playground answers only its own pages (Host and Origin checked against DNS
 * rebinding and CSRF; POSTs must be JSON) and serves no file but its built assets.
 */
let fixture: PlaygroundFixture;
let base: string;
let host: string;
beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-playground-assets-')));
  const assets = path.join(base, 'assets');
  await fs.mkdir(assets);
  await fs.writeFile(path.join(assets, 'index.html'), '<!doctype html><div id="root"></div>');
  await fs.writeFile(path.join(assets, 'app.js'), 'console.log("app")');
  await fs.writeFile(path.join(assets, '.hidden'), 'hidden');
  await fs.writeFile(path.join(base, 'secret.txt'), 'SECRET');
  await fs.symlink(path.join(base, 'secret.txt'), path.join(assets, 'link.js'));
  fixture = await startPlayground({ assetsDir: assets });
  host = new URL(fixture.url).host;
});
afterAll(async () => {
  await fixture.cleanup();
  await fs.rm(base, { recursive: true, force: true });
});

describe('Host and Origin checks', () => {
  it('answers a same-host GET without Origin, and with its own Origin', async () => {
    expect((await http(fixture.url, '/api/info')).status).toBe(200);
    const own = await http(fixture.url, '/api/info', { headers: { origin: `http://${host}` } });
    expect(own.status).toBe(200);
    const port = new URL(fixture.url).port;
    const localhost = await http(fixture.url, '/api/info', {
      headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` },
    });
    expect(localhost.status).toBe(200);
  });

  it('refuses a foreign Origin with 403 FORBIDDEN_ORIGIN (CSRF from another page)', async () => {
    for (const origin of ['http://evil.example', 'null', `https://${host}`, 'http://127.0.0.1:1']) {
      const answer = await http(fixture.url, '/api/tools', { headers: { origin } });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('FORBIDDEN_ORIGIN');
    }
    const post = await http(fixture.url, '/api/runs', {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
      body: { tool: 'order', params: {} },
    });
    expect(post.status).toBe(403);
  });

  it('refuses a rebinding Host with 403 FORBIDDEN_HOST, even for pages and assets', async () => {
    const port = new URL(fixture.url).port;
    for (const name of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`]) {
      for (const route of ['/api/info', '/', '/assets/app.js']) {
        const answer = await http(fixture.url, route, { headers: { host: name } });
        expect(answer.status).toBe(403);
        expect(answer.json.error.code).toBe('FORBIDDEN_HOST');
      }
    }
  });

  it('refuses a POST that is not application/json (a plain form cannot post)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const answer = await http(fixture.url, '/api/runs', {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify({ tool: 'order', params: {} }),
      });
      expect(answer.status).toBe(415);
      expect(answer.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const none = await http(fixture.url, '/api/runs', { method: 'POST', body: '{}' });
    expect(none.status).toBe(415);
  });
});

describe('static files', () => {
  it('serves the built assets and index.html for page paths', async () => {
    const app = await http(fixture.url, '/assets/app.js');
    expect(app.status).toBe(200);
    expect(app.headers['content-type']).toContain('text/javascript');
    expect(app.text).toBe('console.log("app")');
    for (const page of ['/', '/runs', '/tools/order']) {
      const answer = await http(fixture.url, page);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('<div id="root">');
    }
  });

  it('refuses path traversal, hidden files, symlinks out of the assets and the ideas folder (404)', async () => {
    for (const route of [
      '/assets/../secret.txt',
      '/assets/%2e%2e/secret.txt',
      '/assets/..%2fsecret.txt',
      '/assets/..%5csecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fideas%2fplanner.json',
      '/assets/.hidden',
      '/assets/link.js',
      '/assets/',
      '/assets/nothing.js',
      '/secret.txt',
      '/planner.json',
      '/ideas/planner.json',
      `/assets/${encodeURIComponent(path.join(fixture.ideasDir, 'planner.json'))}`,
    ]) {
      const answer = await http(fixture.url, route);
      expect([route, answer.status]).toEqual([route, 404]);
      expect(answer.text).not.toContain('SECRET');
      expect(answer.text).not.toContain('You are a planner');
    }
  });
});

describe('without built assets', () => {
  it('answers pages with a 500 saying to run npm run build', async () => {
    const bare = await startPlayground({ assetsDir: path.join(base, 'missing') });
    try {
      const answer = await http(bare.url, '/');
      expect(answer.status).toBe(500);
      expect(answer.text).toContain('npm run build');
    } finally {
      await bare.cleanup();
    }
  });
});
