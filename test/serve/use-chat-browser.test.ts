import { existsSync, promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import {
  createRunHandler,
  FileRunStore,
  toNodeListener,
  type Agent,
  type RunHandler,
} from 'ideact';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ANSWERS, deleted, REASONING, servedAgent, TASKS } from './support/serve-fixtures';

/**
 * Issue 32 item 2: `useChat` from `@ai-sdk/react`, unchanged, in a small React page bundled by
 * esbuild and driven in Debian's Chromium (playwright-core): a streamed answer, a tool part, an
 * approval clicked in the page, and a reload mid-answer that resumes the same run (the run id in
 * the message metadata stays the same and the answer completes).
 */
const TOKEN = 'page-token';

function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate): candidate is string =>
      candidate !== undefined && candidate !== '' && existsSync(candidate),
  );
  if (found !== undefined) return found;
  throw new Error(
    'The useChat browser test needs Chromium: `apt-get install -y chromium` or set CHROMIUM_PATH. It does not skip without it.',
  );
}

let browser: Browser;
let server: Server;
let handler: RunHandler;
let agent: Agent;
let directory: string;
let url: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-use-chat-'));
  const bundle = await build({
    entryPoints: [path.join(__dirname, 'fixtures', 'chat-page.tsx')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  // Slow enough that a reload lands in the middle of an answer.
  agent = servedAgent({ delayMs: 30, chunkSize: 3 });
  handler = createRunHandler(agent, {
    store: new FileRunStore({ dir: directory }),
    token: TOKEN,
    onError: () => undefined,
  });
  const api = toNodeListener(handler);
  server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://page').pathname;
    if (pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<!doctype html><html><body><div id="root"></div><script src="/app.js"></script></body></html>',
      );
    } else if (pathname === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else api(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await handler?.close();
  await agent?.dispose();
  await fs.rm(directory, { recursive: true, force: true });
});

async function openChat(chat: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${url}/?chat=${chat}&token=${TOKEN}`);
  await page.waitForSelector('#prompt');
  return page;
}

/** A page-side condition (a script string: the test compiles without the DOM types). */
function answerIs(text: string): string {
  return `(document.querySelector('.assistant .text')?.textContent ?? '') === ${JSON.stringify(text)}`;
}

async function send(page: Page, text: string): Promise<void> {
  await page.fill('#prompt', text);
  await page.click('#send');
}

it('streams an answer into a text part, in pieces, with the run id in the metadata', async () => {
  const page = await openChat('chat-hello');
  await send(page, TASKS.hello);
  // Part of the answer shows before all of it: the text streams.
  await page.waitForFunction(
    `(() => { const text = document.querySelector('.assistant .text')?.textContent ?? ''; return text.length > 0 && text.length < ${ANSWERS.hello.length}; })()`,
  );
  await page.waitForFunction(answerIs(ANSWERS.hello));
  expect(await page.textContent('.assistant .run-id')).toMatch(/^run_/);
  await page.waitForFunction(`document.querySelector('#status')?.textContent === 'ready'`);
  expect(pageErrors).toEqual([]);
  await page.close();
}, 30_000);

it('shows the Call’s reasoning, a tool part with its input and output, then the answer', async () => {
  const page = await openChat('chat-weather');
  await send(page, TASKS.weather);
  await page.waitForSelector('.tool[data-tool="weather"][data-state="output-available"]');
  expect(JSON.parse((await page.textContent('.tool .input')) as string)).toEqual({ city: 'Paris' });
  expect(await page.textContent('.assistant .reasoning')).toBe(REASONING);
  expect(JSON.parse((await page.textContent('.tool .output')) as string)).toEqual({
    city: 'Paris',
    sky: 'sun',
  });
  await page.waitForFunction(answerIs(ANSWERS.weather));
  await page.close();
}, 30_000);

it('an approval clicked in the page resumes the run: the tool runs once and the answer follows', async () => {
  const before = deleted.length;
  const page = await openChat('chat-delete');
  await send(page, TASKS.delete);
  await page.waitForSelector(
    '.tool[data-tool="deleteFile"][data-state="approval-requested"] .approve',
  );
  expect(deleted.length).toBe(before);
  const runId = await page.textContent('.assistant .run-id');
  await page.click('.approve');
  await page.waitForSelector('.tool[data-tool="deleteFile"][data-state="output-available"]');
  await page.waitForFunction(answerIs(ANSWERS.deleted));
  expect(await page.textContent('.assistant .run-id')).toBe(runId);
  expect(deleted.slice(before)).toEqual(['notes.txt']);
  expect(pageErrors).toEqual([]);
  await page.close();
}, 30_000);

it('a reload in the middle of an answer resumes the same run and the answer completes', async () => {
  const page = await openChat('chat-reload');
  await send(page, TASKS.slow);
  await page.waitForFunction(
    `(document.querySelector('.assistant .text')?.textContent ?? '').length > 20`,
  );
  const runId = await page.textContent('.assistant .run-id');
  expect(runId).toMatch(/^run_/);
  await page.reload();
  // The page knows nothing but its chat id: useChat({ resume: true }) reconnects to the running run.
  await page.waitForFunction(answerIs(ANSWERS.slow), undefined, { timeout: 20_000 });
  expect(await page.textContent('.assistant .run-id')).toBe(runId);
  const runs = await (
    await fetch(`${url}/runs`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).json();
  expect(
    (runs as { runs: Array<{ runId: string }> }).runs.filter((run) => run.runId === runId),
  ).toHaveLength(1);
  expect(pageErrors).toEqual([]);
  await page.close();
}, 40_000);
