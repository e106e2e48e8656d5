// How every Node server of Roundtrip starts (stdio, HTTP), in one order: V8 tuned when it owns its process, the
// transport's own settings, the shared ones with their warnings logged, the transport's checks of both, the
// served engine opened, the transport started (listening, connected, its signals and drain in place), and
// the startup line. What was opened is released in one order too: the code's onClose, what the transport
// opened, then the served engine (its tasks' work, the queue and task store, the ledger). How each transport
// listens, stops and exits stays its own: see NodeTransport.
import type { EngineLogEntry } from '@roundtrip/engine';
import { resolveServerSettings, type ServerSettings } from './resolve-server-settings.ts';
import { openServedEngine, type ServedEngine, type ServedEngineOptions } from './serve-engine.ts';
import { startupMessage } from './startup-message.ts';
import { createStderrLog } from './stderr-log.ts';
import { tuneV8ForServing } from './v8-tuning.ts';

type Log = (entry: EngineLogEntry) => void;

/** What every Node server's options hold, whatever it is served over. */
export interface NodeServerOptions extends ServedEngineOptions {
  version: string;
  /** Environment to read settings from. @defaultValue process.env */
  env?: NodeJS.ProcessEnv | undefined;
  /** Called once when the server has stopped, to release resources; what the server opened is closed after it. */
  onClose?: (() => void | Promise<void>) | undefined;
}

/** What a transport is given to start with: everything is open, nothing is served yet. */
export interface NodeTransportStart<Own> {
  served: ServedEngine;
  settings: ServerSettings;
  /** The transport's own settings, as its `read` and `check` made them. */
  own: Own;
  log: Log;
  /**
   * Releases what was opened, once, when the server has stopped: the code's `onClose`, then `own` (what the
   * transport opened, e.g. the answer relay), then the served engine, which is closed even if either fails.
   */
  release: (own?: () => Promise<void>) => Promise<void>;
}

/** What a transport says once it serves: the startup line's words for it, and what it hands back to the caller. */
export interface NodeTransportStarted<Running> {
  running: Running;
  /** What it serves over, for the startup line: `stdio`, `HTTP at … with …`. */
  over: string;
  /** The principal as the startup line shows it, when not the settings' one (e.g. each token's subject). */
  principal?: string | undefined;
  /** Lines logged after the startup line. */
  after?: readonly EngineLogEntry[] | undefined;
}

/** What differs between transports: their own settings and checks, and how they listen, stop and exit. */
export interface NodeTransport<Own, Running> {
  /** Whether the server owns its process; V8 is then tuned for serving rounds (see tuneV8ForServing). */
  ownsProcess: boolean;
  /** Where the log goes. @defaultValue one line per entry on stderr */
  log?: Log | undefined;
  /** The transport's own `ROUNDTRIP_*` variables, which the unknown-name warning leaves alone. */
  variables?: readonly string[] | undefined;
  /** Reads the transport's own settings, before the shared ones (nothing is written or opened yet). */
  read?: ((env: NodeJS.ProcessEnv) => Own) | undefined;
  /**
   * Once the shared settings are read and their warnings logged, before anything is opened: the transport's
   * refusals (which leave nothing behind) and what it makes of its settings.
   */
  check?: ((own: Own, settings: ServerSettings, log: Log) => Own) | undefined;
  /**
   * Starts serving: listens or connects, and puts in place how the server stops (its signals, its drain, its
   * exit), calling `release` once stopped. When it throws, it has closed what it opened itself; the served
   * engine is closed after it. The startup line is logged once it returns, so whoever reads it may signal at once.
   */
  start: (opened: NodeTransportStart<Own>) => Promise<NodeTransportStarted<Running>>;
}

/**
 * Runs a Node server's start-up over `transport`: the one sequence `runStdioServer` and `runHttpServer` share.
 * A setting it cannot start with throws a RoundtripConfigError before anything is opened (see reportStartFailure
 * for a program's main).
 *
 * @example
 * const running = await runNodeServer(options, { ownsProcess: true, start: async ({ served, release }) => ({ running: listen(served, release), over: 'stdio' }) });
 */
export async function runNodeServer<Own, Running>(options: NodeServerOptions, transport: NodeTransport<Own, Running>): Promise<Running> {
  const v8 = transport.ownsProcess ? tuneV8ForServing() : undefined;
  const env = options.env ?? process.env;
  const log = transport.log ?? createStderrLog(options.name);
  const read = transport.read?.(env) as Own;
  // the shared settings (and unknown ROUNDTRIP_* names) before the transport's checks: a misspelt variable is named
  // before the refusal it causes
  const settings = resolveServerSettings(options.name, env, options, transport.variables);
  for (const warning of settings.warnings) log({ level: 'warn', event: 'settings', message: warning });
  const own = transport.check ? transport.check(read, settings, log) : read;
  const served = await openServedEngine(options, settings, log);
  const release = async (opened?: () => Promise<void>) => {
    try {
      await options.onClose?.();
      await opened?.();
    } finally {
      await served.close();
    }
  };
  let started: NodeTransportStarted<Running>;
  try {
    started = await transport.start({ served, settings, own, log, release });
  } catch (error) {
    await served.close();
    throw error;
  }
  const shown = started.principal === undefined ? settings : { ...settings, principal: started.principal };
  log({
    level: 'info',
    event: 'started',
    message: startupMessage(options.name, options.version, served.engine, shown, started.over, v8),
  });
  for (const entry of started.after ?? []) log(entry);
  return started.running;
}
