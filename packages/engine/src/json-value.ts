// Is a value plain JSON (what a sealed snapshot can hold)? If not, where and what to do instead.

/** The first place in a value that is not plain JSON: the path, what is there, and the fix. */
export interface NonJson {
  /** `context.when`, `context.items[2]` */
  readonly path: string;
  /** `a Date`, `undefined`, `an instance of Money` */
  readonly what: string;
  readonly fix: string;
}

function describe(value: unknown): { what: string; fix: string } | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { what: String(value), fix: 'store a finite number, or null' };
    case 'undefined':
      return { what: 'undefined', fix: 'store null instead, or leave the key out' };
    case 'bigint':
      return { what: 'a BigInt', fix: 'store a number or a decimal string' };
    case 'function':
      return { what: 'a function', fix: 'keep functions out of context: name them as actions, guards or actors in setup()' };
    case 'symbol':
      return { what: 'a symbol', fix: 'store a string' };
    default:
      break;
  }
  if (value === null || Array.isArray(value)) return undefined;
  if (value instanceof Date) return { what: 'a Date', fix: 'store an ISO string (date.toISOString())' };
  if (value instanceof Map) return { what: 'a Map', fix: 'store a plain object, or an array of [key, value] pairs' };
  if (value instanceof Set) return { what: 'a Set', fix: 'store an array' };
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null) {
    const name = (proto.constructor as { name?: string } | undefined)?.name || 'a class';
    return { what: `an instance of ${name}`, fix: 'store its plain fields in an object' };
  }
  return undefined;
}

const keyPath = (path: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

// Plain JSON, checked without building paths; false also for anything deeper than the walk goes (a cycle
// included), which the path-building walk below then explains. Most values pass here, in well under a µs.
function isPlainJson(value: unknown, skipUndefined: boolean, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth > 64) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], skipUndefined, depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined && skipUndefined) continue;
    if (!isPlainJson(item, skipUndefined, depth + 1)) return false;
  }
  return true;
}

/**
 * The first non-JSON part of `value` (depth first), or undefined when it is all plain JSON.
 * `undefinedMembers: 'absent'` treats an object member that is undefined as missing, as
 * JSON.stringify does (for records XState writes itself, such as `error: undefined`).
 */
export function firstNonJson(value: unknown, path: string, options: { undefinedMembers?: 'refuse' | 'absent' } = {}): NonJson | undefined {
  const skipUndefined = options.undefinedMembers === 'absent';
  if (isPlainJson(value, skipUndefined, 0)) return undefined;
  const seen = new Set<object>();
  const visit = (v: unknown, at: string): NonJson | undefined => {
    const problem = describe(v);
    if (problem) return { path: at, ...problem };
    if (v === null || typeof v !== 'object') return undefined;
    if (seen.has(v))
      return { path: at, what: 'a reference back to one of its own parents (a cycle)', fix: 'store the data as a tree, linking by id' };
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = visit(v[i], `${at}[${i}]`);
        if (found) return found;
      }
    } else {
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined && skipUndefined) continue;
        const found = visit(item, keyPath(at, key));
        if (found) return found;
      }
    }
    seen.delete(v);
    return undefined;
  };
  return visit(value, path);
}
