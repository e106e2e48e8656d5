import nacl from 'tweetnacl';

const encoder = new TextEncoder();

type NativeHash = { hash(algorithm: 'sha512', text: string, encoding: 'buffer'): Uint8Array };

// Node's native one-shot SHA-512 when the runtime has one (faster than tweetnacl's JavaScript on
// short texts); the same bytes either way, so a digest does not depend on which one made it
const nativeCrypto = (() => {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const crypto = runtime?.getBuiltinModule?.('node:crypto') as Partial<NativeHash> | undefined;
    return typeof crypto?.hash === 'function' ? (crypto as NativeHash) : undefined;
  } catch {
    return undefined;
  }
})();

/** A short, stable digest (SHA-512 truncated) of a text. */
export function digestBytes(text: string, bytes: number): Uint8Array {
  if (nativeCrypto) return nativeCrypto.hash('sha512', text, 'buffer').subarray(0, bytes);
  return nacl.hash(encoder.encode(text)).slice(0, bytes);
}

/**
 * JSON with object keys sorted at every depth, so equal values give equal text whatever order
 * their keys were written in. `undefined` members are dropped, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  // loops rather than map and join: a round digests objects of many shapes, empty ones among them, and an
  // empty mapped array has another map than a full one, which made V8 throw away this function's
  // optimized code and compile it again (measured with --trace-deopt; bench/warm-up.bench.ts)
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      // a hole stands empty, as join writes it
      if (i in value) text += canonicalJson(value[i]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let text = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${text}}`;
}
