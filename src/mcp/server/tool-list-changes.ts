/**
 * Tells when a tool list changed, for `notifications/tools/list_changed`: the served Tools may include
 * Toolsets (e.g. another MCP server's tools through `mcpTools`) whose list changes while clients are
 * connected. Toolsets signal a change with a new `tools` array, so the list is compared by identity —
 * after every call, and every `intervalMs` while started (the timer never keeps the process alive).
 */
export class ToolListChanges {
  private timer: NodeJS.Timeout | undefined;
  private last: unknown;

  constructor(
    private readonly read: () => unknown,
    private readonly onChange: () => void,
    private readonly intervalMs: number,
  ) {
    this.last = read();
  }

  /** Starts polling (once; later calls do nothing). */
  start(): void {
    if (this.timer !== undefined || this.intervalMs <= 0) return;
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref();
  }

  /** Compares the list with the last one seen; calls `onChange` when it is another array. */
  check(): void {
    const now = this.read();
    if (now === this.last) return;
    this.last = now;
    this.onChange();
  }

  /** Stops polling. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
