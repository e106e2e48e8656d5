// The engine's modules import each other without a circle (type imports included): a round's types live
// in a leaf (round-types.ts) that the phases, the fallback and the engine import.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file's relative imports and re-exports (`import type` too), as absolute paths. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((m) => resolve(dirname(file), m[1]!));
      return [file, targets.filter((target) => known.has(target))];
    }),
  );
}

/** Every circle found by a depth-first walk, each as the files along it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

test('no module of the engine imports itself through others', () => {
  const graph = importGraph(sourceFiles(src));
  expect(graph.size).toBeGreaterThan(40);
  expect(circles(graph).map((circle) => circle.map((file) => relative(src, file)).join(' → '))).toEqual([]);
});

test('the round types are a leaf: they import types only, from files that do not import the round', () => {
  const text = readFileSync(join(src, 'round-types.ts'), 'utf8');
  const imports = [...text.matchAll(/^import\s.*$/gm)].map((m) => m[0]);
  expect(imports.length).toBeGreaterThan(0);
  expect(imports.every((line) => line.startsWith('import type '))).toBe(true);
});
