// "Did you mean …?" for a word typed wrong (a command, an option, an argument's name, an environment
// variable): the closest of the words expected, when it is close enough to be the one meant. Shared by the
// CLI's messages and the settings check of every Node server (through @roundtrip/mcp/internal, which
// loads nothing else).

/** Edit distance, a swap of two neighbours counting as one edit (`orgainser` → `organiser`). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  return rows[a.length]![b.length]!;
}

/**
 * The choice `written` most likely meant: the nearest (ignoring case and leading dashes), within one
 * edit in three characters; undefined when none is that close.
 */
export function closestChoice(written: string, choices: readonly string[]): string | undefined {
  const bare = (word: string) => word.replace(/^-+/, '').toLowerCase();
  const typed = bare(written);
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const choice of choices) {
    const d = distance(typed, bare(choice));
    if (d < bestDistance) [best, bestDistance] = [choice, d];
  }
  return best;
}

/** ` Did you mean 'x'?` when a choice is close to what was written, else nothing. */
export function didYouMean(written: string, choices: readonly string[]): string {
  const best = closestChoice(written, choices);
  return best === undefined ? '' : ` Did you mean '${best}'?`;
}
