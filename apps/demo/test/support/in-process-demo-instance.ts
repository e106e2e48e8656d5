// An instance of the demo over HTTP inside the test's own process, for the scale-out test: the pieces the
// demo's HTTP entry (src/http-server.ts) runs — openDemoStores, createDemoDefinitions and the transport's
// runHttpServer listening on a port of its own on 127.0.0.1 — with its settings given as an environment
// instead of read from process.env, no signal handlers, and its log kept in memory. It starts in tens of
// milliseconds where a child process takes hundreds. stop() is what SIGTERM does to a process (no new
// connections, the rounds in flight finish, the stores and the ledger closed); restart() starts it again,
// reading the key file anew, on the port it had when that port is still free (a proxy in front then needs
// no new route), else on a new one. A crash (SIGKILL) needs a real process: support/demo-instances.ts.
import type { EngineLogEntry } from '@roundtrip/engine';
import { runHttpServer } from '@roundtrip/transport-http/node';
import { ledgerInDatabase } from '../../src/db-location.ts';
import { SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_VERSION } from '../../src/demo-definitions.ts';
import { openDemoStores } from '../../src/demo-stores.ts';
import { borrowDefinitions } from './reused-definitions.ts';

export interface InProcessSettings {
  keyFile: string;
  /** ROUNDTRIP_DB: the demo's database. */
  db: string;
  /** ROUNDTRIP_LEDGER: the effect ledger's database. */
  ledger: string;
}

export interface InProcessInstance {
  name: string;
  /** The port it listens on now (a restart gives it a new one when another process took the old one meanwhile). */
  readonly port: number;
  /** Its log since it last started, one line an entry. */
  log(): string;
  /** Stops it as SIGTERM stops the process: resolves with the exit code the process would have (0: nothing was cut). */
  stop(): Promise<number>;
  /** Starts it again after stop(), reading the key file anew, on its port if that is still free. */
  restart(): Promise<void>;
}

interface Running {
  port: number;
  lines: string[];
  close(): Promise<number>;
}

async function launch(settings: InProcessSettings, name: string, port: number): Promise<Running> {
  const lines: string[] = [];
  const log = (entry: EngineLogEntry) => lines.push(`${entry.level} ${entry.event}: ${entry.message}`);
  const env = {
    ROUNDTRIP_INSTANCE: name,
    ROUNDTRIP_KEY_FILE: settings.keyFile,
    ROUNDTRIP_LEDGER: settings.ledger,
    ROUNDTRIP_PRINCIPAL: 'ada',
  };
  const stores = await openDemoStores(settings.db);
  // as src/http-server.ts: the refund in the ledger's transaction only when the ledger is in the demo's database
  // (createDemoDefinitions' definitions, a set built once per worker: reused-definitions.ts)
  const { definitions, giveBack } = borrowDefinitions(stores, { ledgerInDatabase: ledgerInDatabase(settings.db, env) });
  const closeStores = async () => {
    await stores.close();
    giveBack();
  };
  try {
    const server = await runHttpServer({
      name: SERVER_NAME,
      version: SERVER_VERSION,
      ...definitions,
      instructions: SERVER_INSTRUCTIONS,
      listen: { port },
      env,
      handleSignals: false,
      log,
      onClose: closeStores,
    });
    return {
      port: Number(server.url.port),
      lines,
      close: async () => {
        await server.close();
        return server.stopped;
      },
    };
  } catch (error) {
    await closeStores();
    throw new Error(`in-process instance ${name} did not start: ${(error as Error).message}\n${lines.join('\n')}`, { cause: error });
  }
}

/** Starts an instance named `name` (its Roundtrip-Instance header) in this process; resolves once it listens. */
export async function startInProcessInstance(settings: InProcessSettings, name: string): Promise<InProcessInstance> {
  let running: Running | undefined = await launch(settings, name, 0);
  let last = running;
  return {
    name,
    get port() {
      return last.port;
    },
    log: () => last.lines.join('\n'),
    async stop() {
      const stopping = running;
      running = undefined;
      return stopping ? stopping.close() : 0;
    },
    async restart() {
      if (running) throw new Error(`in-process instance ${name} is running: stop() it before restart()`);
      try {
        running = await launch(settings, name, last.port);
      } catch (error) {
        // taken by another process since it stopped (the transport names EADDRINUSE): a port the OS picks
        if (!String((error as Error).message).includes('EADDRINUSE')) throw error;
        running = await launch(settings, name, 0);
      }
      last = running;
    },
  };
}
