import type { TerminalSize } from '../cli-io';

/** Moves the cursor to the start of the line `count` lines up, then clears to the end of the screen. */
function erase(count: number): string {
  return count === 0 ? '' : `\u001b[${count}F\u001b[J`;
}

/**
 * A block of lines at the bottom of a terminal that is redrawn in place with two ANSI sequences
 * (cursor up, clear below): a few lines of code instead of a dependency. Lines are cut to the
 * terminal's width (a wrapped line would break the count) and the block to its height, keeping the
 * newest lines. Text written with `log()` goes above the block and stays.
 */
export class TerminalFrame {
  private readonly write: (text: string) => void;
  private readonly size: () => TerminalSize;
  private height = 0;

  constructor(write: (text: string) => void, size: () => TerminalSize) {
    this.write = write;
    this.size = size;
  }

  /** Replaces the block with `lines`. */
  draw(lines: readonly string[]): void {
    this.write(erase(this.height) + this.fit(lines));
  }

  /** Writes `text` (whole lines) above the block, then draws the block again with `lines`. */
  log(text: string, lines: readonly string[]): void {
    this.write(erase(this.height) + text + this.fit(lines));
  }

  /** Replaces the block with `lines` for good, uncut (later output goes below them). */
  close(lines: readonly string[]): void {
    const { columns } = this.size();
    this.write(erase(this.height) + lines.map((line) => `${cut(line, columns)}\n`).join(''));
    this.height = 0;
  }

  private fit(lines: readonly string[]): string {
    const { columns, rows } = this.size();
    const room = Math.max(2, rows - 1);
    const shown =
      lines.length <= room
        ? lines
        : [`… ${lines.length - room + 1} more line(s) above`, ...lines.slice(-(room - 1))];
    this.height = shown.length;
    return shown.map((line) => `${cut(line, columns)}\n`).join('');
  }
}

/** `line` cut to fit in `columns` (one column is left free so the cursor never wraps). */
function cut(line: string, columns: number): string {
  const width = Math.max(10, columns - 1);
  const characters = [...line];
  return characters.length <= width ? line : `${characters.slice(0, width - 1).join('')}…`;
}
