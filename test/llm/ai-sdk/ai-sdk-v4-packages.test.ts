import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { serversForThisFile } from '../../support/chat-completions-server';
import {
  startAnthropicServer,
  type AnthropicServer,
} from '../../support/anthropic-messages-server';
import { startGeminiServer, type GeminiServer } from '../../support/gemini-server';
import {
  notifyTool,
  outputSchema,
  schemaKeywords,
  turnOne,
  turnTwo,
  weatherTool,
} from './support/two-tools';

/**
 * Issue 30 item 1, the other specification version: the provider packages of ai@7 (specification
 * `v4`, ES modules only: `@ai-sdk/anthropic@4`, `@ai-sdk/google@4`, `@ai-sdk/openai-compatible@3`,
 * installed here under alias names) run the same agent through the BUILT package in a child process
 * (Jest cannot load ES-module-only packages), each against its local fake server.
 */
const SCRIPT = path.join(__dirname, 'fixtures', 'run-agent-v4.mjs');
const DIST = path.join(__dirname, '..', '..', '..', 'dist', 'index.js');
const serveChat = serversForThisFile();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

interface ChildResult {
  specificationVersion: string;
  stopReason: string;
  output: unknown;
  usage: Record<string, unknown>;
  log: { weather: unknown[]; notify: unknown[] };
  reasoning: string;
}

function runAgent(
  family: string,
  baseURL: string,
  providerOptions?: unknown,
): Promise<ChildResult> {
  if (!existsSync(DIST))
    throw new Error(`${DIST} is missing: run "npm run build" first (npm test does it).`);
  const config = {
    family,
    baseURL,
    tools: [weatherTool, notifyTool],
    output: outputSchema,
    context: [{ type: 'system', text: 'You plan the day.' }],
    task: 'Weather in Oslo, and tell Ana.',
    providerOptions,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`exit ${String(code)}: ${stderr}`));
      else resolve(JSON.parse(stdout) as ChildResult);
    });
  });
}

describe('ai@7 provider packages (specification v4) through the built package (issue 30)', () => {
  it('@ai-sdk/anthropic@4: the agent completes; thinking goes back with its signature; output_config and cache_control', async () => {
    const server: AnthropicServer = await startAnthropicServer([
      {
        json: turnOne,
        thinking: { thinking: 'First the weather.', signature: 'v4-sig' },
        usage: { cacheRead: 100 },
      },
      { json: turnTwo },
    ]);
    closers.push(() => server.close());
    const result = await runAgent('anthropic', server.baseURL, {
      anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } },
    });
    expect(result.specificationVersion).toBe('v4');
    expect(result).toMatchObject({
      stopReason: 'output',
      output: turnTwo.output,
      reasoning: 'First the weather.',
    });
    expect(result.log.weather).toHaveLength(1);
    expect(result.log.notify).toHaveLength(1);
    expect(result.usage).toMatchObject({ cachedTokens: 100 });
    const [first, second] = server.requests;
    expect(first!.body.output_config).toMatchObject({ format: { type: 'json_schema' } });
    expect(JSON.stringify(first!.body.system)).toContain('"cache_control":{"type":"ephemeral"}');
    const assistant = (second!.body.messages as Array<{ role: string; content: unknown[] }>).find(
      (message) => message.role === 'assistant',
    )!;
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'First the weather.',
      signature: 'v4-sig',
    });
  });

  it('@ai-sdk/google@4: the agent completes; the schema goes as responseJsonSchema with Gemini’s JSON Schema keywords only', async () => {
    const server: GeminiServer = await startGeminiServer([{ json: turnOne }, { json: turnTwo }]);
    closers.push(() => server.close());
    const result = await runAgent('google', server.baseURL);
    expect(result.specificationVersion).toBe('v4');
    expect(result).toMatchObject({ stopReason: 'output', output: turnTwo.output });
    /** Gemini's supported JSON Schema subset (docs: "Structured output", JSON Schema support). */
    const allowed = new Set([
      'type',
      'format',
      'title',
      'description',
      'enum',
      'items',
      'prefixItems',
      'minItems',
      'maxItems',
      'minimum',
      'maximum',
      'anyOf',
      'properties',
      'additionalProperties',
      'required',
      'propertyOrdering',
      '$ref',
      '$defs',
      '$id',
      '$anchor',
    ]);
    for (const request of server.requests) {
      const config = request.body.generationConfig as {
        responseMimeType: string;
        responseJsonSchema: unknown;
        responseSchema?: unknown;
      };
      expect(config.responseMimeType).toBe('application/json');
      expect(config.responseSchema).toBeUndefined();
      const keywords = schemaKeywords(config.responseJsonSchema);
      expect(keywords.length).toBeGreaterThan(20);
      expect(keywords.filter(({ keyword }) => !allowed.has(keyword))).toEqual([]);
      expect(JSON.stringify(config.responseJsonSchema)).toContain('pattern: \\"^[A-Z][a-z]+$\\"');
    }
  });

  it('@ai-sdk/openai-compatible@3: the agent completes on json_object with the schema in the prompt', async () => {
    const server = await serveChat([{ json: turnOne }, { json: turnTwo }]);
    const result = await runAgent('openai-compatible', server.baseURL);
    expect(result.specificationVersion).toBe('v4');
    expect(result).toMatchObject({ stopReason: 'output', output: turnTwo.output });
    for (const request of server.requests) {
      expect(request.body.response_format).toEqual({ type: 'json_object' });
      expect(JSON.stringify(request.body.messages)).toContain('Reply with one JSON object only');
    }
  });
});
