import nacl from 'tweetnacl';
import { decodeBase64url, encodeBase64url } from './base64url.ts';
import { type Keyring, keyFor } from './keyring.ts';

/** Format tag of sealed states: `rt1.<kid>.<base64url(nonce ‖ secretbox)>`. */
export const SEALED_STATE_PREFIX = 'rt1';

const NONCE_BYTES = nacl.secretbox.nonceLength;

/** Why a sealed state did not open. Never shown to the client; logged for the operator. */
export type OpenFailure = 'malformed' | 'unknown_key' | 'tampered' | 'header_mismatch';

export type OpenResult = { ok: true; kid: string; plaintext: Uint8Array } | { ok: false; reason: OpenFailure };

// key ids are few and fixed: decode each once
const kidBytesCache = new Map<string, Uint8Array | undefined>();
function kidBytesOf(kid: string): Uint8Array | undefined {
  if (!kidBytesCache.has(kid)) {
    if (kidBytesCache.size >= 64) kidBytesCache.clear();
    kidBytesCache.set(kid, decodeBase64url(kid));
  }
  return kidBytesCache.get(kid);
}

/**
 * Seals bytes with the keyring's first key. secretbox has no associated data, so the cleartext
 * header (the key id) is repeated at the start of the plaintext and compared when opening.
 */
export function sealState(keyring: Keyring, payload: Uint8Array): string {
  const kid = keyring.sealingKid;
  const key = keyFor(keyring, kid);
  if (!key) throw new TypeError('Not a keyring: create it with createKeyring().');
  const kidBytes = kidBytesOf(kid)!;
  const plaintext = new Uint8Array(kidBytes.length + payload.length);
  plaintext.set(kidBytes);
  plaintext.set(payload, kidBytes.length);
  // a fresh nonce from the platform's CSPRNG (crypto.getRandomValues) for every seal
  const nonce = nacl.randomBytes(NONCE_BYTES);
  const box = nacl.secretbox(plaintext, nonce, key);
  const sealed = new Uint8Array(NONCE_BYTES + box.length);
  sealed.set(nonce);
  sealed.set(box, NONCE_BYTES);
  return `${SEALED_STATE_PREFIX}.${kid}.${encodeBase64url(sealed)}`;
}

/** Opens a sealed state: the payload bytes (without the header copy), or why it did not open. */
export function openState(keyring: Keyring, token: string): OpenResult {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== SEALED_STATE_PREFIX) return { ok: false, reason: 'malformed' };
  const [, kid, body] = parts as [string, string, string];
  const key = keyFor(keyring, kid);
  if (!key) return { ok: false, reason: 'unknown_key' };
  const sealed = decodeBase64url(body);
  if (!sealed || sealed.length < NONCE_BYTES + nacl.secretbox.overheadLength) return { ok: false, reason: 'malformed' };
  const plaintext = nacl.secretbox.open(sealed.subarray(NONCE_BYTES), sealed.subarray(0, NONCE_BYTES), key);
  if (!plaintext) return { ok: false, reason: 'tampered' };
  const kidBytes = kidBytesOf(kid)!;
  if (plaintext.length < kidBytes.length || kidBytes.some((b, i) => plaintext[i] !== b)) return { ok: false, reason: 'header_mismatch' };
  return { ok: true, kid, plaintext: plaintext.subarray(kidBytes.length) };
}
