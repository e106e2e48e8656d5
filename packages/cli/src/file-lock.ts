// A lock beside a file, shared by processes: `<file>.lock` appears whole or not at all (a written temp
// file hard-linked to the lock's name, which fails when the name exists) and names its owner (pid, host,
// start, a unique id). Waiters retry on timers until a timeout, then fail naming the owner. A lock whose
// owner no longer runs on this host is taken over, atomically: see takeOver.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Who holds a lock, as its file says. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** When it asked for the lock (ISO 8601). */
  readonly started: string;
  /** Unique to one taking of the lock. */
  readonly id: string;
}

/** The lock could not be taken: held past the wait, or not creatable; the message says what and what to do. */
export class FileLockError extends Error {
  override readonly name = 'FileLockError';
}

interface FileLockOptions {
  /** Who takes this lock, for the message a waiter fails with: "another `x`" is writing the file. */
  readonly writer: string;
  /** How long to wait for another owner to finish, in milliseconds; 0 fails at once. */
  readonly timeoutMs: number;
  /** Told when a lock left by a process that no longer runs was taken over. */
  readonly onTakeOver: (lock: string, owner: LockOwner) => void;
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

function isOwner(value: unknown): value is LockOwner {
  const owner = value as Partial<LockOwner> | null;
  return (
    typeof owner === 'object' &&
    owner !== null &&
    Number.isSafeInteger(owner.pid) &&
    (owner.pid ?? 0) > 0 &&
    typeof owner.host === 'string' &&
    typeof owner.started === 'string' &&
    typeof owner.id === 'string' &&
    /^[A-Za-z0-9_-]{1,64}$/.test(owner.id)
  );
}

/** The owner the lock file names; null when there is no lock file, undefined when it names none. */
function readOwner(lock: string): LockOwner | null | undefined {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const owner: unknown = JSON.parse(text);
    return isOwner(owner) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Whether no process runs with the owner's pid; a process on another host cannot be checked, so it counts as running. */
function hasDied(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return codeOf(error) === 'ESRCH'; // EPERM: it runs, as another user
  }
}

/** Links `from` as `to` unless `to` exists; whether it did. */
function linkUnlessExists(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Replaces the lock of the dead `stale` owner with `mine` (a temp file naming this process). Taking over
 * generation `stale.id` needs `<lock>.<id>.takeover`, which one process at a time can create: whoever holds
 * it checks the lock still names that owner, then renames `mine` over it. Nothing else replaces an existing
 * lock, so the check stays true until the rename, and two processes never both take the same dead lock.
 */
function takeOver(lock: string, stale: LockOwner, mine: string): boolean {
  const marker = `${lock}.${stale.id}.takeover`;
  if (!linkUnlessExists(mine, marker)) return false;
  try {
    if (readOwner(lock)?.id !== stale.id) return false;
    renameSync(mine, lock);
    return true;
  } finally {
    rmSync(marker, { force: true });
  }
}

function writeWhole(path: string, text: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function heldMessage(file: string, lock: string, owner: LockOwner | undefined, options: FileLockOptions): string {
  const foreign = owner !== undefined && owner.host !== hostname();
  const holder = owner
    ? `pid ${owner.pid}${foreign ? ` on host ${owner.host}` : ''}, since ${owner.started}`
    : `${lock} does not say which process holds it`;
  return (
    `${options.writer} is writing ${file} (${holder}); waited ${options.timeoutMs / 1000} s for ${lock}. ` +
    `Wait for it and retry, or remove ${lock} if no such process runs${foreign ? ` on ${owner.host}` : ''}.`
  );
}

/** Takes `<file>.lock`, waiting for another owner up to the timeout; resolves to this owner. */
async function acquire(file: string, lock: string, options: FileLockOptions): Promise<LockOwner> {
  const me: LockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString(), id: randomBytes(8).toString('hex') };
  const mine = `${lock}.${me.id}.tmp`;
  const deadline = performance.now() + options.timeoutMs;
  try {
    writeWhole(mine, `${JSON.stringify(me)}\n`);
    for (;;) {
      if (linkUnlessExists(mine, lock)) return me;
      const owner = readOwner(lock);
      if (owner === null) continue; // released meanwhile
      if (owner && hasDied(owner) && takeOver(lock, owner, mine)) {
        options.onTakeOver(lock, owner);
        return me;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new FileLockError(heldMessage(file, lock, owner, options));
      // jittered, so that waiters do not retry in step
      await delay(Math.min(left, 10 + Math.random() * 30));
    }
  } catch (error) {
    if (error instanceof FileLockError) throw error;
    throw new FileLockError(
      `Cannot lock ${file}: ${lock} could not be created or read (${codeOf(error)}). Check that you can write to ${dirname(lock)}.`,
    );
  } finally {
    rmSync(mine, { force: true });
  }
}

/** Removes the lock if it is still this owner's; a lock left behind (the removal failed) is taken over later, its pid gone. */
function release(lock: string, me: LockOwner): void {
  try {
    if (readOwner(lock)?.id === me.id) rmSync(lock, { force: true });
  } catch {}
}

/**
 * Runs `work` while holding `<file>.lock`, so that processes doing the same take turns; throws
 * FileLockError (and runs nothing) when the lock stays held past `timeoutMs` or cannot be created.
 */
export async function withFileLock<T>(file: string, options: FileLockOptions, work: () => T | Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const me = await acquire(file, lock, options);
  try {
    return await work();
  } finally {
    release(lock, me);
  }
}
