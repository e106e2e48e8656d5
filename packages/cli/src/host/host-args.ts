// The command line shared by `roundtrip call` and `roundtrip chat`: which server to talk to (a module
// served by this CLI, with the serve flags given passed on to it; any command after `--`; or a server
// already running at an HTTP `--url`, with the `--header`s to send it), the protocol era, where the log
// of a server started here goes.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { didYouMean } from '@roundtrip/mcp/internal';
import { displayUrl, type HeaderFlag, headersProblem, readHeader, readUrl } from '../remote-flags.ts';
import { type FlagSetting, flagOf, readServeFlag, SERVE_FLAGS } from '../serve-flags.ts';
import { serverDefaults } from './answer-wait.ts';

const ERAS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
export type Era = (typeof ERAS)[number];

/** A process to spawn as the MCP server, spoken to over stdio. */
export interface SpawnTarget {
  readonly kind: 'spawn';
  readonly command: string;
  readonly args: readonly string[];
  /** How messages name it: the module, or the command line. */
  readonly label: string;
  /** Variables it gets unless the person's environment sets them (a module's server: see answer-wait.ts). */
  readonly env?: Readonly<Record<string, string>>;
}

/** A server already running, reached over Streamable HTTP. */
export interface UrlTarget {
  readonly kind: 'url';
  readonly url: URL;
  /** Sent on every request; their values are never shown. */
  readonly headers: readonly HeaderFlag[];
  /** How messages name it: the URL without its query. */
  readonly label: string;
}

export type ServerTarget = SpawnTarget | UrlTarget;

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

/** The `roundtrip` launcher, spawned as `node <bin> serve <module>` unless the command is given another (CommandIo's launcher). */
const CLI_BIN = fileURLToPath(new URL('../../bin/roundtrip.mjs', import.meta.url));

/** What was read from the options, before the server is decided. */
interface Options {
  era: Era;
  args?: string;
  serverLog?: string;
  serverFlag: boolean;
  url?: URL;
  headers: HeaderFlag[];
  /** The serve flags given, as `roundtrip serve` takes them (paths made absolute). */
  serveArgs: string[];
  settings: FlagSetting[];
  positionals: string[];
}

/** Reads the options before `--`; the problem as text. */
function readOptions(
  command: 'call' | 'chat',
  own: readonly string[],
  cwd: string,
  afterDashes: boolean,
): Options | { help: true } | string {
  const read: Options = { era: '2026-07-28', serverFlag: false, headers: [], serveArgs: [], settings: [], positionals: [] };
  const ownFlags = ['--help', '--era', '--server', '--server-log', '--url', '--header', ...(command === 'call' ? ['--args'] : [])];
  for (let i = 0; i < own.length; i++) {
    const word = own[i]!;
    const flag = flagOf(word);
    const ownFlag = word.startsWith('--') && ownFlags.includes(flag);
    /** The value of an own flag: after its `=`, or the next word (unless that is an option). */
    const value = () => {
      if (flag !== word) return word.slice(flag.length + 1);
      const next = own[i + 1];
      i++;
      return next === undefined || next.startsWith('--') ? undefined : next;
    };
    if (word === '--help' || word === '-h') return { help: true };
    if (!word.startsWith('-')) read.positionals.push(word);
    else if (!ownFlag) {
      const serve = readServeFlag(own, i, cwd);
      if (!serve) return `unknown option '${flag}'.${didYouMean(flag, [...ownFlags, ...SERVE_FLAGS])}`;
      if (!serve.ok) return serve.problem;
      if (afterDashes) {
        return `${serve.flag} is an option of \`roundtrip serve\`, passed on only when ${command} serves a module; give it to the server command after -- instead.`;
      }
      read.serveArgs.push(serve.flag, serve.value);
      if ('setting' in serve) read.settings.push(serve.setting);
      i = serve.next - 1;
    } else if (flag === '--server') read.serverFlag = true;
    else if (flag === '--era') {
      const given = value();
      if (!ERAS.includes(given as Era)) return `--era takes one of ${ERAS.join(', ')}${given ? `, not '${given}'` : ''}.`;
      read.era = given as Era;
    } else if (flag === '--args') {
      read.args = value();
      if (read.args === undefined) return `--args needs the arguments as a JSON object, e.g. --args '{"orderId":"A-1001"}'.`;
    } else if (flag === '--server-log') {
      read.serverLog = value();
      if (read.serverLog === undefined) return '--server-log needs a file to append the server log to.';
    } else if (flag === '--url') {
      if (read.url) return 'give one --url.';
      const url = readUrl(value());
      if (!url.ok) return url.problem;
      read.url = url.value;
    } else {
      const header = readHeader(value(), read.headers.length + 1);
      if (!header.ok) return header.problem;
      read.headers.push(header.value);
    }
  }
  return read;
}

