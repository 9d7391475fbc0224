/** Test helper: runs `action` and returns what it wrote to stdout (nothing reaches the real stdout). */
export async function captureStdout(action: () => Promise<void>): Promise<string> {
  const chunks: string[] = [];
  const write = (chunk: unknown): boolean => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return true;
  };
  const spy = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation(write as typeof process.stdout.write);
  try {
    await action();
  } finally {
    spy.mockRestore();
  }
  return chunks.join('');
}

/** Removes the variables that would make the examples call a real model, so tests stay offline. */
export function stayOffline(): void {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
}
