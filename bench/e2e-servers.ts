// The servers the end-to-end benches compare, each a child process started from a bundle (the same
// esbuild bundling for both, better-sqlite3 external, so neither pays tsx's loader): ours is the demo
// (apps/demo: server.ts over stdio, http-server.ts over HTTP), the peer is bench/peers (the SDK alone).
// Both read the same SQLite orders file, made by the demo's store. Clients are the official v2 client
// pinned to 2026-07-28, handing every input_required result back (no auto-fulfil).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Stream } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import Database from 'better-sqlite3';
import { openSqliteOrdersStore } from '../apps/demo/src/sqlite-orders-store.ts';
import { bundleForNode } from '../apps/demo/test/support/bundle.ts';
import { generateKey } from '../packages/engine/src/index.ts';

export type Side = 'ours' | 'peer';
/** The stateful peer (live XState actors per conversation) exists over stdio only. */
export type StdioSide = Side | 'stateful';
type Transport = 'stdio' | 'http';

/** The entries bundled, by side and transport. */
const ENTRIES: Record<StdioSide, Partial<Record<Transport, URL>>> = {
  ours: {
    stdio: new URL('../apps/demo/src/server.ts', import.meta.url),
    http: new URL('../apps/demo/src/http-server.ts', import.meta.url),
  },
  peer: { stdio: new URL('./peers/peer-stdio.ts', import.meta.url), http: new URL('./peers/peer-http.ts', import.meta.url) },
  stateful: { stdio: new URL('./peers/stateful-peer-stdio.ts', import.meta.url) },
};

/** Paid orders added for benches that refund (one each): `ord_bench_0` … */
const REFUNDABLE_ORDERS = 20_000;
export const refundableOrder = (i: number) => {
  if (i >= REFUNDABLE_ORDERS) throw new Error(`only ${REFUNDABLE_ORDERS} refundable orders are made; ask for fewer refunds`);
  return `ord_bench_${i}`;
};

function addOrders(path: string, count: number): void {
  const db = new Database(path);
  try {
    const insert = db.prepare(
      "INSERT INTO orders (id, customer, amount_cents, currency, status, created_at) VALUES (?, 'ada', 4900, 'USD', 'paid', '2026-05-12T10:15:00.000Z')",
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(refundableOrder(i));
    })();
  } finally {
    db.close();
  }
}

export interface BenchFiles {
  dir: string;
  env: Record<string, string>;
  /** The bundle of a side's entry for a transport (built on first use). */
  bundle(side: StdioSide, transport: Transport): Promise<string>;
}

/** Makes the orders file (the demo's seed orders, ledger table beside them) and the settings both sides read. */
export async function prepareFiles(dir: string, extraEnv: Record<string, string> = {}): Promise<BenchFiles> {
  const db = join(dir, 'orders.db');
  await openSqliteOrdersStore(db).close();
  addOrders(db, REFUNDABLE_ORDERS);
  const env = {
    ROUNDTRIP_DB: db,
    ROUNDTRIP_KEY: generateKey(),
    ROUNDTRIP_PRINCIPAL: 'ada',
    PEER_STATE_KEY: generateKey(),
    ...extraEnv,
  };
  const built = new Map<string, Promise<string>>();
  const bundle = (side: StdioSide, transport: Transport) => {
    const key = `${side}-${transport}`;
    const entry = ENTRIES[side][transport];
    if (!entry) throw new Error(`there is no ${side} server over ${transport}`);
    let found = built.get(key);
    if (!found) {
      found = bundleForNode(entry, join(dir, `${key}.mjs`));
      built.set(key, found);
    }
    return found;
  };
  return { dir, env, bundle };
}

const newClient = () =>
  new Client(
    { name: 'bench', version: '0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );

/** Splits a server's stderr into lines; `next` resolves with the next line (from now on) that matches `pattern`. */
function stderrLines(stderr: Stream): { next(pattern: RegExp): Promise<string> } {
  let pending = '';
  const waiters = new Set<(line: string) => boolean>();
  stderr.on('data', (chunk: Buffer | string) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) for (const waiter of waiters) if (waiter(line)) waiters.delete(waiter);
  });
  return {
    next: (pattern) =>
      new Promise<string>((resolve) => {
        waiters.add((line) => {
          if (!pattern.test(line)) return false;
          resolve(line);
          return true;
        });
      }),
  };
}

export interface StdioServer {
  client: Client;
  pid: number;
  /** Resolves with the next stderr line (written from now on) that matches `pattern`. */
  nextStderrLine(pattern: RegExp): Promise<string>;
  close(): Promise<void>;
}

/** Spawns a side's stdio server with the official client's transport; `nodeArgs` go before the bundle (e.g. --cpu-prof). */
export async function startStdio(files: BenchFiles, side: StdioSide, nodeArgs: string[] = []): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, await files.bundle(side, 'stdio')],
    env: { ...getDefaultEnvironment(), ...files.env },
    cwd: files.dir,
    stderr: 'pipe',
  });
  const { next: nextStderrLine } = stderrLines(transport.stderr!);
  const client = newClient();
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error(`the ${side} stdio server has no process id after connecting`);
  return { client, pid, nextStderrLine, close: () => client.close() };
}

export interface HttpServer {
  url: URL;
  child: ChildProcess;
  /** Resolves with the next stderr line (written from now on) that matches `pattern`. */
  nextStderrLine(pattern: RegExp): Promise<string>;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Spawns a side's HTTP server on a free loopback port and waits for the line that gives its URL. Its
 * stdout (only V8's traces, e.g. `--trace-gc-nvp`: the server writes nothing there) goes to the file
 * descriptor `stdout` when one is given.
 */
export async function startHttp(files: BenchFiles, side: Side, nodeArgs: string[] = [], stdout?: number): Promise<HttpServer> {
  const child = spawn(process.execPath, [...nodeArgs, await files.bundle(side, 'http')], {
    env: { ...process.env, ...files.env, PORT: '0' },
    cwd: files.dir,
    stdio: ['ignore', stdout ?? 'ignore', 'pipe'],
  });
  let log = '';
  const lines = stderrLines(child.stderr!.setEncoding('utf8'));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (chunk: string) => {
      log += chunk;
      const match = / (?:over HTTP|listening) at (http:\/\/\S+)/.exec(log);
      if (match && (side === 'peer' || log.includes('demo: database at'))) resolve(new URL(match[1]!));
    });
    child.on('exit', () => reject(new Error(`the ${side} HTTP server exited before it was ready:\n${log}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    nextStderrLine: lines.next,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Connects a new client to an HTTP server. */
export async function connectHttp(url: URL): Promise<Client> {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}
