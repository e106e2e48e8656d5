import nacl from 'tweetnacl';
import { decodeBase64url, encodeBase64url } from './base64url.ts';
import { definitionError } from './definition-error.ts';

/** Length in bytes of a state-sealing key (XSalsa20-Poly1305). */
export const KEY_BYTES = nacl.secretbox.keyLength;

/**
 * The keys that seal and open request states. The first key seals; every key opens, so a new key
 * can be put first while states sealed with the old one are still in flight.
 */
export interface Keyring {
  /** Key id of the sealing key, as it appears in `rt1.<kid>.…`. */
  readonly sealingKid: string;
  readonly kids: readonly string[];
}

// the key bytes live here, never on the keyring object: nothing public reaches them
const keyBytes = new WeakMap<Keyring, ReadonlyMap<string, Uint8Array>>();

/** @internal The key with this id, for sealing and opening; undefined when the keyring holds none. */
export function keyFor(keyring: Keyring, kid: string): Uint8Array | undefined {
  return keyBytes.get(keyring)?.get(kid);
}

/** A fresh random key as base64url text (43 characters), for `ROUNDTRIP_KEY` or a key file. */
export function generateKey(): string {
  return encodeBase64url(nacl.randomBytes(KEY_BYTES));
}

/** Parses one base64url key. Throws a RoundtripDefinitionError that says what is wrong with it. */
export function parseKey(text: string, source = 'The key'): Uint8Array {
  const trimmed = text.trim();
  const bytes = decodeBase64url(trimmed);
  if (!bytes) {
    throw definitionError(
      [source],
      'invalid_key',
      'it is not base64url text.',
      `Generate a key with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"\`.`,
    );
  }
  if (bytes.length !== KEY_BYTES) {
    throw definitionError(
      [source],
      'invalid_key',
      `it decodes to ${bytes.length} bytes; a state key is exactly ${KEY_BYTES} bytes.`,
      'Give 43 base64url characters (32 random bytes).',
    );
  }
  return bytes;
}

/** The key id: a short digest of the key, so ids never have to be configured and never collide by accident. */
function keyId(key: Uint8Array): string {
  const tagged = new Uint8Array(key.length + 4);
  tagged.set([0x72, 0x74, 0x6b, 0x00]); // "rtk\0": domain separation from any other use of the key
  tagged.set(key, 4);
  return encodeBase64url(nacl.hash(tagged).subarray(0, 6));
}

/**
 * Creates a keyring from one or more keys (raw bytes or base64url text). The first key seals.
 *
 * @example
 * const keyring = createKeyring([process.env.ROUNDTRIP_KEY!]);
 */
export function createKeyring(keys: ReadonlyArray<Uint8Array | string>): Keyring {
  if (keys.length === 0) {
    throw definitionError(['createKeyring'], 'invalid_key', 'no key was given.', 'Pass at least one key; generate one with generateKey().');
  }
  const map = new Map<string, Uint8Array>();
  keys.forEach((key, index) => {
    const bytes = typeof key === 'string' ? parseKey(key, `Key #${index + 1}`) : Uint8Array.from(key);
    if (bytes.length !== KEY_BYTES) {
      throw definitionError(
        [`Key #${index + 1}`],
        'invalid_key',
        `it has ${bytes.length} bytes; a state key is exactly ${KEY_BYTES} bytes.`,
        'Give 32 random bytes.',
      );
    }
    map.set(keyId(bytes), bytes);
  });
  const kids = Object.freeze([...map.keys()]);
  const keyring: Keyring = Object.freeze({ sealingKid: kids[0]!, kids });
  keyBytes.set(keyring, map);
  return keyring;
}
