// The Node-only modules a compiled entry loads: follows its relative imports through the package's own
// files and lists every `node:` built-in, native package, database driver and the SDK's stdio transport it
// reaches (the engine's and @roundtrip/mcp's root entries must reach none, so an edge runtime can load them).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const NODE_ONLY = /^(node:|better-sqlite3$|pg$|@modelcontextprotocol\/server\/stdio$)/;
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm;

/** Lines of comment (a JSDoc `@example` may show an import): no import statement starts with `*` or `//`. */
const COMMENT_LINE = /^\s*(\*|\/\*|\/\/).*$/gm;

/** `<file>: <specifier>` for every Node-only import reachable from `entry` (a .js file). */
export function nodeOnlyImports(entry) {
  const seen = new Set();
  const found = [];
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').replace(COMMENT_LINE, '').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else if (NODE_ONLY.test(specifier)) found.push(`${relative(dirname(entry), file)}: ${specifier}`);
    }
  };
  visit(entry);
  return found;
}
