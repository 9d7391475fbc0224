/**
 * Vercel AI SDK 7 (`ai` 7.x, installed in bench/ under the alias `ai7`): the same workloads as AI SDK
 * 6 (bench/lib/vercel-ai-adapter.mjs) on an instant in-process LanguageModelV4, the interface 7 takes
 * natively. AI SDK 7 declares Node >= 22 but runs on Node 20.
 */
import * as sdk from 'ai7';
import { vercelAiAdapter } from '../lib/vercel-ai-adapter.mjs';

export const id = 'vercel-ai-7';
export const label = 'Vercel AI SDK 7';
export const packageName = 'ai7';

export const { toolLoop, parallelCalls, structured, eagerCalls } = vercelAiAdapter(sdk, 'v4');
