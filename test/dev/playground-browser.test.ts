import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRunStore, startDevServer } from 'ideact';
import { chromium, type Browser, type Page } from 'playwright-core';
import { GLOSSARY, startPlayground, type PlaygroundFixture } from './support/start-playground';

/**
 * The playground in a real browser (issue 20): Debian's Chromium driven by playwright-core (never a
 * downloaded browser) against the fixture server, whose ScriptedProvider streams its answers. The
 * flows: a generated form (enum select, nested object, array, inline errors), a live run tree
 * (a Call appears before its request ends), a module request's rendered data message, approving an
 * interrupted Call, and the run history after a reload and after a server restart.
 */

const repoRoot = path.resolve(__dirname, '..', '..');
/**
 * Where the screenshots go: a temp folder, so a test run changes no tracked file; the README's are
 * refreshed with `IDEACT_SCREENSHOTS_DIR=docs/img npx jest test/dev/playground-browser.test.ts`.
 */
const screenshots = path.resolve(
  repoRoot,
  process.env.IDEACT_SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'ideact-playground-screenshots'),
);

/** Chromium from CHROMIUM_PATH or the Debian package; a clear failure when there is none. */
function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find(
    (candidate): candidate is string =>
      candidate !== undefined && candidate !== '' && existsSync(candidate),
  );
  if (found !== undefined) return found;
  throw new Error(
    'The playground browser tests need Chromium and found none (looked at CHROMIUM_PATH, ' +
      '/usr/bin/chromium, /usr/bin/chromium-browser). Install it with `apt-get install -y chromium` ' +
      '(Debian/Ubuntu; .ci/run does this) or set CHROMIUM_PATH to a Chromium binary. ' +
      (process.env.CI ? 'CI is set: the tests do not skip.' : 'The tests do not skip without it.'),
  );
}

