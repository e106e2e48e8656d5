// Instances of the demo over HTTP for the scale-out tests and bench: real child processes of the demo's
// HTTP entry (bundled once, so each starts quickly), each named by ROUNDTRIP_INSTANCE (the
// Roundtrip-Instance response header), all with one key file, one database (ROUNDTRIP_DB) and one effect
// ledger (ROUNDTRIP_LEDGER). An instance can be killed, stopped and started again. Every start takes a
// port the OS picks as the instance binds it (PORT=0): starting again on the old port could find it taken
// by another process meanwhile, so a restarted instance has a new port (route the proxy to it).
import { type ChildProcess, spawn } from 'node:child_process';

export interface InstanceSettings {
  /** The bundled HTTP entry (support/bundle.ts of src/http-server.ts). */
  launcher: string;
  keyFile: string;
  db: string;
  ledger: string;
  /** Folder for HOME (nothing is written there). */
  home: string;
  /** Extra environment, e.g. ROUNDTRIP_STATE_TTL. */
  env?: Record<string, string>;
}

export interface DemoInstance {
  name: string;
  /** The port it listens on now (a restart gives it a new one). */
  readonly port: number;
  /** Its process id (changes when it restarts). */
  pid(): number | undefined;
  /** Everything it wrote to stderr since it last started. */
  stderr(): string;
  /** SIGKILL: no drain, no goodbye. Resolves when it is gone. */
  kill(): Promise<void>;
  /** SIGTERM: finishes the rounds in flight and exits. Resolves with its exit code. */
  stop(): Promise<number | null>;
  /** Starts it again (after kill or stop) on a new port, reading the key file anew. */
  restart(): Promise<void>;
}

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  log: () => string;
  port: number;
}

async function launch(settings: InstanceSettings, name: string): Promise<Running> {
  const child = spawn(process.execPath, [settings.launcher], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: settings.home,
      PORT: '0',
      ROUNDTRIP_INSTANCE: name,
      ROUNDTRIP_KEY_FILE: settings.keyFile,
      ROUNDTRIP_DB: settings.db,
      ROUNDTRIP_LEDGER: settings.ledger,
      ROUNDTRIP_PRINCIPAL: 'ada',
      ...settings.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = await new Promise<number>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = / over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp /.exec(stderr);
      if (match && stderr.includes('info demo: database at')) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error(`instance ${name} exited before it served:\n${stderr}`)));
  });
  return { child, exited, log: () => stderr, port: listening };
}

/** Starts an instance named `name` on a port of its own; resolves once it serves. */
export async function startInstance(settings: InstanceSettings, name: string): Promise<DemoInstance> {
  let running = await launch(settings, name);
  return {
    name,
    get port() {
      return running.port;
    },
    pid: () => running.child.pid,
    stderr: () => running.log(),
    async kill() {
      if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
      await running.exited;
    },
    async stop() {
      if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
      return running.exited;
    },
    async restart() {
      running = await launch(settings, name);
    },
  };
}

/** Starts `count` instances named i1, i2, … on ports of their own, all at once. */
export async function startInstances(settings: InstanceSettings, count: number): Promise<DemoInstance[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => startInstance(settings, `i${index + 1}`)));
}
