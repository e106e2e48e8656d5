// The root entry is what a web-standard runtime loads: bundled as an edge bundler would, it reaches no
// Node built-in, no native module, no database driver and not the SDK's stdio transport. Its exports
// are the package's contract, so a new one is a decision made here too.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleForEdge } from '../../engine/test/fixtures/edge-bundle.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** What only Node (or a server with a database) can load, besides the built-ins. */
const NODE_ONLY = /^(better-sqlite3|pg|@modelcontextprotocol\/server\/stdio|@roundtrip\/engine\/(sqlite|postgres))$/;

describe('the root entry, @roundtrip/mcp', () => {
  it('reaches no node: module, better-sqlite3, pg or the SDK stdio transport', async () => {
    const { inputs, refused } = await bundleForEdge(source('../src/index.ts'), NODE_ONLY);
    expect(refused).toEqual([]);
    expect(inputs.filter((input) => /node_modules\/(better-sqlite3|pg|pg-[a-z]+)\/|server\/dist\/stdio\.mjs$/.test(input))).toEqual([]);
    // the bundle holds the binding and the SDK's server: the check looked at the real thing
    expect(inputs.some((input) => input.endsWith('mcp/src/roundtrip-server.ts'))).toBe(true);
    expect(inputs.some((input) => input.includes('@modelcontextprotocol/server/dist/'))).toBe(true);
  });

  it('exports the server factory and the inspect reporter, nothing else', async () => {
    expect(Object.keys(await import('../src/index.ts')).sort()).toEqual(['createInspectReporter', 'createServerFactory']);
  });
});

describe('the Node subpath, @roundtrip/mcp/node', () => {
  it('is where the Node-only modules are: the same check finds them there', async () => {
    const { refused } = await bundleForEdge(source('../src/node/index.ts'), NODE_ONLY);
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/mcp\/src\/node\/key-file-path\.ts: node:os$/),
        expect.stringMatching(/mcp\/src\/node\/open-ledger\.ts: @roundtrip\/engine\/sqlite$/),
      ]),
    );
  });

  it('exports what every Node transport shares', async () => {
    expect(Object.keys(await import('../src/node/index.ts')).sort()).toEqual([
      'RoundtripConfigError',
      'createStderrLog',
      'defaultKeyFilePath',
      'defaultLedgerPath',
      'openServedEngine',
      'readKeyFile',
      'resolveServerSettings',
      'startupMessage',
    ]);
  });
});