let browser: Browser;
let playground: PlaygroundFixture;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const executablePath = chromiumPath();
  // The tests drive the current sources: bundle them (esbuild, ~1 s) into dist/dev/assets.
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-playground.mjs')], {
    cwd: repoRoot,
    stdio: 'pipe',
  });
  browser = await chromium.launch({
    executablePath,
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
  // Slow enough streaming that the tree visibly grows while a request is still being written.
  playground = await startPlayground({ stream: { chunkSize: 4, delayMs: 25 } });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  mkdirSync(screenshots, { recursive: true });
}, 60_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await playground?.cleanup();
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

function testId(id: string): string {
  return `[data-testid="${id}"]`;
}

describe('playground in Chromium', () => {
  it('lists the Tools and Ideas with their kind, module and the provider', async () => {
    await page.goto(playground.url);
    await page.locator(testId('tool-row')).first().waitFor();
    const rows = page.locator(testId('tool-row'));
    const names = await rows.evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-tool')),
    );
    expect(names).toEqual(
      expect.arrayContaining(['order', 'deleteRecord', 'summarize', 'planner']),
    );
    const summarize = page.locator(`${testId('tool-row')}[data-tool="summarize"]`);
    await expect(summarize.textContent()).resolves.toContain('summarize.json');
    await expect(summarize.textContent()).resolves.toContain('latent');
    const order = page.locator(`${testId('tool-row')}[data-tool="order"]`);
    await expect(order.textContent()).resolves.toContain('explicit');
    await expect(order.textContent()).resolves.toContain('Places an order for T-shirts.');
    await expect(page.locator(testId('provider-banner')).textContent()).resolves.toContain(
      'scripted',
    );
  });

  it('fills the generated form (enum select, nested object, array), shows inline errors, runs it', async () => {
    await page.goto(`${playground.url}#/tools/order`);
    const form = page.locator(testId('tool-form'));
    await form.locator('#root_size').waitFor();
    // Enums are selects with their default chosen; the nested object's enum too.
    expect(await form.locator('#root_size').evaluate((element) => element.tagName)).toBe('SELECT');
    const chosen = (selector: string) => form.locator(`${selector} option:checked`).textContent();
    expect(await chosen('#root_size')).toBe('M');
    expect(await chosen('#root_address_country')).toBe('NO');
    expect(
      await form
        .locator('#root_size option')
        .evaluateAll((options) => options.map((option) => option.textContent)),
    ).toEqual(expect.arrayContaining(['S', 'M', 'L']));
    // Required marks on required fields (rjsf writes `*`).
    const streetLabel = await form.locator('label[for="root_address_street"]').textContent();
    expect(streetLabel).toContain('*');

    // Submitting the incomplete form shows the schema's errors inline and starts nothing.
    await page.locator(testId('run-button')).click();
    const streetGroup = form
      .locator('#root_address_street')
      .locator('xpath=ancestor::div[contains(@class,"form-group")][1]');
    await streetGroup.locator('.error-detail').waitFor();
    expect(await streetGroup.locator('.error-detail').textContent()).toContain(
      "must have required property 'street'",
    );
    expect(page.url()).toContain('#/tools/order');

    await form.locator('#root_size').selectOption('L');
    await form.locator('#root_address_street').fill('Storgata 1');
    // Live validation after the first submit: the street's error goes as soon as it is filled.
    await streetGroup.locator('.error-detail').waitFor({ state: 'detached' });
    await form.locator('#root_address_city').fill('Oslo');
    await form.locator('#root_address_country').selectOption('SE');
    // minItems 1: the array starts with one item; the Add button appends another.
    await form.locator('#root_items_0').fill('logo');
    await form.locator('#root_items__add').click();
    await form.locator('#root_items_1').fill('back print');
    await page.screenshot({
      path: path.join(screenshots, 'playground-tool-form.png'),
      fullPage: true,
    });

    await page.locator(testId('run-button')).click();
    await page.waitForURL(/#\/runs\/.+/);
    await page.locator(`${testId('run-status')}:text("completed")`).waitFor();
    const call = page.locator(`${testId('tree-call')}[data-tool="order"]`);
    expect(await call.getAttribute('data-status')).toBe('done');
    await call.locator('.node-head').first().click();
    const output = JSON.parse((await page.locator(testId('call-output')).textContent()) ?? '');
    expect(output).toEqual({
      orderId: 'A-1',
      size: 'L',
      address: { street: 'Storgata 1', city: 'Oslo', country: 'SE' },
      items: ['logo', 'back print'],
      express: false,
    });
    expect(await page.locator(testId('waterfall-bar')).count()).toBeGreaterThanOrEqual(1);
  });

  it('grows the tree live: the module Call appears while its request is still streaming', async () => {
    await page.goto(`${playground.url}#/tools/planner`);
    await page.locator('#root_goal').fill('ship the release');
    // Record, in the page, the root request's status at the moment the Call's node first appears.
    // (A script string: the test compiles without the DOM types; it runs in the page.)
    await page.evaluate(`(() => {
      window.callSeenWhileRequest = undefined;
      const observer = new MutationObserver(() => {
        if (window.callSeenWhileRequest !== undefined) return;
        if (document.querySelector('[data-testid="tree-call"]') === null) return;
        const request = document.querySelector(
          '[data-testid="tree-run"] > ul > [data-testid="tree-request"]',
        );
        window.callSeenWhileRequest = request === null ? null : request.getAttribute('data-status');
        observer.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    })()`);
    await page.locator(testId('run-button')).click();
    await page.waitForURL(/#\/runs\/.+/);
    const call = page.locator(`${testId('tree-call')}[data-tool="summarize"]`);
    await call.waitFor();
    expect(await page.evaluate('window.callSeenWhileRequest')).toBe('running');
    // The solution text streamed into the root request.
    const rootRequest = page
      .locator(`${testId('tree-run')} > ul > ${testId('tree-request')}`)
      .first();
    await expect(rootRequest.locator(testId('solution-text')).textContent()).resolves.toContain(
      '"_tool"',
    );

    await page.locator(`${testId('run-status')}:text("completed")`).waitFor();
    expect(await call.getAttribute('data-status')).toBe('done');
    // The module's own request is nested under its Call; its messages are what the provider saw.
    const moduleRequest = call.locator(testId('tree-request')).first();
    expect(await moduleRequest.getAttribute('data-status')).toBe('done');
    await moduleRequest.locator('.node-head').click();
    const messages = page.locator(`${testId('request-messages')} ${testId('message')}`);
    await messages.first().waitFor();
    const contents = await messages.evaluateAll((elements) =>
      elements.map((element) => ({
        role: element.getAttribute('data-role'),
        text: element.querySelector('pre')?.textContent ?? '',
      })),
    );
    expect(contents).toContainEqual({
      role: 'system',
      text: expect.stringContaining('You are a summarizer. Use the glossary.'),
    });
    // The Idea's data message, rendered as the protocol renders data: a heading with its kind, then the JSON.
    const dataMessage = contents.find((message) => message.text.startsWith('## Data: ¶glossary\n'));
    expect(dataMessage?.role).toBe('user');
    expect(JSON.parse(dataMessage?.text.slice('## Data: ¶glossary\n'.length) ?? '')).toEqual(
      GLOSSARY,
    );
    await expect(page.locator(testId('detail-usage')).textContent()).resolves.toMatch(/\d+ input/);
    // One waterfall bar per request and Call: two root turns, the Call and its sub-request.
    expect(await page.locator(testId('waterfall-bar')).count()).toBe(
      await page.locator(`${testId('tree-request')}, ${testId('tree-call')}`).count(),
    );
    await page.screenshot({ path: path.join(screenshots, 'playground-run.png'), fullPage: true });
    for (const name of ['playground-tool-form.png', 'playground-run.png']) {
      expect((await fs.stat(path.join(screenshots, name))).size).toBeGreaterThan(10_000);
    }
  });

  it('approves an interrupted Call with a button and the run finishes', async () => {
    await page.goto(`${playground.url}#/tools/deleteRecord`);
    await page.locator('#root_id').fill('rec-7');
    await page.locator(testId('run-button')).click();
    await page.waitForURL(/#\/runs\/.+/);
    await page.locator(`${testId('run-status')}:text("awaiting_approval")`).waitFor();
    const approval = page.locator(testId('approval'));
    expect(await approval.count()).toBe(1);
    await expect(approval.textContent()).resolves.toContain('rec-7');
    await approval.locator(testId('approve-button')).click();
    await page.locator(`${testId('run-status')}:text("completed")`).waitFor();
    expect(await page.locator(testId('approval')).count()).toBe(0);
    const call = page.locator(`${testId('tree-call')}[data-tool="deleteRecord"]`);
    expect(await call.getAttribute('data-status')).toBe('done');
    await call.locator('.node-head').first().click();
    expect(JSON.parse((await page.locator(testId('call-output')).textContent()) ?? '')).toEqual({
      deleted: 'rec-7',
    });
  });

  it('edits an interrupted Call’s params before it runs', async () => {
    await page.goto(`${playground.url}#/tools/deleteRecord`);
    await page.locator('#root_id').fill('rec-8');
    await page.locator(testId('run-button')).click();
    await page.waitForURL(/#\/runs\/.+/);
    await page.locator(`${testId('run-status')}:text("awaiting_approval")`).waitFor();
    await page.locator(testId('edit-button')).click();
    await page
      .locator(testId('edit-params'))
      .fill(JSON.stringify({ _tool: 'deleteRecord', id: 'rec-9' }));
    await page.locator(testId('edit-submit')).click();
    await page.locator(`${testId('run-status')}:text("completed")`).waitFor();
    await page
      .locator(`${testId('tree-call')}[data-tool="deleteRecord"] .node-head`)
      .first()
      .click();
    expect(JSON.parse((await page.locator(testId('call-output')).textContent()) ?? '')).toEqual({
      deleted: 'rec-9',
    });
  });

  it('rejects an interrupted Call with a reason: the Call ends with the rejection', async () => {
    await page.goto(`${playground.url}#/tools/deleteRecord`);
    await page.locator('#root_id').fill('rec-10');
    await page.locator(testId('run-button')).click();
    await page.waitForURL(/#\/runs\/.+/);
    await page.locator(`${testId('run-status')}:text("awaiting_approval")`).waitFor();
    await page.locator(testId('reject-reason')).fill('Keep rec-10.');
    await page.locator(testId('reject-button')).click();
    const call = page.locator(
      `${testId('tree-call')}[data-tool="deleteRecord"][data-status="error"]`,
    );
    await call.waitFor();
    await call.locator('.node-head').first().click();
    const error = (await page.locator(testId('call-error')).textContent()) ?? '';
    expect(error).toContain('CALL_REJECTED');
    expect(error).toContain('Keep rec-10.');
    // A one-Call run whose Call's result is an error fails (the run store's status).
    await page.locator(`${testId('run-status')}:text("failed")`).waitFor();
  });

  it('approves the Call an agent run stopped for: the resumed run continues in the same tree', async () => {
    await page.goto(`${playground.url}#/tools/cleaner`);
    await page.locator(testId('run-button')).click();
    await page.waitForURL(/#\/runs\/.+/);
    await page.locator(`${testId('run-status')}:text("awaiting_approval")`).waitFor();
    const approval = page.locator(testId('approval'));
    await expect(approval.textContent()).resolves.toContain('old-1');
    await approval.locator(testId('approve-button')).click();
    await page.locator(`${testId('run-status')}:text("completed")`).waitFor();
    // One run node: the resumed run's turn joins the first one; the approved Call ran.
    expect(await page.locator(testId('tree-run')).count()).toBe(1);
    expect(await page.locator(testId('tree-request')).count()).toBe(2);
    const call = page.locator(`${testId('tree-call')}[data-tool="deleteRecord"]`);
    expect(await call.getAttribute('data-status')).toBe('done');
    await page.locator(`${testId('tree-run')} > .node-head`).click();
    expect(JSON.parse((await page.locator(testId('run-output')).textContent()) ?? '')).toEqual({
      cleaned: true,
    });
  });

  it('shows the runs in the history after a reload and after a server restart', async () => {
    await page.goto(`${playground.url}#/runs`);
    await page.reload();
    await page.locator(testId('history-row')).first().waitFor();
    const statuses = await page
      .locator(testId('history-status'))
      .evaluateAll((elements) => elements.map((element) => element.textContent));
    expect(statuses).toEqual([
      'completed',
      'failed',
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
    const tools = await page
      .locator(testId('history-row'))
      .evaluateAll((elements) => elements.map((element) => element.children[1]?.textContent));
    expect(tools).toEqual([
      'cleaner',
      'deleteRecord',
      'deleteRecord',
      'deleteRecord',
      'planner',
      'order',
    ]);
    // Duration and tokens per run (the planner’s three requests used tokens).
    const cells = (tool: string) =>
      page
        .locator(`${testId('history-row')}:has-text("${tool}") td`)
        .evaluateAll((elements) => elements.map((element) => element.textContent ?? ''));
    const planner = await cells('planner');
    expect(planner[4]).toMatch(/^\d+(\.\d)? (ms|s)$/);
    expect(planner[5]).toMatch(/^[1-9]\d* \/ [1-9]\d* \/ [1-9]\d*$/);

    const storeDir = playground.storeDir;
    await playground.close();
    const restarted = await startPlayground({ storeDir });
    try {
      await page.goto(`${restarted.url}#/runs`);
      await page.locator(testId('history-row')).first().waitFor();
      expect(await page.locator(testId('history-row')).count()).toBe(6);
      // The link opens the stored run with its tree.
      await page.locator(`${testId('history-row')}:has-text("planner") a`).click();
      await page.locator(`${testId('tree-call')}[data-tool="summarize"]`).waitFor();
      await expect(page.locator(testId('run-status')).textContent()).resolves.toBe('completed');
    } finally {
      await restarted.cleanup();
    }
  });
});

describe('playground without a model configured', () => {
  it('says plainly that it runs on the offline provider', async () => {
    const storeDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-playground-offline-'));
    const server = await startDevServer({
      ideasDir: path.join(repoRoot, 'examples', 'music', 'ideas'),
      store: new FileRunStore({ dir: storeDir }),
      env: {},
      port: 0,
      assetsDir: path.join(repoRoot, 'dist', 'dev', 'assets'),
    });
    try {
      await page.goto(server.url);
      const banner = page.locator(testId('provider-banner'));
      await banner.waitFor();
      expect(await banner.textContent()).toContain('offline provider');
      // The music Ideas are forms too: the composer's required mood is marked, tempo is a number.
      await page.goto(`${server.url}#/tools/composer`);
      await page.locator('#root_mood').waitFor();
      expect(await page.locator('label[for="root_mood"]').textContent()).toContain('*');
      expect(await page.locator('#root_tempo').getAttribute('type')).toBe('number');
    } finally {
      await server.close();
      await fs.rm(storeDir, { recursive: true, force: true });
    }
  });
});
