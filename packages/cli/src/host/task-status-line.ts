// The line that shows what a task is doing while it works (follow-task.ts). On a terminal it is one line
// rewritten in place at each poll: a progress bar when the task's statusMessage says how far it got as
// one "<n> of <m>" (`Refunded 2 of 5 orders`, the way a tool's `meta.progress` words it), a spinner
// otherwise, with the message beside it. The bar only draws what the message says, which stays shown:
// MCP sends no progress numbers for a task, so a message with no such count, or with two of them, is
// not turned into a fraction. Elsewhere (a pipe, a file) each new message is one line of its own.
import { displayLine } from './display-text.ts';
import type { Terminal } from './terminal.ts';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** The cells of the bar. */
const BAR_WIDTH = 20;
/** A count as people write it: 12, or 1,250 with thousands separated by commas. */
const COUNT = String.raw`\d{1,3}(?:,\d{3})+|\d+`;
const N_OF_M = new RegExp(String.raw`(?<![\d,.])(${COUNT}) of (${COUNT})(?![\d,]*\d)(?!\.\d)`, 'g');

/** How far the work got, when `message` says it as exactly one "<n> of <m>" with n ≤ m and m > 0. */
function countIn(message: string): { done: number; total: number } | undefined {
  const found = [...message.matchAll(N_OF_M)];
  if (found.length !== 1) return undefined;
  const [done, total] = [found[0]![1]!, found[0]![2]!].map((count) => Number(count.replaceAll(',', ''))) as [number, number];
  return total > 0 && done <= total ? { done, total } : undefined;
}

/** The bar of `done` out of `total`: filled cells, then empty ones. */
function bar(done: number, total: number): string {
  const filled = Math.round((done / total) * BAR_WIDTH);
  return `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
}

/** Whether a working task is what `show` got: other statuses speak for themselves. */
interface TaskStatus {
  readonly status: string;
  readonly statusMessage?: string;
}

export interface TaskStatusLine {
  /** Shows what a working task is doing (its statusMessage, or Working…); nothing for any other status. */
  show(task: TaskStatus): void;
  /** Clears the line rewritten in place (on a terminal), before anything else is written. */
  clear(): void;
}

export function createTaskStatusLine(terminal: Terminal): TaskStatusLine {
  let shown: string | undefined;
  let frame = 0;
  return {
    show(task) {
      if (task.status !== 'working') return;
      const text = displayLine(task.statusMessage ?? 'Working…');
      if (terminal.interactive) {
        const count = countIn(text);
        const mark = count ? bar(count.done, count.total) : SPINNER[frame++ % SPINNER.length];
        terminal.say(`\r\x1b[2K${terminal.style.dim(`${mark} ${text}`)}`);
        shown = text;
      } else if (text !== shown) {
        terminal.say(`${terminal.style.dim(text)}\n`);
        shown = text;
      }
    },
    clear() {
      if (!terminal.interactive) return;
      if (shown !== undefined) terminal.say('\r\x1b[2K');
      shown = undefined;
    },
  };
}
