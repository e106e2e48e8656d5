// The root entry is what Workers, Deno, Bun and Hono load: bundled as an edge bundler would, it reaches
// no Node built-in, no native module, no database driver, not the SDK's stdio transport nor its Node
// adapter. Its exports, and those of the Node subpath, are the package's contract.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleForEdge } from '../../engine/test/fixtures/edge-bundle.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const NODE_ONLY =
  /^(better-sqlite3|pg|@modelcontextprotocol\/server\/stdio|@modelcontextprotocol\/node|@roundtrip\/engine\/(sqlite|postgres)|@roundtrip\/mcp\/node)$/;

describe('the root entry, @roundtrip/transport-http', () => {
  it('reaches no node: module, native module, database driver or Node adapter', async () => {
    const { inputs, refused } = await bundleForEdge(source('../src/index.ts'), NODE_ONLY);
    expect(refused).toEqual([]);
    // the bundle holds the handler, the binding and the SDK's server: the check looked at the real thing
    expect(inputs.some((input) => input.endsWith('transport-http/src/http-pipeline.ts'))).toBe(true);
    expect(inputs.some((input) => input.endsWith('mcp/src/roundtrip-server.ts'))).toBe(true);
    expect(inputs.some((input) => input.includes('@modelcontextprotocol/server/dist/'))).toBe(true);
  });

  it('exports the handler and its safe-by-default pieces', async () => {
    expect(Object.keys(await import('../src/index.ts')).sort()).toEqual([
      'ASYMMETRIC_ALGORITHMS',
      'DEFAULT_BIND_HOST',
      'HttpConfigError',
      'INSTANCE_HEADER',
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
    const { refused } = await bundleForEdge(source('../src/node/index.ts'), NODE_ONLY);
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/transport-http\/src\/node\/node-http-listener\.ts: node:http$/),
        expect.stringMatching(/transport-http\/src\/node\/node-http-listener\.ts: @modelcontextprotocol\/node$/),
        expect.stringMatching(/transport-http\/src\/node\/run-http-server\.ts: @roundtrip\/mcp\/node$/),
      ]),
    );
  });

  it('exports the Node server and the settings it reads', async () => {
    expect(Object.keys(await import('../src/node/index.ts')).sort()).toEqual([
      'DEFAULT_PORT',
      'mainHttpServer',
      'parseListenAddress',
      'resolveJwtSettings',
      'runHttpServer',
    ]);
  });
});