/** The server at `--url`, when nothing given asks this command to start one. */
function urlTarget(read: Options, url: URL, serverCommand: readonly string[] | undefined, wordCount: number): UrlTarget | string {
  const choose = 'choose the server at --url, or one to start (a module, or a command after --).';
  if (serverCommand !== undefined || read.serverFlag)
    return `--url names a server already running; a command after -- is one to start: ${choose}`;
  if (read.positionals.length > wordCount) {
    return `--url names a server already running; '${read.positionals[0]}' is a module to serve: ${choose}`;
  }
  const serveFlag = read.serveArgs[0];
  if (serveFlag !== undefined) {
    return `${serveFlag} is an option of \`roundtrip serve\`, for a server this command starts; with --url it starts none: give it to the server at the URL.`;
  }
  if (read.serverLog !== undefined)
    return "--server-log keeps the log of a server this command starts; with --url it starts none (see the server's own log).";
  const twice = headersProblem(read.headers);
  if (twice) return twice;
  return { kind: 'url', url, headers: read.headers, label: displayUrl(url) };
}

/**
 * Reads `[options] <module> <words…>`, `[options] <words…> -- <server command…>` or
 * `--url <url> [--header 'Name: value']… <words…>`. `wordCount` is how many words follow the module
 * (call: 1, the name; chat: 0). A module's server is started as `node <launcher> serve <module>`.
 */
export function parseHostArgs(
  command: 'call' | 'chat',
  argv: readonly string[],
  cwd: string,
  wordCount: number,
  launcher: string = CLI_BIN,
): ParsedHostArgs {
  const fail = (problem: string): ParsedHostArgs => ({ ok: false, help: false, problem });
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const serverCommand = split === -1 ? undefined : argv.slice(split + 1);
  const read = readOptions(command, own, cwd, serverCommand !== undefined && !own.some((word) => flagOf(word) === '--url'));
  if (typeof read === 'string') return fail(read);
  if ('help' in read) return { ok: false, help: true };
  const { positionals, era, settings } = read;
  const common = {
    era,
    ...(read.args !== undefined && { args: read.args }),
    ...(read.serverLog !== undefined && { serverLog: resolve(cwd, read.serverLog) }),
    settings,
  };
  const names = wordCount === 1 ? 'a tool, prompt or resource name' : '';
  if (read.url) {
    const target = urlTarget(read, read.url, serverCommand, wordCount);
    if (typeof target === 'string') return fail(target);
    if (positionals.length !== wordCount) return fail(`give ${names} after --url and its address.`);
    return { ok: true, value: { words: positionals, target, ...common } };
  }
  if (read.headers.length > 0) {
    return fail(
      '--header is sent to a server at --url; a server this command starts over stdio takes none (give it settings by its options).',
    );
  }
  if (read.serverFlag && serverCommand === undefined)
    return fail('--server needs the server command after --, e.g. --server -- node server.js.');
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
      value: { words: positionals, target: { kind: 'spawn', command: program, args: rest, label: serverCommand.join(' ') }, ...common },
    };
  }
  if (positionals.length !== wordCount + 1) {
    return fail(
      wordCount === 0
        ? 'give one module of definitions, -- and a server command, or --url and the address of a server.'
        : `give a module of definitions and ${names} (or the name, then -- and a server command; or --url and the address of a server).`,
    );
  }
  const [module, ...words] = positionals as [string, ...string[]];
  const target: SpawnTarget = {
    kind: 'spawn',
    command: process.execPath,
    args: [launcher, 'serve', resolve(cwd, module), ...read.serveArgs],
    label: module,
    env: serverDefaults(settings),
  };
  return { ok: true, value: { words, target, ...common } };
}
