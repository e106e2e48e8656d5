// No module of the repository imports itself through others, type imports included: every file the typecheck
// sees (`tsconfig.json`: each package's and app's src and tests, the examples, the benches), with its relative
// imports and its imports of a workspace package (`@roundtrip/engine/sqlite`: the file that package's `exports`
// names), `import type`, `export … from` and `import()` alike. A circle of types is still a circle: the files on
// it can only be read, moved and split together. Types two modules share live in a leaf both import.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

/** Every file `tsc -p tsconfig.json` checks. */
function checkedFiles(): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).fileNames.map((file) => resolve(file));
}

/** Each workspace package's name and the files its `exports` map to (`@roundtrip/mcp/node` → …/src/node/index.ts). */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ['packages', 'apps']) {
    for (const folder of readdirSync(join(root, group))) {
      const manifestPath = join(root, group, folder, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; exports?: Record<string, unknown> };
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        if (typeof target === 'string' && target.endsWith('.ts')) {
          entries.set(manifest.name + subpath.slice(1), resolve(root, group, folder, target));
        }
      }
    }
  }
  return entries;
}

interface ImportGraph {
  /** Each file's imports within the repository, as absolute paths. */
  readonly edges: Map<string, string[]>;
  /** Imports that look like the repository's own but lead to no checked file: the walk would miss their edges. */
  readonly unresolved: string[];
}

/** Every import, re-export and `import()` of each file (type-only ones too), resolved within the repository. */
function importGraph(files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const entries = workspaceEntries();
  const unresolved: string[] = [];
  const edges = new Map(
    files.map((file) => {
      const specifiers = ts.preProcessFile(readFileSync(file, 'utf8'), true, false).importedFiles.map((imported) => imported.fileName);
      const targets = specifiers.flatMap((specifier) => {
        const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : entries.get(specifier);
        const ours = specifier.startsWith('.') ? specifier.endsWith('.ts') : specifier.startsWith('@roundtrip/');
        if (target !== undefined && known.has(target)) return [target];
        if (ours) unresolved.push(`${relative(root, file)} imports ${specifier}`);
        return [];
      });
      return [file, [...new Set(targets)]];
    }),
  );
  return { edges, unresolved };
}

/** Every circle a depth-first walk closes (one per edge back to a file still open), each as the files along it. */
function circles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

const files = checkedFiles();
const graph = importGraph(files);
const named = (file: string) => relative(root, file);

describe('the import graph of every package and app', () => {
  it('covers every source file of every package and app, tests included, and resolves every import of our own', () => {
    for (const group of ['packages', 'apps']) {
      for (const folder of readdirSync(join(root, group))) {
        if (!existsSync(join(root, group, folder, 'src'))) continue;
        expect(files.some((file) => file.startsWith(join(root, group, folder, 'src/')))).toBe(true);
        if (existsSync(join(root, group, folder, 'test'))) {
          expect(files.some((file) => file.startsWith(join(root, group, folder, 'test/')))).toBe(true);
        }
      }
    }
    expect(files.length).toBeGreaterThan(500);
    expect(graph.unresolved).toEqual([]);
    // workspace imports are followed to the file the package's `exports` names
    const edgesOf = (file: string) => (graph.edges.get(join(root, file)) ?? []).map(named);
    expect(edgesOf('packages/mcp/src/node/open-ledger.ts')).toContain('packages/engine/src/postgres/index.ts');
    expect(edgesOf('packages/tools/src/flow-spec.ts')).toContain('packages/engine/src/index.ts');
  });

  it('has no circle: no module imports itself through others, not even for a type', () => {
    expect(circles(graph.edges).map((circle) => circle.map(named).join(' → '))).toEqual([]);
  });
});

/** The modules a file imports and the ones it imports for more than types (not in `import type` / `export type … from`). */
function importsOf(file: string): { all: string[]; forValues: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const all = ts.preProcessFile(source.text, true, false).importedFiles.map((imported) => imported.fileName);
  const typeOnly = source.statements.flatMap((statement) => {
    const typeOnlyImport = ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly === true;
    const typeOnlyExport = ts.isExportDeclaration(statement) && statement.isTypeOnly;
    const from = typeOnlyImport || typeOnlyExport ? statement.moduleSpecifier : undefined;
    return from !== undefined && ts.isStringLiteral(from) ? [from.text] : [];
  });
  // an `import()` or a plain import of the same module still counts
  const forValues = [...all];
  for (const specifier of typeOnly) {
    const at = forValues.indexOf(specifier);
    if (at >= 0) forValues.splice(at, 1);
  }
  return { all, forValues };
}

/** Besides leaves like it, what the author-facing flow spec may import types from: zod, XState, the engine's public entry. */
const SPEC_MAY_IMPORT = new Set(['zod', 'xstate', '@roundtrip/engine']);

describe('type leaves', () => {
  it("the engine's round types import types only", () => {
    expect(importsOf(join(root, 'packages/engine/src/round-types.ts')).forValues).toEqual([]);
  });

  it("the author-facing flow spec is a leaf: types only, from leaves like it, zod, XState and the engine's public entry", () => {
    // it and every file it reaches by relative imports; the walk stops at a file that imports more than types
    const seen = new Set<string>();
    const problems: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const { all, forValues } = importsOf(file);
      for (const specifier of forValues) problems.push(`${named(file)} imports ${specifier} for more than its types`);
      if (forValues.length > 0) return;
      for (const specifier of all) {
        if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
        else if (!SPEC_MAY_IMPORT.has(specifier))
          problems.push(`${named(file)} imports ${specifier}: not a leaf, zod, XState or the engine`);
      }
    };
    visit(join(root, 'packages/tools/src/flow-spec.ts'));
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(1);
  });
});
