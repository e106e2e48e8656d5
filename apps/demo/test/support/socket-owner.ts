// Which process holds a local TCP port (Linux, from /proc): for the scale-out tests, which instance owns
// the client end of a PostgreSQL session seen in pg_stat_activity (its client_port).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The socket inodes of a local IPv4 or IPv6 TCP port on 127.0.0.1 / ::1. */
function inodesOfPort(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hex}`) && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** Of `pids`, the one whose open sockets include the local TCP port `port`, or undefined. */
export function pidHoldingPort(pids: number[], port: number): number | undefined {
  const inodes = inodesOfPort(port);
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
        return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
      });
    } catch {
      return false;
    }
  });
}
