// `roundtrip serve --ledger postgres://…`: the flag passes a PostgreSQL URL to the server as it is (a
// file path would be made absolute), so the effect ledger is kept in that database; the server names
// it without its password. A loopback port where nothing listens shows it without a PostgreSQL server.
// The command runs in this process: the ledger is opened before anything is served on stdin and stdout,
// so the refusal comes back as the exit code and the message, as from a process of its own.
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterEach, expect, it, vi } from 'vitest';
import { refusedPort } from '../../engine/test/refused-port.ts';
import { runCommand } from './fixtures/run-command.ts';
import { FIXTURES } from './fixtures/spawn-cli.ts';

afterEach(() => void vi.unstubAllEnvs());

it('serve --ledger postgres://… opens the ledger in that database, and says so without the password when it cannot', async () => {
  const port = await refusedPort();
  vi.stubEnv('ROUNDTRIP_KEY', generateKey());
  vi.stubEnv('ROUNDTRIP_PRINCIPAL', 'ada');
  const { code, out, err } = await runCommand(
    ['serve', join(FIXTURES, 'serve-definitions.ts'), '--ledger', `postgres://roundtrip:s3cret@127.0.0.1:${port}/orders`],
    { cwd: FIXTURES },
  );
  expect(code).toBe(1);
  expect(err).toContain(
    `roundtrip serve: cannot start serve-fixture: Cannot open the effect ledger at postgres://roundtrip@127.0.0.1:${port}/orders (ECONNREFUSED`,
  );
  expect(err).toContain(
    "start PostgreSQL (e.g. `pg_ctlcluster 15 main start` on Debian, `brew services start postgresql` on macOS), or correct the host and port in the URL. --ledger sets the ledger's URL.",
  );
  expect(err).not.toContain('s3cret');
  expect(out).toBe('');
});
