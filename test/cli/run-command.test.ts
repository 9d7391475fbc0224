import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadState, validateJson, type JSONSchema } from 'ideact';
import {
  startChatCompletionsServer,
  type ChatCompletionsServer,
} from '../support/chat-completions-server';
import { REPO_ROOT, runCli } from './run-cli';

/** `ideact run` and `ideact inspect` end to end through the built CLI (issue 7, R-LOOP-5). */
const LYRICIST = path.join(REPO_ROOT, 'test', 'codegen', 'fixtures', 'lyricist.idea.json');
const PRODUCER = path.join(REPO_ROOT, 'examples', 'music', 'ideas', 'producer.json');

let workDir: string;
beforeEach(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-cli-run-'));
});
afterEach(async () => {
  await fs.rm(workDir, { recursive: true, force: true });
});

describe('ideact run --provider offline', () => {
  it('prints the final output as JSON on stdout, progress and the offline notice on stderr', async () => {
    const result = await runCli(
      ['run', LYRICIST, '--provider', 'offline', '--input', '{"topic":"rain","mood":"sad"}'],
      { cwd: workDir },
    );
    expect(result.code).toBe(0);
    const idea = JSON.parse(await fs.readFile(LYRICIST, 'utf8')) as { schema: JSONSchema };
    const output = JSON.parse(result.stdout) as unknown;
    expect(validateJson(idea.schema, output)).toEqual([]);
    expect(result.stderr).toContain('this is not a language model');
    expect(result.stderr).toMatch(/turn 1 · generator · 0 tokens · \d+\.\ds/);
    expect(result.stderr).toContain('stopped: output after 1 turn(s)');
  });

  it('without --provider and without OPENAI_API_KEY it chooses offline itself and says so in one line (issue 14 item 3)', async () => {
    const result = await runCli(['run', LYRICIST, '--input', '{"topic":"rain","mood":"sad"}'], {
      cwd: workDir,
    });
    expect(result.code).toBe(0);
    // Notices, not the progress lines of the run (indented; a request line names the provider's model).
    const notices = result.stderr
      .split('\n')
      .filter((line) => !line.startsWith('ideact:  '))
      .filter((line) => line.includes('offline') || line.includes('not a language model'));
    expect(notices).toEqual([
      expect.stringMatching(
        /^ideact: no provider configured, so using --provider offline\. .*not a language model/,
      ),
    ]);
  });

  it('--input @file reads the input from a file', async () => {
    const input = path.join(workDir, 'input.json');
    await fs.writeFile(input, JSON.stringify({ topic: 'sun', mood: 'happy' }));
    const result = await runCli(
      ['run', LYRICIST, '--provider', 'offline', '--input', `@${input}`],
      { cwd: workDir },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('title');
  });

  it('--state saves the run, and inspect prints its node tree', async () => {
    const state = path.join(workDir, 'run.json');
    const run = await runCli(
      ['run', PRODUCER, '--provider', 'offline', '--max-turns', '3', '--state', state],
      { cwd: workDir },
    );
    expect(run.code).toBe(0);
    const inspect = await runCli(['inspect', state]);
    expect(inspect.code).toBe(0);
    const lines = inspect.stdout.split('\n');
    expect(lines[0]).toBe(`state ${state}`);
    expect(inspect.stdout).toContain('stopped: output');
    expect(inspect.stdout).toMatch(
      /usage: 1 turns, 4 steps, 0 in \/ 0 out \/ 0 cached tokens, .* \(limits: maxTurns=3\)/,
    );
    expect(inspect.stdout).toContain('#0 [input] system: You are a record producer.');
    expect(inspect.stdout).toContain('#1 [input] input: {"brief":');
    expect(inspect.stdout).toMatch(
      /#3 \[discriminator\] vessel: 0 calls \[\], output: \{"title":.*← head/,
    );
  });
});

describe('ideact run: bad input exits 2 with one clear line', () => {
  it('a missing Idea file', async () => {
    const missing = path.join(workDir, 'nope.json');
    const result = await runCli(['run', missing, '--provider', 'offline']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `ideact: Idea file not found: ${missing}. Check the path (it is relative to the current directory).\n`,
    );
  });

  it('an Idea file with invalid JSON names the file', async () => {
    const broken = path.join(workDir, 'broken.json');
    await fs.writeFile(broken, '{ not json');
    const result = await runCli(['run', broken, '--provider', 'offline']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^ideact: Invalid Idea in ${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} at \\(root\\): the file is not valid JSON`,
      ),
    );
  });

  it('--input that is not JSON, or does not match the input schema', async () => {
    const notJson = await runCli([
      'run',
      LYRICIST,
      '--provider',
      'offline',
      '--input',
      '{topic: rain}',
    ]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^ideact: --input: the value is not valid JSON/);
    const wrong = await runCli([
      'run',
      LYRICIST,
      '--provider',
      'offline',
      '--input',
      '{"topic":"rain","mood":"bored"}',
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--input: does not match the input schema');
    expect(wrong.stderr).toContain('/mood: must be equal to one of the allowed values');
  });

  it('--max-turns that is not a positive integer', async () => {
    const result = await runCli(['run', LYRICIST, '--provider', 'offline', '--max-turns', 'zero']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-turns: expected a positive integer, got "zero"');
  });

  it('--provider openai without OPENAI_API_KEY or OPENAI_BASE_URL', async () => {
    const result = await runCli([
      'run',
      LYRICIST,
      '--provider',
      'openai',
      '--input',
      '{"topic":"rain","mood":"sad"}',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'ideact: --provider openai: needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server). ' +
        'Set one of them in the environment, or use --provider offline to run without a model.\n',
    );
  });
});

describe('ideact run --provider openai against a local Chat Completions server', () => {
  let server: ChatCompletionsServer;
  afterEach(async () => {
    await server.close();
  });

  it('sends the Idea with --input replacing its example input and prints the model output', async () => {
    const answer = { title: 'Rain Song', verses: ['drip', 'drop'], chorus: null };
    server = await startChatCompletionsServer([
      { json: { calls: [], output: answer }, usage: { promptTokens: 120, completionTokens: 30 } },
    ]);
    const result = await runCli(
      [
        'run',
        LYRICIST,
        '--provider',
        'openai',
        '--model',
        'test-model',
        '--input',
        '{"topic":"snow","mood":"happy"}',
      ],
      { env: { OPENAI_BASE_URL: server.baseURL }, cwd: workDir },
    );
    expect(result.stderr).toContain('provider openai:test-model');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ title: 'Rain Song', verses: ['drip', 'drop'] });
    expect(result.stderr).toContain('turn 1 · generator · 150 tokens');
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.body as {
      model: string;
      messages: Array<{ content: string }>;
    };
    expect(body.model).toBe('test-model');
    const prompt = body.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('"topic": "snow"');
    expect(prompt).not.toContain('rain'); // the Idea's example input was replaced, not merged
  });

  it('Ctrl-C (SIGINT) during a turn saves the state and exits 130; --resume continues it', async () => {
    server = await startChatCompletionsServer([
      { json: { calls: [], output: { title: 'late', verses: [], chorus: null } }, delayMs: 20_000 },
      { json: { calls: [], output: { title: 'Resumed', verses: ['again'], chorus: null } } },
    ]);
    const env = { OPENAI_BASE_URL: server.baseURL };
    const interrupted = await runCli(
      ['run', LYRICIST, '--provider', 'openai', '--input', '{"topic":"rain","mood":"sad"}'],
      {
        env,
        cwd: workDir,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (server.requests.length > 0) {
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 20);
          child.on('close', () => clearInterval(poll));
        },
      },
    );
    expect(interrupted.code).toBe(130);
    expect(interrupted.stdout).toBe('');
    expect(interrupted.stderr).toContain('interrupted; stopping after the current step');
    expect(interrupted.stderr).toContain('state saved to lyricist.state.json');
    // The state file names a one-run store beside it (issue 18); the run stopped before its turn.
    const file = path.join(workDir, 'lyricist.state.json');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({
      format: 'ideact-state-file',
      store: 'lyricist.state.json.run',
    });
    const saved = await loadState(file);
    expect(saved.nextStep.module).toBe('done');
    expect(saved.nextStep.module === 'done' && saved.nextStep.args.reason).toBe('aborted');
    // The store keeps no rendered prompt: the pending Generator step is stored as its Prompter.
    expect(saved.nextStep.module === 'done' && saved.nextStep.args.pending?.module).toBe(
      'prompter',
    );

    const resumed = await runCli(
      ['run', LYRICIST, '--provider', 'openai', '--resume', 'lyricist.state.json'],
      { env, cwd: workDir },
    );
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ title: 'Resumed', verses: ['again'] });
    expect(server.requests).toHaveLength(2);
  });

  it('prints the failed Calls on stderr after the output (issue 14 item 9)', async () => {
    const idea = {
      name: 'researcher',
      context: [{ type: 'system', text: 'You research topics.' }],
      schema: {
        type: 'object',
        properties: {
          calls: {
            type: 'array',
            items: {
              anyOf: [
                {
                  type: 'object',
                  description: 'Look a topic up.',
                  properties: {
                    _tool: { const: 'lookup' },
                    _module: { const: 'missing-lookup.json' },
                    topic: { type: 'string' },
                  },
                  required: ['_tool', 'topic'],
                },
              ],
            },
          },
          output: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
        required: ['calls', 'output'],
        additionalProperties: false,
      },
    };
    const ideaFile = path.join(workDir, 'researcher.json');
    await fs.writeFile(ideaFile, JSON.stringify(idea));
    server = await startChatCompletionsServer([
      { json: { calls: [{ _tool: 'lookup', topic: 'rain' }], output: null } },
      { json: { calls: [], output: 'nothing found' } },
    ]);
    const result = await runCli(['run', ideaFile, '--provider', 'openai'], {
      env: { OPENAI_BASE_URL: server.baseURL },
      cwd: workDir,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toBe('nothing found');
    const lines = result.stderr.split('\n');
    const header = lines.indexOf('ideact: 1 failed call(s) during the run:');
    expect(header).toBeGreaterThan(lines.findIndex((line) => line.includes('stopped: output')));
    expect(lines[header + 1]).toMatch(
      /^ {2}\d+:0 lookup: MODULE_NOT_FOUND: .*missing-lookup\.json/,
    );
  });
});
