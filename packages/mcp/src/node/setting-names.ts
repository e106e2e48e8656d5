// The ROUNDTRIP_* variables a server starts with, checked by name: one that no setting reads is named at
// start, with the setting it was probably meant for, instead of being ignored in silence. A misspelt key
// setting is refused: with no key given the server would seal with a key file it generates for itself, and
// behind a balancer the instances would each refuse the others' states (-32602) now and then.

import { RoundtripConfigError } from '../config-error.ts';
import { closestChoice } from '../did-you-mean.ts';

const PREFIX = 'ROUNDTRIP_';

/** Every variable resolveServerSettings reads: the settings every Node server (stdio, HTTP) shares. */
export const SERVER_VARIABLES: readonly string[] = [
  'ROUNDTRIP_KEY',
  'ROUNDTRIP_KEY_FILE',
  'ROUNDTRIP_PRINCIPAL',
  'ROUNDTRIP_STATE_TTL',
  'ROUNDTRIP_SETTLE_TIMEOUT_MS',
  'ROUNDTRIP_MAX_ROUNDS',
  'ROUNDTRIP_MAX_STATE_BYTES',
  'ROUNDTRIP_ANSWER_TIMEOUT_MS',
  'ROUNDTRIP_MAX_REQUEST_BYTES',
  'ROUNDTRIP_LEDGER',
  'ROUNDTRIP_TASK_LEASE_SECONDS',
  'ROUNDTRIP_INSPECT',
  'ROUNDTRIP_INSPECT_ANSWERS',
];

/** The variables that give the key; with neither set, the server seals with its default key file. */
const KEY_VARIABLES: readonly string[] = ['ROUNDTRIP_KEY', 'ROUNDTRIP_KEY_FILE'];

/** Left to tests (ROUNDTRIP_TEST_PG, …), whose servers inherit them: never a setting, never named. */
const TEST_PREFIX = 'ROUNDTRIP_TEST_';

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * The known name `name` most likely meant: the closest, compared without the common prefix (else every
 * name would be close), or else the one known name that ends with it (ROUNDTRIP_TTL: ROUNDTRIP_STATE_TTL).
 */
function meant(name: string, known: readonly string[]): string | undefined {
  const suffix = (full: string) => full.slice(PREFIX.length);
  const choices = known.filter((choice) => choice.startsWith(PREFIX));
  const closest = closestChoice(suffix(name), choices.map(suffix));
  if (closest !== undefined) return PREFIX + closest;
  const endingSo = choices.filter((choice) => choice.endsWith(`_${suffix(name)}`));
  return endingSo.length === 1 ? endingSo[0] : undefined;
}

/**
 * Checks the name of every ROUNDTRIP_* variable set in `env` against `known` (the server's settings, its
 * transport's and the application's own). Returns a warning for the operator for each unknown one, with
 * the closest known name. Throws RoundtripConfigError for an unknown name closest to ROUNDTRIP_KEY or
 * ROUNDTRIP_KEY_FILE while neither is set: the key meant would not be used, and the server would run on
 * a key no other instance shares. Variables set to nothing, and ROUNDTRIP_TEST_* ones, are left alone.
 */
export function checkSettingNames(env: NodeJS.ProcessEnv, known: readonly string[]): string[] {
  const noKeyGiven = !KEY_VARIABLES.some((variable) => isSet(env[variable]));
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(PREFIX) || name.startsWith(TEST_PREFIX) || known.includes(name) || !isSet(env[name])) continue;
    const closest = meant(name, known);
    const guess = closest === undefined ? '' : ` Did you mean ${closest}?`;
    if (noKeyGiven && closest !== undefined && KEY_VARIABLES.includes(closest)) {
      throw new RoundtripConfigError(
        name,
        `${name} is set, but no setting has that name.${guess} With neither ROUNDTRIP_KEY nor ROUNDTRIP_KEY_FILE set, this server ` +
          'would seal its states with a key file it generates for itself, which no other instance shares (behind a balancer, ' +
          `rounds would fail now and then as an invalid requestState). Rename ${name} to ${closest}, or unset it to serve with the generated key file.`,
        { code: 'unknown_setting' },
      );
    }
    if (noKeyGiven && /KEY/i.test(name.slice(PREFIX.length))) {
      warnings.push(
        `${name} is set, but no setting has that name, so it is ignored.${guess} This server seals its states with the key file ` +
          'it generates for itself: give the key with ROUNDTRIP_KEY or ROUNDTRIP_KEY_FILE.',
      );
      continue;
    }
    warnings.push(
      `${name} is set, but no setting has that name, so it is ignored.${
        guess || " Check its spelling; a variable the server's own code reads is declared in its ownVariables option."
      }`,
    );
  }
  return warnings;
}
