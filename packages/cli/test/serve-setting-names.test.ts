// `roundtrip serve`, over stdio and over HTTP, checks the names of the ROUNDTRIP_* variables it starts with:
// an unknown one is named on stderr with the setting it was probably meant for (the command's own
// ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS is not unknown), and one meant for the key, while no key is given, stops
// the start (exit 1) before a key file is generated. The bundled command in real child processes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawServer, spawnRawServer } from '../../transport-stdio/test/fixtures/spawn-raw-server.ts';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';

let bundled: BundledCli;
beforeAll(async () => {
  bundled = await bundleCli();
});
const running: RawServer[] = [];
afterAll(() => {
  for (const { child } of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  bundled.remove();
});

/** `roundtrip serve <the bundled serve-definitions> …args` with only PATH, a fresh HOME and `env`. */
function serve(args: readonly string[], env: Record<string, string>): RawServer {
  const server = spawnRawServer(bundled.script, env, ['serve', bundled.module('serve-definitions'), '--ledger', ':memory:', ...args]);
  running.push(server);
  return server;
}

/** How the start ended: the exit code, or 'started' when the server served instead (a refusal is expected before it). */
function outcomeOf(server: RawServer): Promise<number | null | 'started'> {
  const started = server.stderrMatching(/info started: /).then(
    () => 'started' as const,
    () => new Promise<never>(() => {}),
  );
  return Promise.race([started, server.exited.then(({ code }) => code)]);
}

const REFUSED =
  'roundtrip serve: cannot start serve-fixture: ROUNDTRIP_KEYFILE is set, but no setting has that name. Did you mean ROUNDTRIP_KEY_FILE? ' +
  'With neither ROUNDTRIP_KEY nor ROUNDTRIP_KEY_FILE set, this server would seal its states with a key file it generates for itself';

describe('roundtrip serve: the ROUNDTRIP_* names it starts with', { concurrent: true }, () => {
  for (const [over, args] of [
    ['stdio', []],
    ['HTTP', ['--http', '127.0.0.1:0']],
  ] as const) {
    it(`over ${over}: refuses a misspelt key file setting when no key is given, before generating one (exit 1)`, async () => {
      const server = serve(args, { ROUNDTRIP_KEYFILE: '/run/secrets/orders.key' });
      expect(await outcomeOf(server)).toBe(1);
      expect(server.stderr()).toContain(REFUSED);
      expect(existsSync(join(server.home, '.config', 'roundtrip', 'keys'))).toBe(false);
      expect(server.stdoutLines).toEqual([]);
    });

    it(`over ${over}: names an unknown variable with the setting meant, and serves`, async () => {
      const server = serve(args, {
        ROUNDTRIP_KEY: generateKey(),
        ROUNDTRIP_STATE_TLL: '30',
        ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS: '500',
        ROUNDTRIP_INSTANCE: 'one',
      });
      const log = await server.stderrMatching(/info started: /);
      expect(log).toContain(
        '[serve-fixture] warn settings: ROUNDTRIP_STATE_TLL is set, but no setting has that name, so it is ignored. Did you mean ROUNDTRIP_STATE_TTL?\n',
      );
      // the command's own variable is known; ROUNDTRIP_INSTANCE is an HTTP setting, unknown to a stdio server
      expect(log).not.toContain('ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS');
      expect(log.includes('ROUNDTRIP_INSTANCE is set')).toBe(over === 'stdio');
      expect(log).toContain('state lifetime 600s');
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    });
  }
});
