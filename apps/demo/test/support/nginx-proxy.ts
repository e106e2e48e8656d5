// A real reverse proxy on loopback for the scale-out tests and bench: Debian's nginx, round-robin over
// the given upstream ports, run as a child process (daemon off) from a config written into a temp dir that
// also holds its pid file, logs and temp folders. `proxy_next_upstream error timeout non_idempotent` passes
// a request to the next instance when one refuses the connection or drops it (a killed or restarting
// instance): safe for MRTR rounds, which any instance may answer and the effect ledger deduplicates.
// `max_fails=0` keeps every instance in the rotation, so which instance answers is plain round-robin.
// nginx also logs to its stderr at notice level, read line by line: it says when it listens, when a reload
// (route) is done, and when another process took its port first (then it starts again on another one).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';
/** True when Debian's nginx is installed (`bash scripts/services.sh` installs it). */
export const hasNginx = existsSync(NGINX);

export interface NginxProxy {
  /** The proxied MCP endpoint: http://127.0.0.1:<port>/mcp. */
  url: URL;
  /** Its folder: nginx.conf, error.log, access.log. */
  dir: string;
  /** Routes to `upstreams` from now on (nginx.conf rewritten, SIGHUP); resolves once the workers of the old
   * configuration have exited, so every new connection goes by the new one. `backups` (nginx's `backup`
   * servers) get a request only when every one of `upstreams` failed it: a test then knows which instance
   * takes a request first. */
  route(upstreams: number[], backups?: number[]): Promise<void>;
  /** Stops nginx (SIGQUIT, then waits for it to exit) and removes its folder. */
  stop(): Promise<void>;
}

/** The nginx.conf for `upstreams` and `backups` (ports on 127.0.0.1), listening on 127.0.0.1:`port`, everything under `dir`. */
function nginxConfig(dir: string, port: number, upstreams: number[], backups: number[] = []): string {
  const servers = [
    ...upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`),
    ...backups.map((p) => `    server 127.0.0.1:${p} max_fails=0 backup;`),
  ].join('\n');
  return `daemon off;
master_process on;
worker_processes 1;
${process.getuid?.() === 0 ? 'user root;\n' : ''}pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
error_log stderr notice;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream roundtrip {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location /mcp {
      proxy_pass http://roundtrip;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_next_upstream error timeout non_idempotent;
      proxy_read_timeout 30s;
    }
  }
}
`;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (asked of the OS, then released): nginx binds it
 * itself, and another process may take it first; startNginx sees that and asks again. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** nginx's master and its workers as its stderr log (notice level) tells them, line by line. */
class NginxLog {
  text = '';
  /** The worker processes running now, by pid. */
  readonly workers = new Set<number>();
  private partial = '';
  private readonly watchers = new Set<(line: string) => void>();

  constructor(child: ChildProcess) {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.text += chunk;
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) {
        const started = / start worker process (\d+)$/.exec(line);
        if (started) this.workers.add(Number(started[1]));
        const ended = / worker process (\d+) exited /.exec(line);
        if (ended) this.workers.delete(Number(ended[1]));
        for (const watcher of [...this.watchers]) watcher(line);
      }
    });
  }

  /** Resolves with what `decide` makes of the first line it does not return undefined for. */
  until<T>(decide: (line: string) => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const watcher = (line: string) => {
        const decided = decide(line);
        if (decided === undefined) return;
        this.watchers.delete(watcher);
        resolve(decided);
      };
      this.watchers.add(watcher);
    });
  }
}

/** How many ports startNginx tries when another process takes the one it picked before nginx binds it. */
const BIND_ATTEMPTS = 5;

interface Started {
  child: ChildProcess;
  log: NginxLog;
  exited: Promise<void>;
}

/** Runs nginx on `port`: 'taken' when the port was in use (nginx is gone again), else once it listens. */
async function run(dir: string, port: number, upstreams: number[]): Promise<Started | 'taken'> {
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  const child = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log = new NginxLog(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // the master binds the port before it starts the workers; on EADDRINUSE it says so at once, then
  // would try again every 500 ms for 2 s: no point, another port is picked instead
  const outcome = await Promise.race([
    log.until((line) =>
      line.includes(' start worker processes')
        ? ('listening' as const)
        : line.includes('failed (98: Address already in use)')
          ? ('taken' as const)
          : undefined,
    ),
    exited.then(() => 'exited' as const),
  ]);
  if (outcome === 'listening') return { child, log, exited };
  child.kill('SIGKILL');
  await exited;
  if (outcome === 'taken') return 'taken';
  throw new Error(`nginx exited (${child.exitCode}) before it listened on 127.0.0.1:${port}: ${log.text}`);
}

/** Starts nginx in front of `upstreams`; resolves once it listens (on another port if the first one is taken meanwhile). */
export async function startNginx(upstreams: number[]): Promise<NginxProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'rt-nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  let port = 0;
  let started: Started | 'taken' = 'taken';
  for (let attempt = 1; started === 'taken'; attempt++) {
    if (attempt > BIND_ATTEMPTS) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx found each of ${BIND_ATTEMPTS} free ports taken by another process before it could bind it`);
    }
    port = await freePort();
    started = await run(dir, port, upstreams);
  }
  const { child, log, exited } = started;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    dir,
    async route(next, backups) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx is not running: ${log.text}`);
      writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, next, backups));
      const old = new Set(log.workers);
      let fresh = false;
      const reloaded = log.until((line) => {
        if (line.includes('[emerg]')) return new Error(`nginx kept its old upstreams, the new configuration failed: ${line}`);
        if (/ start worker process \d+$/.test(line)) fresh = true;
        return fresh && [...old].every((pid) => !log.workers.has(pid)) ? true : undefined;
      });
      child.kill('SIGHUP');
      const outcome = await Promise.race([reloaded, exited.then(() => new Error(`nginx exited while reloading: ${log.text}`))]);
      if (outcome instanceof Error) throw outcome;
      // The old workers closed their idle keep-alive connections before they exited, so each FIN was in
      // this process's sockets before the line above was; those readable events came in the same poll as
      // that line or an earlier one. Going round to the check phase lets Node's HTTP client see them all
      // first, so no request of the caller goes out on a connection nginx already closed.
      await new Promise((resolve) => setImmediate(resolve));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
