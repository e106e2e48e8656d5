// The root entry is what Workers, Deno, Bun and Hono load: bundled as an edge bundler would, it reaches
// no Node built-in, no native module, no database driver, not the SDK's stdio transport nor its Node
// adapter. Its exports, and those of the Node subpath, are the package's contract.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundlesForEdge, type EdgeBundle } from '../../engine/test/fixtures/edge-bundle.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const NODE_ONLY =
  /^(better-sqlite3|pg|@modelcontextprotocol\/server\/stdio|@modelcontextprotocol\/node|@roundtrip\/engine\/(sqlite|postgres)|@roundtrip\/mcp\/node)$/;

// both entries bundled in one build, by the first case that asks (each file parsed once); the exports are the
// bundler's reading of each entry: the names an import of it finds
let built: Promise<EdgeBundle[]> | undefined;
async function bundle(entry: 0 | 1): Promise<EdgeBundle> {
  if (built === undefined) built = bundlesForEdge([source('../src/index.ts'), source('../src/node/index.ts')], NODE_ONLY);
  const bundles = await built;
  return bundles[entry]!;
}

describe('the root entry, @roundtrip/transport-http', () => {
  it('reaches no node: module, native module, database driver or Node adapter', async () => {
    const { inputs, refused } = await bundle(0);
    expect(refused).toEqual([]);
    // the bundle holds the handler, the binding and the SDK's server: the check looked at the real thing
    expect(inputs.some((input) => input.endsWith('transport-http/src/http-pipeline.ts'))).toBe(true);
    expect(inputs.some((input) => input.endsWith('mcp/src/roundtrip-server.ts'))).toBe(true);
    expect(inputs.some((input) => input.includes('@modelcontextprotocol/server/dist/'))).toBe(true);
  });

  it('exports the handler and its safe-by-default pieces', async () => {
    expect((await bundle(0)).exports.sort()).toEqual([
      'ASYMMETRIC_ALGORITHMS',
      'DEFAULT_BIND_HOST',
      'HttpConfigError',
      'INSTANCE_HEADER',
      'RoundtripConfigError',
      'bearerChallengeResponse',
      'createHostOriginCheck',
      'createHttpHandler',
      'createJwtAuthenticator',
      'decideBind',
      'isLoopbackHost',
      'protectedResourceMetadata',
      'protectedResourceMetadataResponse',
      'protectedResourceMetadataUrl',
    ]);
  });
});

describe('the Node subpath, @roundtrip/transport-http/node', () => {
  it('is where the Node-only modules are: the same check finds them there', async () => {
    const { refused } = await bundle(1);
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/transport-http\/src\/node\/node-http-listener\.ts: node:http$/),
        expect.stringMatching(/transport-http\/src\/node\/resolve-jwt-settings\.ts: node:fs$/),
        expect.stringMatching(/transport-http\/src\/node\/run-http-server\.ts: @roundtrip\/mcp\/node$/),
      ]),
    );
  });

  it('exports the Node server and the settings it reads', async () => {
    expect((await bundle(1)).exports.sort()).toEqual([
      'DEFAULT_PORT',
      'mainHttpServer',
      'parseListenAddress',
      'resolveJwtSettings',
      'runHttpServer',
    ]);
  });
});
