// A real reverse proxy on loopback for the scale-out tests and bench: Debian's nginx, round-robin over
// the given upstream ports, run as a child process (daemon off) from a config written into a temp dir that
// also holds its pid file, logs and temp folders. `proxy_next_upstream error timeout non_idempotent` passes
// a request to the next instance when one refuses the connection or drops it (a killed or restarting
// instance): safe for MRTR rounds, which any instance may answer and the effect ledger deduplicates.
// `max_fails=0` keeps every instance in the rotation, so which instance answers is plain round-robin.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';

const NGINX = '/usr/sbin/nginx';
/** True when Debian's nginx is installed (`bash scripts/services.sh` installs it). */
export const hasNginx = existsSync(NGINX);

export interface NginxProxy {
  /** The proxied MCP endpoint: http://127.0.0.1:<port>/mcp. */
  url: URL;
  /** Its folder: nginx.conf, error.log, access.log. */
  dir: string;
  /** Stops nginx (SIGQUIT, then waits for it to exit) and removes its folder. */
  stop(): Promise<void>;
}

/** The nginx.conf for `upstreams` (ports on 127.0.0.1), listening on 127.0.0.1:`port`, everything under `dir`. */
function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n');
  return `daemon off;
master_process on;
worker_processes 1;
${process.getuid?.() === 0 ? 'user root;\n' : ''}pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
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

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts nginx in front of `upstreams`; resolves once its port accepts connections (polled, at most 200 times). */
export async function startNginx(upstreams: number[]): Promise<NginxProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'rt-nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  const child: ChildProcess = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}) before it listened: ${stderr}`);
    if (await accepts(port)) break;
    if (attempt === 200) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not listen on 127.0.0.1:${port} after 200 attempts: ${stderr}`);
    }
    await pause(25);
  }
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    dir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
