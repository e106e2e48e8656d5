// The entry each MCP host needs to reach a server already running at a URL (Streamable HTTP), in the
// host's own format, with the headers given where the host takes headers; or, for a host whose file
// takes only servers it starts itself, why not and what that host takes instead.
import { HOST_FILES, HOSTS, type HostId, LMSTUDIO_NO_ELICITATION, shellQuote } from './host-configs.ts';
import type { HeaderFlag } from './remote-flags.ts';

/** A server at a URL, as an entry names it. */
export interface RemoteServer {
  readonly name: string;
  readonly url: string;
  readonly headers: readonly HeaderFlag[];
}

export type RemoteHostConfig =
  | {
      /** The entry, ready to merge into the host's file. */
      entry(server: RemoteServer): string;
      /** Where the entry goes and what to do after, one line each (for stderr). */
      where(server: RemoteServer, platform: NodeJS.Platform): string[];
    }
  /** Why this host's file cannot name a server at a URL, and what the host takes instead. */
  | { readonly refusal: string };

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The headers as the JSON entries write them: absent when none were given. */
const headersOf = (server: RemoteServer) =>
  server.headers.length === 0 ? {} : { headers: Object.fromEntries(server.headers.map(({ name, value }) => [name, value])) };

/** The same `mcpServers` entry, the URL under the key this host reads. */
const mcpServers = (server: RemoteServer, entry: Record<string, string>) =>
  json({ mcpServers: { [server.name]: { ...entry, ...headersOf(server) } } });

/** A YAML key: plain when it is a simple word, else double-quoted. */
const yamlKey = (key: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key));

/** goose's `extensions` entry for a Streamable HTTP extension (its field for the address is `uri`). */
function gooseEntry(server: RemoteServer): string {
  const lines = [
    'extensions:',
    `  ${yamlKey(server.name)}:`,
    `    name: ${JSON.stringify(server.name)}`,
    '    type: streamable_http',
    `    uri: ${JSON.stringify(server.url)}`,
    '    envs: {}',
    '    env_keys: []',
    ...(server.headers.length === 0
      ? ['    headers: {}']
      : ['    headers:', ...server.headers.map(({ name, value }) => `      ${yamlKey(name)}: ${JSON.stringify(value)}`)]),
    `    description: ${JSON.stringify(`Roundtrip server ${server.name}`)}`,
    '    enabled: true',
    '    timeout: 300',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Hosts that speak a 2025 revision cannot be sent questions (elicitation/create) by a stateless HTTP server:
 * said with their entry, so nobody expects the forms they get over stdio.
 */
const legacyOverHttp = (host: HostId) =>
  `${HOSTS[host].title} speaks a 2025 revision of MCP: a stateless HTTP server (roundtrip serve --http) cannot send it questions ` +
  `(elicitation/create), so a tool that asks falls back to the model where it declares so, or fails naming the capability. ` +
  `For its forms, run the server over stdio: roundtrip config ${host} <module>.`;

export const REMOTE_HOSTS: { readonly [K in HostId]: RemoteHostConfig } = {
  claude: {
    refusal:
      'Claude Desktop does not connect to a server at a URL written in claude_desktop_config.json (that file takes only servers it starts). ' +
      "Add the URL in Settings > Connectors > Add custom connector instead: Claude reaches it from Anthropic's cloud, so it must be public, " +
      'and it sends none of your headers (a server without authentication, or with OAuth). ' +
      'Or let Claude Desktop start the server over stdio: roundtrip config claude <module>.',
  },
  'claude-code': {
    entry: (server) => json({ mcpServers: { [server.name]: { type: 'http', url: server.url, ...headersOf(server) } } }),
    where: (server, platform) => [
      ...HOST_FILES['claude-code'](platform),
      'Or let Claude Code write it (--scope user for every project, project for .mcp.json):',
      `  claude mcp add --transport http --scope user ${shellQuote(server.name, platform)} ${shellQuote(server.url, platform)}${server.headers
        .map(({ name }) => ` --header ${shellQuote(`${name}: <value>`, platform)}`)
        .join('')}`,
      ...(server.headers.length > 0 ? ["  (with each header's value as in the entry: it is not repeated here)"] : []),
    ],
  },
  vscode: {
    entry: (server) => json({ servers: { [server.name]: { type: 'http', url: server.url, ...headersOf(server) } } }),
    where: (_server, platform) => [...HOST_FILES.vscode(platform), legacyOverHttp('vscode')],
  },
  cursor: {
    entry: (server) => mcpServers(server, { url: server.url }),
    where: (_server, platform) => [...HOST_FILES.cursor(platform), legacyOverHttp('cursor')],
  },
  goose: {
    entry: gooseEntry,
    where: (_server, platform) => [...HOST_FILES.goose(platform), legacyOverHttp('goose')],
  },
  windsurf: {
    entry: (server) => mcpServers(server, { serverUrl: server.url }),
    where: (_server, platform) => [...HOST_FILES.windsurf(platform), legacyOverHttp('windsurf')],
  },
  lmstudio: {
    entry: (server) => mcpServers(server, { url: server.url }),
    where: (_server, platform) => [...HOST_FILES.lmstudio(platform), LMSTUDIO_NO_ELICITATION],
  },
};
