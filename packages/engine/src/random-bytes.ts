// Random bytes from the platform's CSPRNG (Web Crypto's getRandomValues, runtime-neutral) for the small
// values every conversation draws: a state's nonce and a conversation's run id. They are taken from a block
// drawn at once: one getRandomValues call of a few microseconds per block instead of per value (Node's
// randomUUID keeps such a block too). Each byte is handed out once and wiped from the block as it goes.

/** Bytes drawn at once; a request for more than a quarter of it is drawn on its own. */
const BLOCK_BYTES = 4096;

type Csprng = { getRandomValues<T extends Uint8Array>(array: T): T };
const csprng = (globalThis as { crypto?: Csprng }).crypto;

let block: Uint8Array | undefined;
/** Where the unused bytes of `block` start. */
let next = BLOCK_BYTES;

function platform(): Csprng {
  if (!csprng)
    throw new Error('No CSPRNG: globalThis.crypto.getRandomValues is missing. Run on Node 20 or later, or a runtime with Web Crypto.');
  return csprng;
}

/**
 * Fills `target` with random bytes from the platform's CSPRNG and returns it.
 *
 * @example
 * const nonce = fillRandom(new Uint8Array(24));
 */
export function fillRandom<T extends Uint8Array>(target: T): T {
  const length = target.length;
  if (length > BLOCK_BYTES / 4) return platform().getRandomValues(target);
  if (!block || next + length > BLOCK_BYTES) {
    block ??= new Uint8Array(BLOCK_BYTES);
    platform().getRandomValues(block);
    next = 0;
  }
  const end = next + length;
  target.set(block.subarray(next, end));
  block.fill(0, next, end);
  next = end;
  return target;
}

/** `length` new random bytes. */
export const randomBytes = (length: number): Uint8Array => fillRandom(new Uint8Array(length));
