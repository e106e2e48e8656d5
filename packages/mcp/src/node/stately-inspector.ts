// ROUNDTRIP_INSPECT=stately: every round's actor events to Stately's hosted inspector, through
// @statelyai/inspect. Its session link is printed with console.log, which would corrupt a stdio
// server's stdout, so console output goes to the server's log on stderr while it runs.
import { format } from 'node:util';
import type { EngineLogEntry } from '@roundtrip/engine';
import type { InspectionEvent } from 'xstate';

type Log = (entry: Omit<EngineLogEntry, 'target'>) => void;

/** A value with every leaf replaced, so what the user typed never leaves the server. */
export function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  return value === undefined || value === null ? value : '•••';
}

/** Sends console output (which libraries write to stdout) to the server's log instead. */
function consoleToLog(log: Log): void {
  const line =
    (level: 'info' | 'warn') =>
    (...args: unknown[]) =>
      log({ level, event: 'console', message: format(...args) });
  console.log = line('info');
  console.info = line('info');
  console.debug = line('info');
  console.warn = line('warn');
}

/**
 * Connects to Stately's inspector; resolves to the engine's `inspectActors`. Event payloads (answers) and
 * context are masked unless `answers` is 'shown'. Connection errors are logged once, never thrown.
 */
export async function startStatelyInspector(log: Log, answers: 'masked' | 'shown'): Promise<(event: InspectionEvent) => void> {
  consoleToLog(log);
  const { createSkyInspector } = await import('@statelyai/inspect');
  let warned = false;
  const show = answers === 'shown';
  const inspector = createSkyInspector({
    onerror: (error: unknown) => {
      if (warned) return;
      warned = true;
      const message = error instanceof Error ? error.message : (error as { message?: string })?.message || 'connection failed';
      log({ level: 'warn', event: 'stately', message: `Stately's inspector is not reachable (${message}); rounds go on without it` });
    },
    sanitizeEvent: (event) =>
      show ? event : ({ ...event, ...('content' in event ? { content: masked(event.content) } : {}) } as typeof event),
    sanitizeContext: (context) => (show ? context : (masked(context) as typeof context)),
  });
  log({
    level: 'info',
    event: 'stately',
    message:
      'inspecting with Stately: the session link is logged here once connected (answers and context masked unless ROUNDTRIP_INSPECT_ANSWERS=shown)',
  });
  return (event) => {
    try {
      inspector.inspect.next?.(event);
    } catch (error) {
      if (!warned) log({ level: 'warn', event: 'stately', message: `Stately's inspector failed: ${(error as Error).message}` });
      warned = true;
    }
  };
}
