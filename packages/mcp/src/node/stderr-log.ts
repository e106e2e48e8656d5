import type { EngineLogEntry } from '@roundtrip/engine';

/** The longest message one log line carries; the rest is counted, not written. */
const MAX_MESSAGE_CHARS = 2_000;
// controls (new lines included) and the Unicode line and paragraph separators
// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping controls is what it is for
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text as it may stand in one log line: controls escaped (`\n`, `\u001b`), so that nothing a client
 * sent can start a line of its own or forge one, and long text cut with a count of what was left out.
 */
function logSafe(text: string): string {
  const cut =
    text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}… (${text.length - MAX_MESSAGE_CHARS} more characters)` : text;
  return cut.replace(CONTROLS, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The longest error report (stack) one log entry carries. */
const MAX_STACK_CHARS = 4_000;
// the controls of CONTROLS but the new line, which separates the (indented) lines of a stack
// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping controls is what it is for
const STACK_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * An error's report as indented lines under its entry: cut like a message, every control but the new
 * line escaped, and each line indented, so no text in an error message (which may quote a client) can
 * stand at the start of a line of its own.
 */
function stackSafe(text: string): string {
  const cut =
    text.length > MAX_STACK_CHARS ? `${text.slice(0, MAX_STACK_CHARS)}… (${text.length - MAX_STACK_CHARS} more characters)` : text;
  const escaped = cut.replace(STACK_CONTROLS, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `    ${escaped.replace(/\n/g, '\n    ')}\n`;
}

/** Lines one kind of event may write per window; the rest are counted and summed up in one line. */
const LINES_PER_WINDOW = 20;
const WINDOW_MS = 60_000;

/**
 * Writes one line per entry to stderr (stdout belongs to the protocol). Each kind of event (level and
 * name) writes at most 20 lines a minute, so a client repeating a refused request cannot flood the log;
 * what was held back is summed up in one line when the minute is over.
 */
export function createStderrLog(
  serverName: string,
  write: (line: string) => void = (line) => process.stderr.write(line),
  now: () => number = Date.now,
) {
  type Window = { start: number; lines: number; held: number };
  const windows = new Map<string, Window>();
  const sumUp = (kind: string, window: Window) => {
    if (window.held > 0) write(`[${serverName}] ${kind}: ${window.held} more like this in ${WINDOW_MS / 1000} s were not logged\n`);
    window.held = 0;
  };
  const admit = (kind: string): boolean => {
    const at = now();
    let window = windows.get(kind);
    if (!window || at - window.start >= WINDOW_MS) {
      if (window) sumUp(kind, window);
      if (windows.size > 1000) windows.clear();
      window = { start: at, lines: 0, held: 0 };
      windows.set(kind, window);
    }
    if (window.lines < LINES_PER_WINDOW) {
      window.lines++;
      return true;
    }
    // the first line held back: its sum is written when the minute is over, even if nothing more comes
    if (window.held++ === 0) {
      const held = window;
      setTimeout(() => sumUp(kind, held), Math.max(0, held.start + WINDOW_MS - at)).unref();
    }
    return false;
  };
  return (entry: EngineLogEntry) => {
    const event = logSafe(entry.event);
    if (!admit(`${entry.level} ${event}`)) return;
    const where = logSafe([entry.target, entry.run && `run ${entry.run}`].filter(Boolean).join(' '));
    let line = `[${serverName}] ${entry.level} ${event}${where ? ` (${where})` : ''}: ${logSafe(entry.message)}\n`;
    if (entry.error !== undefined) {
      const error = entry.error;
      line += stackSafe(error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : describe(error));
    }
    write(line);
  };
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
