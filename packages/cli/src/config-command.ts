// `roundtrip config <host> <module> [serve options]`: the entry a host needs to start `roundtrip serve`
// for a module, on stdout alone (so it can be piped); where it goes, and what else to do, on stderr.
// With --url, the entry that reaches a server already running (see config-url.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { didYouMean } from '@roundtrip/mcp/internal';
import { defaultKeyFilePath } from '@roundtrip/mcp/node';
import type { CommandIo } from './command-io.ts';
import { configUrlCommand } from './config-url.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { HOST_IDS, HOSTS, isHostId, type ServerLaunch, shellQuote } from './host-configs.ts';
import { flagOf, SERVE_FLAGS_HELP } from './serve-flags.ts';
import { checkSettingValues, parseServeOptions } from './serve-options.ts';
import { loadServerModule } from './server-module.ts';
import { usageError } from './usage-error.ts';

export const CONFIG_USAGE = `Usage: roundtrip config <${HOST_IDS.join('|')}> <module> [serve options]
       roundtrip config <host> --url <url> [--header 'Name: value']… [--name <name>]

Prints the entry that makes the host start \`roundtrip serve <module>\`, in the host's own format:
"mcpServers" JSON (claude, claude-code, cursor, windsurf, lmstudio), VS Code's "servers" JSON, or goose's
YAML "extensions". Node, the roundtrip command and the module are named by absolute path (a host started
from the desktop may not have your shell's PATH), and the key file is set in "env" as ROUNDTRIP_KEY_FILE.
Only the entry goes to stdout; where the host's file lives on each OS, and what to do next, go to stderr.
The module is loaded, to check it and to read its serverInfo.
Serve options written into the entry:
${SERVE_FLAGS_HELP}
--key-file goes into "env"; without it, the server's default key file (create it with roundtrip keys new).

With --url, the entry makes the host reach a server already running over Streamable HTTP (such as one
roundtrip serve --http started) instead of starting one, in the host's format for remote servers:
"type": "http" and "url" (claude-code, vscode), "url" (cursor, lmstudio), "serverUrl" (windsurf), goose's
streamable_http extension. Each --header 'Name: value' is written into the entry (which then holds it: an
Authorization token is a secret). --name names the entry (default: the URL's host). Claude Desktop takes
servers at a URL only as custom connectors in its settings, not in its file: config claude --url says how.

${EXIT_CODES_HELP}`;

/**
 * The roundtrip command's own script, run by node in the entry: the one that runs the TypeScript
 * sources in the workspace, the one that runs dist/ once published (bin/roundtrip-dist.mjs).
 */
const BIN = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../bin/roundtrip.mjs' : '../bin/roundtrip-dist.mjs', import.meta.url));

const usage = (io: CommandIo, problem: string) => usageError(io, 'config', problem);

/**
 * Prints the entry for the host named in `args`. `env` and `platform` decide the default key file path
 * and which OS the explanation marks as this machine.
 */
export async function configCommand(
  args: readonly string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out.write(`${CONFIG_USAGE}\n`);
    return EXIT.ok;
  }
  const [hostArg, ...rest] = args;
  if (hostArg === undefined || hostArg.startsWith('-')) return usage(io, `name the host first: ${HOST_IDS.join(', ')}.`);
  if (!isHostId(hostArg))
    return usage(io, `unknown host '${hostArg}'; choose one of ${HOST_IDS.join(', ')}.${didYouMean(hostArg, HOST_IDS)}`);
  const flags = rest.map(flagOf);
  if (flags.includes('--url')) return configUrlCommand(hostArg, rest, io, platform);
  if (flags.includes('--header')) {
    return usage(io, "--header goes into the entry of a server at --url; a server the host starts takes serve's options instead.");
  }
  const options = parseServeOptions(rest, io.cwd);
  if (typeof options === 'string') return usage(io, options);
  // an entry whose server cannot start would fail only inside the host
  const badValue = checkSettingValues(options.settings);
  if (badValue) return usage(io, badValue);
  const served = await loadServerModule('config', options.module, io, options);
  if (!served) return EXIT.failed;

  const keyFile = options.settings.find((s) => s.flag === '--key-file')?.value ?? defaultKeyFilePath(served.name, env, platform);
  const launch: ServerLaunch = {
    name: served.name,
    command: process.execPath,
    args: [
      BIN,
      'serve',
      served.path,
      ...(options.name !== undefined ? ['--name', options.name] : []),
      ...(options.version !== undefined ? ['--version', options.version] : []),
      ...options.settings.filter((s) => s.flag !== '--key-file').flatMap((s) => [s.flag, s.value]),
    ],
    env: { ROUNDTRIP_KEY_FILE: keyFile },
  };
  const host = HOSTS[hostArg];
  io.out.write(host.entry(launch));
  io.err.write(`\n${host.where(launch, platform).join('\n')}\n`);
  if (!existsSync(keyFile)) {
    io.err.write(
      `\nThe key file ${keyFile} does not exist yet, and a server given ROUNDTRIP_KEY_FILE does not create it. ` +
        `Create it before ${host.title} starts the server:\n  roundtrip keys new ${shellQuote(keyFile, platform)}\n`,
    );
  }
  return EXIT.ok;
}
