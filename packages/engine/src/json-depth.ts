// How deeply an answer is nested, found without recursion: an answer nested some thousands of levels deep
// is refused at a fixed depth, not wherever the thread's stack happens to run out.

/**
 * Whether `value` has objects or arrays nested more than `limit` levels deep (the value itself is level 1).
 * Walks depth first with a stack of its own and stops at the first path past `limit`; each object is
 * entered once, so shared or cyclic references cannot make it walk long. A getter that throws makes it
 * false: the caller's JSON measure reports that value.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  const entered = new Set<object>();
  try {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [item, depth] = next;
      if (typeof item !== 'object' || item === null || entered.has(item)) continue;
      if (depth > limit) return true;
      entered.add(item);
      for (const member of Array.isArray(item) ? item : Object.values(item)) pending.push([member, depth + 1]);
    }
  } catch {
    return false;
  }
  return false;
}
