// Key files on disk for `roundtrip keys`: created at once or not at all, read with the checks the server
// makes, replaced whole (temp file + rename) so a server starting meanwhile reads the old keys or the new,
// and edited by one writer at a time (`<file>.lock`) so that no writer's key is lost to another's.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readKeyFile } from '@roundtrip/mcp/node';
import { FileLockError, withFileLock } from './file-lock.ts';
import { type KeyFileText, parseKeyFileText } from './key-file-text.ts';

/** A key file operation that failed; the message says what and what to do. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

const HEADER = '# Roundtrip state keys: the first key seals, every key opens. Keep this file secret (mode 600).\n';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** Writes `text` to a new owner-only file beside `path` and returns its name. */
function writeTemp(path: string, text: string): string {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, 0o600); // whatever the umask
  return temp;
}

/**
 * Creates the key file `path` holding `text`, with owner-only permissions, and its folder when missing
 * (owner-only too). Atomic: the file appears whole, and never over an existing one.
 */
export function createKeyFile(path: string, key: string): void {
  const folder = dirname(path);
  let temp: string | undefined;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    temp = writeTemp(path, `${HEADER}${key}\n`);
    linkSync(temp, path);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') {
      throw new KeyFileError(`${path} exists already; it was left as it is. Add a key to it with \`roundtrip keys add ${path}\`.`);
    }
    throw new KeyFileError(`Cannot create ${path} (${codeOf(error)}). Check that ${folder} is a folder you can write to.`);
  } finally {
    if (temp) rmSync(temp, { force: true });
  }
}

/** The key file at `path` with its lines and keys, after the checks a server makes; warnings go to `warnings`. */
export function readKeyFileForEdit(path: string, warnings: string[]): KeyFileText {
  if (!existsSync(path)) throw new KeyFileError(`${path} does not exist. Create it with \`roundtrip keys new ${path}\`.`);
  // the server's own checks and messages: a regular file of a key file's size, writable by its owner only
  readKeyFile(path, 'the key file argument', warnings);
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
    warnings.push(`${path} can be read by other users; run \`chmod 600 ${path}\`.`);
  }
  return parseKeyFileText(readFileSync(path, 'utf8'), path);
}

/** Replaces the key file at `path` (the file a symbolic link points to) with `text`, owner-only, atomically. */
export function replaceKeyFile(path: string, text: string): void {
  let target = path;
  let temp: string | undefined;
  try {
    target = realpathSync(path);
    temp = writeTemp(target, text);
    renameSync(temp, target);
    temp = undefined;
  } catch (error) {
    throw new KeyFileError(
      `Cannot write ${target} (${codeOf(error)}); it was left as it was. Check that you can write to ${dirname(target)}.`,
    );
  } finally {
    if (temp) rmSync(temp, { force: true });
  }
}

/** How long `roundtrip keys` waits for another writer's lock on a key file. */
export const LOCK_TIMEOUT_VARIABLE = 'ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS';
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

function lockTimeoutOf(env: NodeJS.ProcessEnv): number {
  const value = env[LOCK_TIMEOUT_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_LOCK_TIMEOUT_MS;
  if (!/^\d{1,9}$/.test(value)) {
    throw new KeyFileError(
      `${LOCK_TIMEOUT_VARIABLE} is '${value}'; give the time to wait for another writer in whole milliseconds (0: do not wait), ` +
        `or unset it to wait ${DEFAULT_LOCK_TIMEOUT_MS} ms.`,
    );
  }
  return Number(value);
}

/**
 * Runs `work`, which reads, edits and replaces (or creates) the key file at `path`, while holding
 * `<file>.lock` beside the file a symbolic link points to: concurrent writers take turns instead of each
 * replacing the file with its own edit of the same old text. Waits for another writer up to
 * ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS (in `env`; default 10 s), then throws KeyFileError naming the lock's holder.
 * `note` is told when a lock left by an interrupted writer is taken over.
 */
export async function withKeyFileLock<T>(
  path: string,
  work: () => T,
  options: { env: NodeJS.ProcessEnv; note: (text: string) => void },
): Promise<T> {
  const timeoutMs = lockTimeoutOf(options.env);
  let target = path;
  try {
    target = realpathSync(path);
  } catch {}
  // no folder, no file to protect: `new` creates both at once and never over a file; the others find no file
  if (!existsSync(dirname(target))) return work();
  try {
    return await withFileLock(
      target,
      {
        writer: 'another `roundtrip keys`',
        timeoutMs,
        onTakeOver: (lock, owner) =>
          options.note(`${lock} was left by pid ${owner.pid}, which no longer runs (interrupted?); it was taken over.`),
      },
      work,
    );
  } catch (error) {
    if (error instanceof FileLockError) throw new KeyFileError(error.message, { cause: error });
    throw error;
  }
}
