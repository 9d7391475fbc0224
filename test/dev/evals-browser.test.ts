import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  ExperimentStore,
  FileRunStore,
  runEval,
  startDevServer,
  type DevServer,
  type ExperimentResult,
  type ProviderRequest,
} from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ANSWERS, capitalCases, capitalFolder, countryOf } from '../evals/eval-fixtures';

/**
 * Issue 33 item 3, the playground's Evals page in Debian's Chromium (playwright-core, never a
 * downloaded browser; the launch flags of playground-browser.test.ts): the experiments listed, one
 * experiment's cases with their scores and reasons and a link to each case's run tree, and two
 * experiments compared case by case.
 */

const repoRoot = path.resolve(__dirname, '..', '..');

function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate): candidate is string =>
      candidate !== undefined && candidate !== '' && existsSync(candidate),
  );
  if (found !== undefined) return found;
  throw new Error(
    'The Evals page tests need Chromium (CHROMIUM_PATH, /usr/bin/chromium): `apt-get install -y chromium`. They do not skip.',
  );
}

let dir: string;
let server: DevServer;
let browser: Browser;
let page: Page;
let before: ExperimentResult;
let after: ExperimentResult;
const pageErrors: string[] = [];

/** The capital eval on a scripted model with these answers, stored and saved like `ideact eval`. */
function capitals(
  answers: Record<string, string>,
  store: FileRunStore,
  experiments: ExperimentStore,
) {
  const provider = new ScriptedProvider((request: ProviderRequest) => ({
    calls: [],
    output: { capital: answers[countryOf(request)] },
  }));
  return runEval(
    {
      name: 'capitals',
      target: { idea: 'capital.json' },
      cases: capitalCases,
      scorers: [{ type: 'equals', path: 'capital' }, { type: 'schema' }],
    },
    { baseDir: dir, provider, store, experiments },
  );
}

beforeAll(async () => {
  const executablePath = chromiumPath();
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-playground.mjs')], {
    cwd: repoRoot,
    stdio: 'pipe',
  });
  dir = await capitalFolder();
  const store = new FileRunStore({ dir: path.join(dir, 'runs') });
  const experiments = new ExperimentStore(path.join(dir, 'evals'));
  before = await capitals({ ...ANSWERS, Peru: 'Lima' }, store, experiments);
  await new Promise((resolve) => setTimeout(resolve, 5));
  after = await capitals({ ...ANSWERS, Peru: 'Lima', Japan: 'Kyoto' }, store, experiments);
  server = await startDevServer({
    ideasDir: dir,
    store,
    evalsDir: experiments.dir,
    port: 0,
    provider: new ScriptedProvider([]),
    assetsDir: path.join(repoRoot, 'dist', 'dev', 'assets'),
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
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 60_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

const testId = (id: string): string => `[data-testid="${id}"]`;

describe('the Evals page in Chromium (issue 33 item 3)', () => {
  it('lists the experiments, newest first, with cases passed and mean score', async () => {
    await page.goto(`${server.url}#/evals`);
    await page.locator(testId('experiment-row')).first().waitFor();
    const rows = page.locator(testId('experiment-row'));
    expect(
      await rows.evaluateAll((elements) =>
        elements.map((row) => row.getAttribute('data-experiment')),
      ),
    ).toEqual([after.id, before.id]);
    const newest = await rows.first().textContent();
    expect(newest).toContain('capitals');
    expect(newest).toContain('2 / 3');
    expect(newest).toContain('0.83');
    expect(newest).toContain('failed');
    expect(await rows.nth(1).textContent()).toContain('3 / 3');
  });

  it("shows one experiment's cases with each score and reason, and links a case to its run tree", async () => {
    await page.goto(`${server.url}#/evals`);
    await page
      .locator(`${testId('experiment-row')}[data-experiment="${after.id}"] a`)
      .first()
      .click();
    const japan = page.locator(`${testId('case-row')}[data-case="japan"]`);
    await japan.waitFor();
    expect(await japan.getAttribute('data-passed')).toBe('false');
    expect(await japan.locator(testId('case-score')).textContent()).toBe('0.50');
    const failed = japan.locator(`${testId('score')}[data-passed="false"]`);
    expect(await failed.getAttribute('data-scorer')).toBe('equals(capital)');
    expect(await failed.locator(testId('score-reason')).textContent()).toBe(
      'capital is "Kyoto", expected "Tokyo"',
    );
    expect(
      await page.locator(`${testId('case-row')}[data-case="france"]`).getAttribute('data-passed'),
    ).toBe('true');
    expect(await page.locator(testId('experiment-summary')).textContent()).toContain(
      '2 of 3 passed',
    );

    // The run link opens the case run's tree, drawn from the events the eval kept.
    const runId = after.cases[1]!.trials[0]!.runId;
    await japan.locator(testId('run-link')).click();
    await page.waitForURL(`**#/runs/${runId}`);
    const root = page.locator(`${testId('tree-run')}[data-key]`).first();
    await root.waitFor();
    await page.locator(testId('tree-request')).first().waitFor();
    expect(await page.locator(testId('run-status')).textContent()).toBe('completed');
    expect(await root.textContent()).toContain(runId);
  });

  it('compares two experiments side by side with the per-case difference', async () => {
    await page.goto(`${server.url}#/evals`);
    await page.locator(testId('compare-pick')).first().waitFor();
    await page.locator(testId('compare-pick')).nth(0).check();
    await page.locator(testId('compare-pick')).nth(1).check();
    await page.locator(testId('compare-link')).click();
    await page.waitForURL(`**#/evals/${before.id}/vs/${after.id}`);
    const rows = page.locator(testId('compare-row'));
    await rows.first().waitFor();
    const table = await rows.evaluateAll((elements) =>
      elements.map((row) => [
        row.getAttribute('data-case'),
        row.getAttribute('data-change'),
        row.querySelector('[data-testid="compare-delta"]')?.textContent,
      ]),
    );
    expect(table).toEqual([
      ['france', 'same', '+0.00'],
      ['japan', 'regressed', '−0.50'],
      ['peru', 'same', '+0.00'],
    ]);
    expect(await page.locator(testId('compare-summary')).textContent()).toContain(
      '1 regressed, 0 improved',
    );
  });
});
