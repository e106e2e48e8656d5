// Digests the engine makes again and again from the same few texts (the principal, the target, the
// arguments of a conversation), kept by the text they are made from.
import { digestBytes } from './digest.ts';

/**
 * A digest function that keeps its results: at most `limit` texts (all are dropped when it is full), and
 * none longer than `maxText` characters (digested each time), so what it holds stays small. The digest is
 * of `prefix` + the text, kept by the text alone, so a text seen before is not joined to its prefix again.
 */
export function tagCache(bytes: number, limit = 256, maxText = 1024, prefix = ''): (text: string) => Uint8Array {
  const kept = new Map<string, Uint8Array>();
  return (text) => {
    let tag = kept.get(text);
    if (tag) return tag;
    tag = digestBytes(prefix + text, bytes);
    if (text.length > maxText) return tag;
    if (kept.size >= limit) kept.clear();
    kept.set(text, tag);
    return tag;
  };
}
