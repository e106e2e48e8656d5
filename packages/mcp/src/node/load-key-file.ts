import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseKey, RoundtripDefinitionError } from '@roundtrip/engine';
import { RoundtripConfigError } from '../config-error.ts';

const DEFAULT_KEY_FILE = 'the default key file';
/** A key file holds a few keys; anything larger is not one. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** How to make a key file, for every message about one that cannot be used. */
const makeOne = (path: string) => `\`roundtrip keys new ${path}\``;

/**
 * Checks a key file before it is read: a regular file (not a FIFO, device or folder, which would hang or
 * exhaust a read) of a key file's size, that no one but its owner can write. A file others can write lets
 * them plant a key and forge states, so it is refused; a folder others can write, or another owner, is
 * warned about. Returns the warnings.
 */
function checkKeyFile(path: string, setting: string): string[] {
  const stat = statSync(path);
  if (!stat.isFile()) {
    const what = stat.isFIFO()
      ? 'a FIFO'
      : stat.isDirectory()
        ? 'a folder'
        : stat.isCharacterDevice() || stat.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
    throw new RoundtripConfigError(
      setting,
      `The key file ${path} is ${what}, not a file. Point ${setting} at a file that holds the key. Make one with ${makeOne('<file>')}.`,
    );
  }
  if (stat.size > MAX_KEY_FILE_BYTES) {
    throw new RoundtripConfigError(
      setting,
      `The key file ${path} is ${stat.size} bytes; a key file holds a few keys, one a line (under 64 KiB). Check the path in ${setting}; ${makeOne('<file>')} makes a key file.`,
    );
  }
  if (process.platform === 'win32') return [];
  if ((stat.mode & 0o022) !== 0) {
    throw new RoundtripConfigError(
      setting,
      `The key file ${path} can be written by other users, who could plant a key and forge states. Run \`chmod 600 ${path}\`, then start again.`,
      { code: 'unsafe' },
    );
  }
  const warnings: string[] = [];
  const folder = statSync(dirname(path));
  if ((folder.mode & 0o002) !== 0 && (folder.mode & 0o1000) === 0) {
    warnings.push(
      `The folder of the key file ${path} can be written by other users, who could replace the file; run \`chmod o-w ${dirname(path)}\`.`,
    );
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    warnings.push(`The key file ${path} belongs to another user (uid ${stat.uid}); whoever owns it can change the keys.`);
  return warnings;
}

/** The text of a key file, checked first (warnings go to `warnings`); undefined when there is none and `missingOk`. */
function readKeyFileText(path: string, setting: string, missingOk: boolean, warnings: string[]): string | undefined {
  try {
    warnings.push(...checkKeyFile(path, setting));
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof RoundtripConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && missingOk) return undefined;
    if (code === 'ENOENT') {
      throw new RoundtripConfigError(
        setting,
        `Cannot read the key file ${path} (ENOENT): there is no such file. Create it with ${makeOne(path)}, or check the path in ${setting}.`,
        { code: 'unavailable', cause: error },
      );
    }
    throw new RoundtripConfigError(
      setting,
      `Cannot read the key file ${path} (${code ?? (error as Error).message}). Check the file's permissions (the user running the server must read it) and the path in ${setting}, or point ${setting} at a new key file made with ${makeOne('<file>')}.`,
      { code: 'unavailable', cause: error },
    );
  }
}

/** What to do about a key file whose text holds no usable key. */
const startOver = (path: string, setting: string) =>
  setting === DEFAULT_KEY_FILE
    ? 'or delete the file to have a new one generated'
    : `or move the file away and create a new one with ${makeOne(path)}`;

function keysOf(text: string, path: string, setting: string): string[] {
  const keys: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const key = line.trim();
    if (key.length === 0 || key.startsWith('#')) return;
    try {
      parseKey(key);
    } catch (error) {
      const reason = error instanceof RoundtripDefinitionError ? error.problems[0]!.message : (error as Error).message;
      throw new RoundtripConfigError(
        setting,
        `Line ${index + 1} of the key file ${path} is not a key: ${reason} Fix or remove that line (one base64url key of 32 bytes a line), ${startOver(path, setting)}.`,
      );
    }
    keys.push(key);
  });
  if (keys.length === 0) {
    throw new RoundtripConfigError(
      setting,
      `The key file ${path} holds no key. Put one base64url key (32 bytes) on a line, ${startOver(path, setting)}.`,
    );
  }
  return keys;
}

/** Keys of a key file: one base64url key a line, the first seals; blank lines and `#` comments are skipped. */
export function readKeyFile(path: string, setting: string, warnings: string[] = []): string[] {
  return keysOf(readKeyFileText(path, setting, false, warnings)!, path, setting);
}

/** True when a POSIX key file can be read by users other than its owner. */
export function isReadableByOthers(path: string): boolean {
  if (process.platform === 'win32') return false;
  return (statSync(path).mode & 0o077) !== 0;
}

/**
 * Reads the key file at `path`, creating it first with a fresh random key (owner-only permissions)
 * when it does not exist. Creation is atomic, so two server processes starting at once (a host probing
 * with a second process) end up with the same key.
 */
export function loadOrCreateKeyFile(path: string, warnings: string[] = []): { keys: string[]; created: boolean } {
  const existing = readKeyFileText(path, DEFAULT_KEY_FILE, true, warnings);
  if (existing !== undefined) return { keys: keysOf(existing, path, DEFAULT_KEY_FILE), created: false };
  const folder = dirname(path);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(
      temp,
      `# Roundtrip state key: seals the requestState of this server's tools. Keep it secret.\n${randomBytes(32).toString('base64url')}\n`,
      { mode: 0o600, flag: 'wx' },
    );
    chmodSync(temp, 0o600);
    try {
      linkSync(temp, path); // fails if another process created the file first; then its key wins
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temp, { force: true });
    }
  } catch (error) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_KEY_FILE',
      `Cannot create the state key file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Set ROUNDTRIP_KEY or ROUNDTRIP_KEY_FILE, or make ${folder} writable.`,
      { code: 'unavailable', cause: error },
    );
  }
  return { keys: readKeyFile(path, DEFAULT_KEY_FILE, warnings), created: true };
}
