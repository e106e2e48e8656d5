// The command line shared by `roundtrip call` and `roundtrip chat`: which server to spawn (a module
// served by this CLI, with the serve flags given passed on to it, or any command after `--`), the
// protocol era, where the server's log goes.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { didYouMean } from '../did-you-mean.ts';
import { type FlagSetting, flagOf, readServeFlag, SERVE_FLAGS } from '../serve-flags.ts';
import { serverDefaults } from './answer-wait.ts';

const ERAS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
export type Era = (typeof ERAS)[number];

/** The process to spawn as the MCP server. */
export interface ServerTarget {
  readonly command: string;
  readonly args: readonly string[];
  /** How messages name it: the module, or the command line. */
  readonly label: string;
  /** Variables it gets unless the person's environment sets them (a module's server: see answer-wait.ts). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface HostArgs {
  /** The words that are not options, after the module when there is one. */
  readonly words: readonly string[];
  readonly target: ServerTarget;
  readonly era: Era;
  /** `--args`: JSON text of the arguments, not parsed yet. */
  readonly args?: string;
  /** `--server-log`: a file the server's stderr is appended to. */
  readonly serverLog?: string;
  /** The settings given by serve flags, passed on to `roundtrip serve` (their values not checked yet). */
  readonly settings: readonly FlagSetting[];
}

export type ParsedHostArgs = { ok: true; value: HostArgs } | { ok: false; help: true } | { ok: false; help: false; problem: string };

/** The `roundtrip` launcher, spawned as `node <bin> serve <module>`. */
const CLI_BIN = fileURLToPath(new URL('../../bin/roundtrip.mjs', import.meta.url));

/**
 * Reads `[options] <module> <words…>` or `[options] <words…> -- <server command…>`.
 * `wordCount` is how many words follow the module (call: 1, the name; chat: 0).
 */
export function parseHostArgs(command: 'call' | 'chat', argv: readonly string[], cwd: string, wordCount: number): ParsedHostArgs {
  const fail = (problem: string): ParsedHostArgs => ({ ok: false, help: false, problem });
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const serverCommand = split === -1 ? undefined : argv.slice(split + 1);
  const positionals: string[] = [];
  let era: Era = '2026-07-28';
  let args: string | undefined;
  let serverLog: string | undefined;
  let serverFlag = false;
  /** The serve flags given, as `roundtrip serve` takes them (paths made absolute). */
  const serveArgs: string[] = [];
  const settings: FlagSetting[] = [];
  const ownFlags = ['--help', '--era', '--server', '--server-log', ...(command === 'call' ? ['--args'] : [])];
  for (let i = 0; i < own.length; i++) {
    const word = own[i]!;
    const value = () => {
      const next = own[i + 1];
      i++;
      return next === undefined || next.startsWith('--') ? undefined : next;
    };
    if (word === '--help' || word === '-h') return { ok: false, help: true };
    if (word === '--server') serverFlag = true;
    else if (word === '--era') {
      const given = value();
      if (!ERAS.includes(given as Era)) return fail(`--era takes one of ${ERAS.join(', ')}${given ? `, not '${given}'` : ''}.`);
      era = given as Era;
    } else if (word === '--args' && command === 'call') {
      args = value();
      if (args === undefined) return fail(`--args needs the arguments as a JSON object, e.g. --args '{"orderId":"A-1001"}'.`);
    } else if (word === '--server-log') {
      serverLog = value();
      if (serverLog === undefined) return fail('--server-log needs a file to append the server log to.');
    } else if (word.startsWith('-')) {
      const read = readServeFlag(own, i, cwd);
      if (!read) return fail(`unknown option '${flagOf(word)}'.${didYouMean(flagOf(word), [...ownFlags, ...SERVE_FLAGS])}`);
      if (!read.ok) return fail(read.problem);
      if (serverCommand !== undefined) {
        return fail(
          `${read.flag} is an option of \`roundtrip serve\`, passed on only when ${command} serves a module; give it to the server command after -- instead.`,
        );
      }
      serveArgs.push(read.flag, read.value);
      if ('setting' in read) settings.push(read.setting);
      i = read.next - 1;
    } else positionals.push(word);
  }
  if (serverFlag && serverCommand === undefined)
    return fail('--server needs the server command after --, e.g. --server -- node server.js.');
  const names = wordCount === 1 ? 'a tool, prompt or resource name' : '';
  if (serverCommand !== undefined) {
    if (serverCommand.length === 0) return fail('give the server command after --, e.g. -- node server.js.');
    if (positionals.length !== wordCount) {
      return fail(
        wordCount === 0
          ? `with a server command after --, give no module (got '${positionals[0]}').`
          : `give ${names}, then -- and the server command.`,
      );
    }
    const [program, ...rest] = serverCommand as [string, ...string[]];
    return {
      ok: true,
      value: {
        words: positionals,
        target: { command: program, args: rest, label: serverCommand.join(' ') },
        era,
        ...(args !== undefined && { args }),
        ...(serverLog !== undefined && { serverLog: resolve(cwd, serverLog) }),
        settings,
      },
    };
  }
  if (positionals.length !== wordCount + 1) {
    return fail(
      wordCount === 0
        ? 'give one module of definitions, or -- and a server command.'
        : `give a module of definitions and ${names} (or the name, then -- and a server command).`,
    );
  }
  const [module, ...words] = positionals as [string, ...string[]];
  const target = {
    command: process.execPath,
    args: [CLI_BIN, 'serve', resolve(cwd, module), ...serveArgs],
    label: module,
    env: serverDefaults(settings),
  };
  return {
    ok: true,
    value: {
      words,
      target,
      era,
      ...(args !== undefined && { args }),
      ...(serverLog !== undefined && { serverLog: resolve(cwd, serverLog) }),
      settings,
    },
  };
}
