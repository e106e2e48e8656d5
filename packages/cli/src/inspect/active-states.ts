// A state value as XState reports it, read as the full ids of its active leaf states, as the SVG names
// them (`data-state`): `'when'` in book_meeting is `book_meeting.when`; `{ report: { details: 'asking',
// oncall: 'asking' } }` is `…report.details.asking` and `…report.oncall.asking`.

/** The ids of the active leaf states of `value` in machine `machine` (none for a value that is no state value). */
export function activeStateIds(machine: string, value: unknown): string[] {
  const ids: string[] = [];
  const walk = (prefix: string, node: unknown) => {
    if (typeof node === 'string') ids.push(`${prefix}.${node}`);
    else if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
      const entries = Object.entries(node);
      // a compound state entered but with no active child reported: the state itself is the leaf
      if (entries.length === 0 && prefix !== machine) ids.push(prefix);
      for (const [key, child] of entries) walk(`${prefix}.${key}`, child);
    }
  };
  walk(machine, value);
  return ids;
}
