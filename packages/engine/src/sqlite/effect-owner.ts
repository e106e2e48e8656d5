// Which process claimed an effect, and whether it is known to have ended: a `running` record whose
// process is gone will never be completed, so a retry need not wait for it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** This process: its host, its id, and a token told apart from any earlier process that had the same id. */
export const THIS_PROCESS = JSON.stringify({ host: hostname(), pid: process.pid, token: randomBytes(8).toString('hex') });

interface Owner {
  host: string;
  pid: number;
  token: string;
}

function parseOwner(text: string): Owner | undefined {
  try {
    const owner: unknown = JSON.parse(text);
    if (typeof owner !== 'object' || owner === null) return undefined;
    const { host, pid, token } = owner as Record<string, unknown>;
    if (typeof host !== 'string' || typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || typeof token !== 'string')
      return undefined;
    return { host, pid, token };
  } catch {
    return undefined;
  }
}

/**
 * What is known of the process that made a claim: `gone` only when it has certainly ended (it ran on
 * this host and no process has its id any more, or this process has its id but is not it: the id was
 * reused); `alive` when it is this process, or a process with its id runs on this host; `unknown` for a
 * process on another host, or one this user may not signal (it may be another process that reused the id).
 */
export function ownerLiveness(text: string): 'alive' | 'gone' | 'unknown' {
  const owner = parseOwner(text);
  if (!owner || owner.host !== hostname()) return 'unknown';
  if (owner.pid === process.pid) return text === THIS_PROCESS ? 'alive' : 'gone';
  try {
    process.kill(owner.pid, 0);
    return 'alive';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'unknown';
  }
}
