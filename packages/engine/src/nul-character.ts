// NUL (U+0000) in what a client sends: refused before any definition, effect or store sees it. PostgreSQL
// cannot keep it in text or jsonb (22021), SQLite and C libraries cut strings at it, and no person types
// it: a store would fail on it after the user answered everything, and the failure would be recorded.

/** Why a value with a NUL character is refused, as the field's problem. */
const NUL_REFUSED = 'NUL characters (U+0000) are not accepted; remove them';

/** Where a NUL character is in a value, as a validation issue: the path of the field, and NUL_REFUSED. */
export interface NulIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The first string (or object key) in `value` that holds a NUL character, as an issue naming its field;
 * undefined when none does. Walks with a stack of its own (no recursion) and enters each object once, so
 * deep, shared or cyclic values cannot make it run long or out of stack. A getter that throws ends the
 * walk with no issue: the definition's own schema reports that value.
 */
export function nulIssue(value: unknown): NulIssue | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? { path: [], message: NUL_REFUSED } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  // the usual arguments and answers: one object of plain values, read once without the walk's bookkeeping
  return Array.isArray(value) || !flatAndClean(value) ? walk(value) : undefined;
}

/**
 * True when no value of `value` is an object and no key or string holds a NUL; false otherwise (the walk then
 * finds where), and when reading it throws (the walk ends that with no issue).
 */
function flatAndClean(value: object): boolean {
  try {
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (key.includes('\u0000') || (typeof item === 'object' && item !== null)) return false;
      if (typeof item === 'string' && item.includes('\u0000')) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** The path of the entry at `index` (its parents' keys, from the top), and `last` after them. */
function pathTo(parents: readonly number[], keys: readonly PropertyKey[], index: number, last?: PropertyKey): PropertyKey[] {
  const path: PropertyKey[] = last === undefined ? [] : [last];
  for (let at = index; at > 0; at = parents[at]!) path.unshift(keys[at]!);
  return path;
}

function walk(value: object): NulIssue | undefined {
  // each pending value with the index of its parent's entry and its key there, so a path is built only when found
  const values: unknown[] = [value];
  const parents: number[] = [-1];
  const keys: PropertyKey[] = [''];
  const entered = new Set<object>();
  try {
    for (let index = 0; index < values.length; index++) {
      const item = values[index];
      if (typeof item === 'string') {
        if (item.includes('\u0000')) return { path: pathTo(parents, keys, index), message: NUL_REFUSED };
        continue;
      }
      if (typeof item !== 'object' || item === null || entered.has(item)) continue;
      entered.add(item);
      if (Array.isArray(item)) {
        for (let i = 0; i < item.length; i++) {
          values.push(item[i]);
          parents.push(index);
          keys.push(i);
        }
        continue;
      }
      for (const key of Object.keys(item)) {
        if (key.includes('\u0000')) return { path: pathTo(parents, keys, index, key), message: NUL_REFUSED };
        values.push((item as Record<string, unknown>)[key]);
        parents.push(index);
        keys.push(key);
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}
