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
 * True only when the process that made a claim has certainly ended: it ran on this host and no
 * process has its id any more, or this process has its id but is not it (the id was reused). A
 * process on another host, or one this user may not signal, counts as alive (unknown).
 */
export function ownerGone(text: string): boolean {
  const owner = parseOwner(text);
  if (!owner || owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return text !== THIS_PROCESS;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
