// The root entry is what a web-standard runtime loads: bundled as an edge bundler would, it reaches no
// Node built-in, no native module, no database driver and not the SDK's stdio transport. Its exports
// are the package's contract, so a new one is a decision made here too.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundlesForEdge, type EdgeBundle } from '../../engine/test/fixtures/edge-bundle.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** What only Node (or a server with a database) can load, besides the built-ins. */
const NODE_ONLY = /^(better-sqlite3|pg|@modelcontextprotocol\/server\/stdio|@roundtrip\/engine\/(sqlite|postgres))$/;

// both entries bundled in one build, by the first case that asks (each file parsed once); the exports are the
// bundler's reading of each entry: the names an import of it finds
let built: Promise<EdgeBundle[]> | undefined;
async function bundle(entry: 0 | 1): Promise<EdgeBundle> {
  if (built === undefined) built = bundlesForEdge([source('../src/index.ts'), source('../src/node/index.ts')], NODE_ONLY);
  const bundles = await built;
  return bundles[entry]!;
}

describe('the root entry, @roundtrip/mcp', () => {
  it('reaches no node: module, better-sqlite3, pg or the SDK stdio transport', async () => {
    const { inputs, refused } = await bundle(0);
    expect(refused).toEqual([]);
    expect(inputs.filter((input) => /node_modules\/(better-sqlite3|pg|pg-[a-z]+)\/|server\/dist\/stdio\.mjs$/.test(input))).toEqual([]);
    // the bundle holds the binding and the SDK's server: the check looked at the real thing
    expect(inputs.some((input) => input.endsWith('mcp/src/roundtrip-server.ts'))).toBe(true);
    expect(inputs.some((input) => input.includes('@modelcontextprotocol/server/dist/'))).toBe(true);
  });

  it('exports the server factory, the inspect reporter and the setting error, nothing else', async () => {
    expect((await bundle(0)).exports.sort()).toEqual(['RoundtripConfigError', 'createInspectReporter', 'createServerFactory']);
  });
});

describe('the Node subpath, @roundtrip/mcp/node', () => {
  it('is where the Node-only modules are: the same check finds them there', async () => {
    const { refused } = await bundle(1);
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/mcp\/src\/node\/key-file-path\.ts: node:os$/),
        expect.stringMatching(/mcp\/src\/node\/open-ledger\.ts: @roundtrip\/engine\/sqlite$/),
      ]),
    );
  });

  it('exports what every Node transport shares', async () => {
    expect((await bundle(1)).exports.sort()).toEqual([
      'RoundtripConfigError',
      'createStderrLog',
      'defaultKeyFilePath',
      'defaultLedgerPath',
      'openAnswerRelay',
      'openServedEngine',
      'readKeyFile',
      'reportStartFailure',
      'resolveServerSettings',
      'runNodeServer',
      'startupMessage',
      'tuneV8ForServing',
    ]);
  });
});
