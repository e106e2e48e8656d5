// How a Node HTTP server stops: on close(), SIGTERM or SIGINT it accepts no more requests, lets those in flight
// finish within the drain time, then releases what it opened (the relay, the engine, the ledger) and says how it
// went; a second signal exits at once, naming the requests it cuts.
import type { EngineLogEntry } from '@roundtrip/engine';
import type { ShutdownReport } from './node-http-listener.ts';

/** What the listener offers the shutdown. */
interface Draining {
  stopAccepting(): void;
  describeInFlight(): string[];
  shutdown(drainTimeoutMs: number): Promise<ShutdownReport>;
}

export interface ShutdownOptions {
  listener: Draining;
  drainTimeoutMs: number;
  /** Whether SIGTERM and SIGINT stop the server (and the process exits once it has). */
  handleSignals: boolean;
  log: (entry: EngineLogEntry) => void;
  /** Releases what the server opened, once no request is in flight. */
  release: () => Promise<void>;
  /** Before the release: the keys' refresh, … */
  stopWatching?: () => void;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The server's close (once, whoever asks first) and the exit code it ends with; signal handlers installed when asked. */
export function shutdownOf({ listener, drainTimeoutMs, handleSignals, log, release, stopWatching }: ShutdownOptions) {
  let stopping: Promise<ShutdownReport> | undefined;
  let resolveStopped: (code: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));
  const close = (why = 'close()') =>
    (stopping ??= (async () => {
      stopWatching?.();
      listener.stopAccepting();
      const waiting = listener.describeInFlight();
      const inFlight =
        waiting.length === 0
          ? 'none in flight'
          : `waiting up to ${drainTimeoutMs} ms for ${plural(waiting.length, 'request')} in flight (${waiting.join(', ')})`;
      log({ level: 'info', event: 'stopping', message: `${why}: accepting no more requests; ${inFlight}` });
      let report: ShutdownReport = { cut: [], waitedFor: 0 };
      try {
        report = await listener.shutdown(drainTimeoutMs);
      } finally {
        removeSignals();
        await release();
      }
      if (report.cut.length > 0) {
        log({
          level: 'warn',
          event: 'stopped',
          message: `cut ${plural(report.cut.length, 'request')} still in flight after ${drainTimeoutMs} ms (${report.cut.join(', ')}); their clients got no answer and may send them again`,
        });
      } else {
        log({ level: 'info', event: 'stopped', message: `stopped; ${plural(report.waitedFor, 'request')} in flight finished first` });
      }
      resolveStopped(report.cut.length > 0 ? 1 : 0);
      return report;
    })());

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      const cut = listener.describeInFlight();
      log({
        level: 'warn',
        event: 'stopped',
        message: `${signal} again: exiting now, cutting ${plural(cut.length, 'request')} (${cut.join(', ')})`,
      });
      process.exit(1);
    }
    void close(signal).then(
      (report) => exitSoon(report.cut.length > 0 ? 1 : 0),
      (error: unknown) => {
        log({ level: 'error', event: 'stopped', message: 'the shutdown failed', error });
        exitSoon(1);
      },
    );
  };
  const removeSignals = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  if (handleSignals) {
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  return { close, stopped };
}

/** Sets the exit code; anything still holding the event loop (a timer of work that was cut) may keep it a second, no more. */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 1000).unref();
}
