// `roundtrip serve --ledger postgres://…`: the flag passes a PostgreSQL URL to the server as it is (a
// file path would be made absolute), so the effect ledger is kept in that database; the server names
// it without its password. A loopback port where nothing listens shows it without a PostgreSQL server.
import { generateKey } from '@roundtrip/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { refusedPort } from '../../engine/test/refused-port.ts';
import { spawnRawServer } from '../../transport-stdio/test/fixtures/spawn-raw-server.ts';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';

let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli();
});
afterAll(() => bundled.remove());

it('serve --ledger postgres://… opens the ledger in that database, and says so without the password when it cannot', async () => {
  const port = await refusedPort();
  const [, bundledCli] = bundled.launcher as [string, string];
  const server = spawnRawServer(bundledCli, { ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada' }, [
    'serve',
    bundled.module('serve-definitions'),
    '--ledger',
    `postgres://roundtrip:s3cret@127.0.0.1:${port}/orders`,
  ]);
  expect(await server.exited).toEqual({ code: 1, signal: null });
  expect(server.stderr()).toContain(
    `roundtrip serve: cannot start serve-fixture: Cannot open the effect ledger at postgres://roundtrip@127.0.0.1:${port}/orders (ECONNREFUSED`,
  );
  expect(server.stderr()).toContain(
    "start PostgreSQL (e.g. `pg_ctlcluster 15 main start` on Debian, `brew services start postgresql` on macOS), or correct the host and port in the URL. --ledger sets the ledger's URL.",
  );
  expect(server.stderr()).not.toContain('s3cret');
  expect(server.stdoutLines).toEqual([]);
});
