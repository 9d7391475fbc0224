/**
 * Vercel AI SDK 6 (`ai` 6.x): `generateText` with tools and a step limit (the SDK's tool loop), and
 * `generateText` with `Output.object` for structured output, driven by an instant in-process
 * LanguageModelV3; W10 uses `streamText` (bench/lib/vercel-ai-adapter.mjs has the bodies).
 */
import * as sdk from 'ai';
import { vercelAiAdapter } from '../lib/vercel-ai-adapter.mjs';

export const id = 'vercel-ai';
export const label = 'Vercel AI SDK 6';
export const packageName = 'ai';

export const { toolLoop, parallelCalls, structured, eagerCalls } = vercelAiAdapter(sdk, 'v3');
