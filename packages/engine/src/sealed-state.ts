import nacl from 'tweetnacl';
import { decodeBase64url, encodeBase64url } from './base64url.ts';
import { type Keyring, keyFor } from './keyring.ts';
import { fillRandom } from './random-bytes.ts';

/** Format tag of sealed states: `rt1.<kid>.<base64url(nonce ‖ secretbox)>`. */
export const SEALED_STATE_PREFIX = 'rt1';

const NONCE_BYTES = nacl.secretbox.nonceLength;
// NaCl's own layout: the message starts with 32 zero bytes, the output box with 16 zero bytes not sent
const ZERO_BYTES = 32;
const BOX_ZERO_BYTES = 16;

// tweetnacl's documented low-level functions (untyped in its .d.ts). Called directly so a seal allocates
// two buffers instead of five and an open one instead of two; on this VM each off-heap buffer of a few
// hundred bytes costs about 2.5 µs to allocate and collect (BENCHMARKS.md).
interface SecretboxLowLevel {
  crypto_secretbox(c: Uint8Array, m: Uint8Array, d: number, n: Uint8Array, k: Uint8Array): number;
  crypto_secretbox_open(m: Uint8Array, c: Uint8Array, d: number, n: Uint8Array, k: Uint8Array): number;
}
const lowLevel = (nacl as unknown as { lowlevel: SecretboxLowLevel }).lowlevel;

/** Why a sealed state did not open. Never shown to the client; logged for the operator. */
type OpenFailure = 'malformed' | 'unknown_key' | 'tampered' | 'header_mismatch';

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
  const length = ZERO_BYTES + kidBytes.length + payload.length;
  const message = new Uint8Array(length);
  message.set(kidBytes, ZERO_BYTES);
  message.set(payload, ZERO_BYTES + kidBytes.length);
  // out: the nonce, then the box with its 16 leading zero bytes. A fresh nonce from the platform's CSPRNG
  // for every seal (random-bytes.ts), written straight into place; once sealed, it moves up over those zeros.
  const out = new Uint8Array(NONCE_BYTES + length);
  const nonce = fillRandom(out.subarray(0, NONCE_BYTES));
  lowLevel.crypto_secretbox(out.subarray(NONCE_BYTES), message, length, nonce, key);
  message.fill(0);
  out.copyWithin(BOX_ZERO_BYTES, 0, NONCE_BYTES);
  return `${SEALED_STATE_PREFIX}.${kid}.${encodeBase64url(out.subarray(BOX_ZERO_BYTES))}`;
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
  // the box with the 16 bytes before it (the nonce's last ones), which the cipher reads as its ignored zeros
  const box = sealed.subarray(NONCE_BYTES - BOX_ZERO_BYTES);
  const opened = new Uint8Array(box.length);
  if (lowLevel.crypto_secretbox_open(opened, box, box.length, sealed.subarray(0, NONCE_BYTES), key) !== 0)
    return { ok: false, reason: 'tampered' };
  const plaintext = opened.subarray(ZERO_BYTES);
  const kidBytes = kidBytesOf(kid)!;
  if (plaintext.length < kidBytes.length || kidBytes.some((b, i) => plaintext[i] !== b)) return { ok: false, reason: 'header_mismatch' };
  return { ok: true, kid, plaintext: plaintext.subarray(kidBytes.length) };
}
