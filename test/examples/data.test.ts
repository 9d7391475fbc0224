import { context, main, renderDataExample } from '../../examples/data/main';
import { captureStdout, stayOffline } from './capture-stdout';

stayOffline();

/** Seed 004, "What the LLM Sees": the text passes through; the two `user` messages become one block. */
const SEED_004_LAYOUT = [
  '3 context messages → 2 after merging → 2 chat messages:',
  '',
  '── user ──',
  "Update the user's city to Austin",
  '',
  '── user ──',
  '## Data: ¶user',
  '{',
  '  "name": "John Doe",',
  '  "age": 30',
  '}',
  'Represents the current user.',
  'Schema for ¶user:',
  '{',
  '  "type": "object",',
  '  "properties": {',
  '    "name": { "type": "string" },',
  '    "age": { "type": "number" },',
  '    "city": { "type": "string" }',
  '  }',
  '}',
  '',
].join('\n');

describe('examples/data (seed 004)', () => {
  it('R-DATA-1 R-DATA-2 prints the merged data message in seed 004 layout', async () => {
    const printed = await captureStdout(main);
    expect(printed).toBe(SEED_004_LAYOUT);
  });

  it('R-DATA-3 renders byte-identically on every run and leaves its context untouched', () => {
    const before = JSON.stringify(context);
    expect(renderDataExample()).toBe(renderDataExample());
    expect(JSON.stringify(context)).toBe(before);
  });
});
