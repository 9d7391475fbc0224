import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-messages-server';
import { startGeminiServer, type GeminiServer } from '../support/gemini-server';
import { REPO_ROOT, runCli } from './run-cli';

/**
 * Issue 30 item 4 through the BUILT CLI: `--model anthropic:claude-sonnet-4-5` loads the installed
 * `@ai-sdk/anthropic` with its usual variables (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL pointing at a
 * local Messages API server), `IDEACT_MODEL=google:…` does the same for Gemini, and a prefix whose
 * package is not installed fails with the error that names the package to install.
 */
const LYRICIST = path.join(REPO_ROOT, 'test', 'codegen', 'fixtures', 'lyricist.idea.json');
const answer = { title: 'Rain Song', verses: ['drip', 'drop'], chorus: null };

let workDir: string;
let anthropic: AnthropicServer | undefined;
let gemini: GeminiServer | undefined;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-model-'));
});
afterEach(async () => {
  await anthropic?.close();
  await gemini?.close();
  anthropic = gemini = undefined;
  await fs.rm(workDir, { recursive: true, force: true });
});

describe('ideact run --model <prefix>:<model> (issue 30 item 4)', () => {
  it('--model anthropic:claude-sonnet-4-5 runs the Idea on @ai-sdk/anthropic against ANTHROPIC_BASE_URL', async () => {
    anthropic = await startAnthropicServer([
      { json: { calls: [], output: answer }, usage: { input: 120, output: 30, cacheRead: 64 } },
    ]);
    const result = await runCli(
      [
        'run',
        LYRICIST,
        '--model',
        'anthropic:claude-sonnet-4-5',
        '--input',
        '{"topic":"snow","mood":"happy"}',
      ],
      {
        cwd: workDir,
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.baseURL },
      },
    );
    expect(result.stderr).toContain('ideact: provider anthropic:claude-sonnet-4-5');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ title: 'Rain Song', verses: ['drip', 'drop'] });
    expect(anthropic.requests).toHaveLength(1);
    const request = anthropic.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('test-key');
    expect(request.body.model).toBe('claude-sonnet-4-5');
    expect(request.body.output_config).toMatchObject({ format: { type: 'json_schema' } });
    expect(JSON.stringify(request.body.messages)).toContain('\\"topic\\": \\"snow\\"');
  });

  it('IDEACT_MODEL=google:gemini-2.5-flash chooses @ai-sdk/google with GOOGLE_GENERATIVE_AI_API_KEY / _BASE_URL', async () => {
    gemini = await startGeminiServer([{ json: { calls: [], output: answer } }]);
    const result = await runCli(['run', LYRICIST, '--input', '{"topic":"snow","mood":"happy"}'], {
      cwd: workDir,
      env: {
        IDEACT_MODEL: 'google:gemini-2.5-flash',
        GOOGLE_GENERATIVE_AI_API_KEY: 'g-key',
        GOOGLE_GENERATIVE_AI_BASE_URL: gemini.baseURL,
      },
    });
    expect(result.stderr).toContain('ideact: provider google:gemini-2.5-flash');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ title: 'Rain Song', verses: ['drip', 'drop'] });
    expect(gemini.requests[0]!.path).toMatch(/^\/v1beta\/models\/gemini-2\.5-flash:/);
    expect(gemini.requests[0]!.headers['x-goog-api-key']).toBe('g-key');
  });

  it('a prefix whose package is not installed exits 2 naming the package to install', async () => {
    const result = await runCli(['run', LYRICIST, '--model', 'mistral:mistral-large-latest'], {
      cwd: workDir,
      env: { MISTRAL_API_KEY: 'k' },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'ideact: The model "mistral:mistral-large-latest" needs the AI SDK package @ai-sdk/mistral, which is not installed',
    );
    expect(result.stderr).toContain('npm i @ai-sdk/mistral');
  });

  it('an unknown prefix exits 2 listing the known ones; the missing key of a known one names its variable', async () => {
    const unknown = await runCli(['run', LYRICIST, '--model', 'antropic:claude-sonnet-4-5'], {
      cwd: workDir,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('provider prefix "antropic"');
    expect(unknown.stderr).toMatch(/known: openai, anthropic, google/);

    const noKey = await runCli(['run', LYRICIST, '--model', 'anthropic:claude-sonnet-4-5'], {
      cwd: workDir,
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('set ANTHROPIC_API_KEY');
  });
});
