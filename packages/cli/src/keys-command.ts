// `roundtrip keys new|list|add|promote|retire <file> [kid]`: manage the key file of a server, for key
// rotation with conversations in flight. Keys themselves are never printed, only their ids.
import { resolve } from 'node:path';
import { generateKey } from '@roundtrip/engine';
import { didYouMean } from '@roundtrip/mcp/internal';
import { RoundtripConfigError } from '@roundtrip/mcp/node';
import type { CommandIo } from './command-io.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { createKeyFile, KeyFileError, readKeyFileForEdit, replaceKeyFile, withKeyFileLock } from './key-file-store.ts';
import { KeyFileTextError, keyIdOf, withKeyAdded, withKeyPromoted, withKeyRetired } from './key-file-text.ts';
import { usageError } from './usage-error.ts';

export const KEYS_USAGE = `Usage: roundtrip keys <new|list|add|promote|retire> <file> [<kid>]

Manages a key file (ROUNDTRIP_KEY_FILE, or serve --key-file): one key a line, the first seals states,
every key opens them. Keys are shown by their id (the <kid> in rt1.<kid>.…), never themselves.
  new <file>             create the file with one fresh key (refuses an existing file)
  list <file>            each key's id and role: sealing, or opening only
  add <file>             append a fresh key that only opens states (step 1 of a rotation)
  promote <file> <kid>   make that key the sealing key (it moves first)
  retire <file> <kid>    remove a key (never the sealing key, nor the last one)
Writes are atomic (a temp file renamed over the old one) and owner-only (mode 600); the file is checked
as a server checks it before it is read. Writers take turns through <file>.lock, waiting up to 10 s
(ROUNDTRIP_KEYS_LOCK_TIMEOUT_MS) for another; a lock left by a process that no longer runs is taken over.

Rotating the key while conversations are in flight:
  1. roundtrip keys add <file>             note the new kid it prints
  2. restart every server that uses the file: all of them can now open states sealed with the new key
  3. roundtrip keys promote <file> <kid>   the new key seals from the next start on
  4. restart every server again
  5. wait out the state lifetime (--ttl / ROUNDTRIP_STATE_TTL, default 600 s): states sealed with the old key expire
  6. roundtrip keys retire <file> <old kid>
Skipping step 2 before 3 lets a server that has not restarted meet states it cannot open.

Exit code 1: the file could not be read, created or changed.

${EXIT_CODES_HELP}`;

const ACTIONS = ['new', 'list', 'add', 'promote', 'retire'] as const;
type Action = (typeof ACTIONS)[number];

const usage = (io: CommandIo, problem: string) => usageError(io, 'keys', problem);

function warn(io: CommandIo, warnings: readonly string[]): void {
  for (const warning of warnings) io.err.write(`warning: ${warning}\n`);
}

function run(action: Action, path: string, kid: string | undefined, io: CommandIo): void {
  const warnings: string[] = [];
  if (action === 'new') {
    const key = generateKey();
    createKeyFile(path, key);
    io.out.write(`${keyIdOf(key)} sealing (new key file ${path})\n`);
    return;
  }
  const file = readKeyFileForEdit(path, warnings);
  warn(io, warnings);
  const sealing = file.keys[0]!.kid;
  if (action === 'list') {
    const seen = new Set<string>();
    for (const { kid: id } of file.keys) {
      if (seen.has(id)) {
        io.err.write(`note: ${id} is listed more than once; retire removes every copy.\n`);
        continue;
      }
      seen.add(id);
      io.out.write(`${id} ${id === sealing ? 'sealing' : 'opening only'}\n`);
    }
    return;
  }
  if (action === 'add') {
    const key = generateKey();
    const added = keyIdOf(key);
    replaceKeyFile(path, withKeyAdded(file, key));
    io.out.write(`${added} opening only (added to ${path})\n`);
    io.err.write(`Next: restart every server that uses ${path}, then run \`roundtrip keys promote ${path} ${added}\`.\n`);
    return;
  }
  if (action === 'promote') {
    const text = withKeyPromoted(file, kid!, path);
    if (text === undefined) {
      io.out.write(`${kid} sealing (already; ${path} is unchanged)\n`);
      return;
    }
    replaceKeyFile(path, text);
    io.out.write(`${kid} sealing (${sealing} now opening only)\n`);
    io.err.write(
      `Next: restart every server that uses ${path}; once the states sealed with ${sealing} have expired ` +
        `(the state lifetime, default 600 s), run \`roundtrip keys retire ${path} ${sealing}\`.\n`,
    );
    return;
  }
  replaceKeyFile(path, withKeyRetired(file, kid!, path));
  io.out.write(`${kid} retired from ${path}\n`);
  io.err.write(`Restart the servers that use ${path}: until then they still open states sealed with ${kid}.\n`);
}

export async function keysCommand(args: readonly string[], io: CommandIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out.write(`${KEYS_USAGE}\n`);
    return EXIT.ok;
  }
  const [action, file, kid, ...extra] = args;
  const wantsKid = action === 'promote' || action === 'retire';
  // a key id is base64url, so one in 64 begins with '-': the id's place is never an option
  const option = args.find((arg, index) => arg.startsWith('-') && !(wantsKid && index === 2));
  if (option) return usage(io, `unknown option ${option}.`);
  if (action === undefined) return usage(io, 'say what to do: new, list, add, promote or retire.');
  if (!(ACTIONS as readonly string[]).includes(action))
    return usage(io, `unknown action '${action}'; use new, list, add, promote or retire.${didYouMean(action, ACTIONS)}`);
  if (file === undefined) return usage(io, `${action} needs the key file's path.`);
  if (wantsKid && kid === undefined) return usage(io, `${action} needs the id of a key; \`roundtrip keys list ${file}\` shows them.`);
  if ((!wantsKid && kid !== undefined) || extra.length > 0) return usage(io, `too many arguments for ${action}.`);
  try {
    const path = resolve(io.cwd, file);
    const work = () => run(action as Action, path, kid, io);
    if (action === 'list') work();
    else await withKeyFileLock(path, work, { env: process.env, note: (text) => io.err.write(`note: ${text}\n`) });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof KeyFileError || error instanceof KeyFileTextError || error instanceof RoundtripConfigError) {
      io.err.write(`roundtrip keys ${action}: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}
