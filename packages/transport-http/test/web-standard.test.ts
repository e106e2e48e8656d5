// The root entry is web-standard: from src/index.ts no relative import reaches a `node:` module, so
// Workers, Deno and Bun can load it; reading settings and files stays behind the ./node subpath.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:import|export)\s[^'"]*?from\s*'([^']+)'|import\s*\(\s*'([^']+)'\s*\)/g;

/** Every bare (non-relative) module reachable from `entry` through relative imports. */
function bareImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else found.add(specifier);
    }
  };
  visit(entry);
  return found;
}

describe('@roundtrip/transport-http is web-standard at its root', () => {
  it('imports jose, the SDK, the engine and the binding (their Node-free roots) only, nothing from node:', () => {
    expect([...bareImports(join(src, 'index.ts'))].sort()).toEqual([
      '@modelcontextprotocol/server',
      '@roundtrip/engine',
      '@roundtrip/mcp',
      'jose',
    ]);
  });

  it('the ./node subpath is where node: modules are', () => {
    expect([...bareImports(join(src, 'node', 'index.ts'))].filter((name) => name.startsWith('node:')).sort()).toEqual([
      'node:fs',
      'node:http',
      'node:net',
      'node:os',
      'node:path',
      'node:url',
    ]);
  });
});
