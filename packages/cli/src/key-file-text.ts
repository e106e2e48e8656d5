// The text of a key file, edited line by line so that comments and blank lines stay where they are:
// one base64url key a line, the first key seals, every key opens; `#` comments and blank lines skipped.
import { createKeyring, parseKey } from '@roundtrip/engine';

/** One key of a key file: its id (as in `rt1.<kid>.…`), never the key itself outside this module. */
interface KeyEntry {
  readonly kid: string;
  /** Index of its line in the file's lines. */
  readonly line: number;
  readonly key: string;
}

/** A key file's lines and the keys on them, in order (the first key seals). */
export interface KeyFileText {
  readonly lines: readonly string[];
  readonly keys: readonly KeyEntry[];
}

/** A key file's text does not hold what the command needs; the message says what and what to do. */
export class KeyFileTextError extends Error {
  override readonly name = 'KeyFileTextError';
}

const isKeyLine = (line: string) => {
  const trimmed = line.trim();
  return trimmed.length > 0 && !trimmed.startsWith('#');
};

/** The key id the engine derives from a key: the `kid` of the states it seals. */
export function keyIdOf(key: string): string {
  return createKeyring([key]).sealingKid;
}

/** Reads the keys of a key file's text; throws KeyFileTextError naming the line that holds no valid key. */
export function parseKeyFileText(text: string, file: string): KeyFileText {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const keys: KeyEntry[] = [];
  lines.forEach((line, index) => {
    if (!isKeyLine(line)) return;
    const key = line.trim();
    try {
      parseKey(key, `Line ${index + 1} of ${file}`);
    } catch (error) {
      throw new KeyFileTextError(`${(error as Error).message} Fix or remove that line (keys are base64url, one a line).`);
    }
    keys.push({ kid: keyIdOf(key), line: index, key });
  });
  return { lines, keys };
}

const textOf = (lines: readonly string[]) => `${lines.join('\n')}\n`;

function entryOf(file: KeyFileText, kid: string, path: string): KeyEntry {
  const entry = file.keys.find((k) => k.kid === kid);
  if (!entry) {
    const known = file.keys.map((k) => k.kid).join(', ');
    throw new KeyFileTextError(
      `${path} holds no key with id ${kid} (its keys: ${known}). Run \`roundtrip keys list ${path}\` to see them.`,
    );
  }
  return entry;
}

/** The text with `key` added after the last key: it opens states, the sealing key stays first. */
export function withKeyAdded(file: KeyFileText, key: string): string {
  const lines = [...file.lines];
  const after = file.keys.at(-1)?.line ?? lines.length - 1;
  lines.splice(after + 1, 0, key);
  return textOf(lines);
}

/** The text with the key `kid` moved before every other key, so it seals; undefined when it seals already. */
export function withKeyPromoted(file: KeyFileText, kid: string, path: string): string | undefined {
  const entry = entryOf(file, kid, path);
  const first = file.keys[0]!;
  if (entry.line === first.line) return undefined;
  const lines = [...file.lines];
  lines.splice(entry.line, 1);
  lines.splice(first.line, 0, entry.key);
  return textOf(lines);
}

/** The text without the key `kid`; refuses the sealing key and the last key. */
export function withKeyRetired(file: KeyFileText, kid: string, path: string): string {
  const entry = entryOf(file, kid, path);
  if (file.keys.length === 1) {
    throw new KeyFileTextError(
      `${kid} is the only key of ${path}; a server needs one. Add a new key (roundtrip keys add), promote it, then retire this one.`,
    );
  }
  if (entry.line === file.keys[0]!.line) {
    throw new KeyFileTextError(
      `${kid} is the sealing key of ${path}; promote another key first (roundtrip keys promote ${path} <kid>), restart the servers, ` +
        'wait out the state lifetime, then retire it.',
    );
  }
  // a key listed twice goes entirely
  return textOf(file.lines.filter((_, index) => !file.keys.some((k) => k.line === index && k.kid === kid)));
}
