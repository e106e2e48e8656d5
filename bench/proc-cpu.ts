// CPU time of processes from /proc (Linux): what the benches charge to each part of a setup.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) used so far by the processes `match` picks (by pid or command name). */
export function cpuSecondsOf(match: (pid: number, comm: string) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!match(Number(entry), comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}
