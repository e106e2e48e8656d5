// `roundtrip config <host> --url <url> [--header 'Name: value']… [--name <name>]`: the entry that makes a
// host reach a server already running over Streamable HTTP, on stdout alone; where it goes, and what the
// host can and cannot do with such a server, on stderr. Nothing is started or loaded; the headers given
// are written into the entry (the file then holds a secret, which stderr says, naming the headers only).

import { didYouMean } from '@roundtrip/mcp/internal';
import type { CommandIo } from './command-io.ts';
import { EXIT } from './exit-codes.ts';
import type { HostId } from './host-configs.ts';
import { type HeaderFlag, headersProblem, readHeader, readUrl } from './remote-flags.ts';
import { REMOTE_HOSTS, type RemoteServer } from './remote-host-configs.ts';
import { flagOf, readServeFlag, SERVE_FLAGS } from './serve-flags.ts';
import { usageError } from './usage-error.ts';

const OWN_FLAGS = ['--url', '--header', '--name', '--help'];

/** The server at --url as the entry names it; the problem as text. */
function readRemote(args: readonly string[], cwd: string): RemoteServer | string {
  let url: URL | undefined;
  let name: string | undefined;
  const headers: HeaderFlag[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const flag = flagOf(word);
    const value = () => {
      if (flag !== word) return word.slice(flag.length + 1);
      const next = args[i + 1];
      i++;
      return next === undefined || next.startsWith('--') ? undefined : next;
    };
    if (!word.startsWith('-')) {
      return `--url names a server already running; '${word}' is a module for the host to start: choose one (a module, or --url).`;
    }
    if (flag === '--url') {
      if (url) return 'give one --url.';
      const read = readUrl(value());
      if (!read.ok) return read.problem;
      url = read.value;
    } else if (flag === '--header') {
      const read = readHeader(value(), headers.length + 1);
      if (!read.ok) return read.problem;
      headers.push(read.value);
    } else if (flag === '--name') {
      name = value();
      if (name === undefined || name.trim() === '') return '--name needs the name the host shows for the server.';
    } else if (readServeFlag(args, i, cwd)) {
      return `${flag} is an option of \`roundtrip serve\`, written into an entry that starts a server; with --url the host starts none: give it to the server at the URL.`;
    } else {
      return `unknown option '${flag}'.${didYouMean(flag, [...OWN_FLAGS, ...SERVE_FLAGS])}`;
    }
  }
  if (!url) return '--url needs the address of an HTTP MCP server.';
  const twice = headersProblem(headers);
  if (twice) return twice;
  return { name: name ?? nameOf(url), url: url.href, headers };
}

/** The entry's name when --name gives none: the URL's host, as a key every host's file takes (`mcp.example.com` → `mcp-example-com`). */
const nameOf = (url: URL) => url.hostname.replaceAll(/[^A-Za-z0-9_-]+/g, '-').replaceAll(/^-+|-+$/g, '') || 'roundtrip';

/** Prints `host`'s entry for the server at --url in `args`; resolves to the exit code. */
export function configUrlCommand(host: HostId, args: readonly string[], io: CommandIo, platform: NodeJS.Platform): number {
  const config = REMOTE_HOSTS[host];
  if ('refusal' in config) return usageError(io, 'config', config.refusal);
  const server = readRemote(args, io.cwd);
  if (typeof server === 'string') return usageError(io, 'config', server);
  io.out.write(config.entry(server));
  io.err.write(`\n${config.where(server, platform).join('\n')}\n`);
  if (!args.some((word) => flagOf(word) === '--name')) {
    io.err.write(`\nThe entry is named '${server.name}', after the URL's host; --name <name> names it otherwise.\n`);
  }
  if (server.headers.length > 0) {
    const names = server.headers.map(({ name }) => name).join(', ');
    io.err.write(
      `\nThe entry holds the value of ${names} as given, so the file now holds a secret: keep it out of shared folders and repositories ` +
        '(.mcp.json and .vscode/mcp.json are often committed), and readable by you alone.\n',
    );
  }
  return EXIT.ok;
}
