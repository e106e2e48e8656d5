// The entry each MCP host needs to start a stdio server, in the host's own format, and where that host
// keeps its configuration on each OS.

/** How a host starts the server: absolute paths, since GUI apps may not have nvm's node on PATH. */
export interface ServerLaunch {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export const HOST_IDS = ['claude', 'claude-code', 'vscode', 'cursor', 'goose', 'windsurf', 'lmstudio'] as const;
export type HostId = (typeof HOST_IDS)[number];

export interface HostConfig {
  readonly title: string;
  /** The entry, ready to merge into the host's file (or to pipe). */
  entry(launch: ServerLaunch): string;
  /** Where the entry goes and what to do after, one line each (for stderr). */
  where(launch: ServerLaunch, platform: NodeJS.Platform): string[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const stdioEntry = (launch: ServerLaunch, typed: boolean) => ({
  ...(typed && { type: 'stdio' }),
  command: launch.command,
  args: [...launch.args],
  env: { ...launch.env },
});

const mcpServers = (launch: ServerLaunch, typed = false) => json({ mcpServers: { [launch.name]: stdioEntry(launch, typed) } });

/** A YAML key: plain when it is a simple word, else double-quoted. */
const yamlKey = (key: string) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key));
/** A YAML string: double-quoted (JSON string escapes are YAML escapes), so no path or name can change the structure. */
const yamlString = (value: string) => JSON.stringify(value);

/** goose ends a tool call after its extension's `timeout`, in seconds. */
const GOOSE_TIMEOUT_S = 900;
/** The answer timeout goose's entry sets: a question is withdrawn a minute before goose gives up on the call. */
const GOOSE_ANSWER_TIMEOUT_MS = (GOOSE_TIMEOUT_S - 60) * 1000;

/**
 * The answer timeout given in the entry, by `--answer-timeout-ms` or in its env; undefined when none is.
 * (config checked the flag's value before writing any entry.)
 */
function answerTimeoutGiven(launch: ServerLaunch): number | undefined {
  const at = launch.args.indexOf('--answer-timeout-ms');
  const given = at === -1 ? launch.env.ROUNDTRIP_ANSWER_TIMEOUT_MS : launch.args[at + 1];
  return given === undefined ? undefined : Number(given);
}

/** goose's `extensions` entry, written by hand (no YAML dependency for a dozen lines). */
function gooseEntry(launch: ServerLaunch): string {
  // goose ends a tool call after `timeout` seconds; a 2025-era call stays open while the user answers, and
  // the server withdraws each question after ROUNDTRIP_ANSWER_TIMEOUT_MS (50 s by default, for hosts that
  // give up after 60 s). So the entry lets a question wait 14 minutes, under goose's 15; an answer timeout
  // the user gave is kept, and goose's timeout raised to a minute past it when it would not fit.
  const own = answerTimeoutGiven(launch);
  const env = own === undefined ? { ...launch.env, ROUNDTRIP_ANSWER_TIMEOUT_MS: String(GOOSE_ANSWER_TIMEOUT_MS) } : launch.env;
  const timeout = own === undefined ? GOOSE_TIMEOUT_S : Math.max(GOOSE_TIMEOUT_S, Math.ceil(own / 1000) + 60);
  const lines = [
    'extensions:',
    `  ${yamlKey(launch.name)}:`,
    `    name: ${yamlString(launch.name)}`,
    '    type: stdio',
    `    cmd: ${yamlString(launch.command)}`,
    '    args:',
    ...launch.args.map((arg) => `      - ${yamlString(arg)}`),
    '    envs:',
    ...Object.entries(env).map(([key, value]) => `      ${yamlKey(key)}: ${yamlString(value)}`),
    `    description: ${yamlString(`Roundtrip server ${launch.name}`)}`,
    '    enabled: true',
    `    timeout: ${timeout}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** One argument as a shell would read it back: quoted only when it has to be. */
export function shellQuote(arg: string, platform: NodeJS.Platform): string {
  if (/^[A-Za-z0-9_/.,:=@%+-]+$/.test(arg)) return arg;
  if (platform === 'win32') return `"${arg.replace(/"/g, '\\"')}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };
/** One line per OS, this machine's marked. */
function perOs(platform: NodeJS.Platform, paths: Array<[NodeJS.Platform, string]>): string[] {
  return paths.map(([os, text]) => `  ${`${OS_NAMES[os]}:`.padEnd(9)} ${text}${os === platform ? '   (this machine)' : ''}`);
}

/** The same path under the home folder on every OS (`~` on macOS and Linux, %USERPROFILE% on Windows). */
const underHome = (platform: NodeJS.Platform, rest: string): string[] =>
  perOs(platform, [
    ['darwin', `~/${rest}`],
    ['linux', `~/${rest}`],
    ['win32', `%USERPROFILE%\\${rest.replaceAll('/', '\\')}`],
  ]);

const mergeNote = (key: string) => `Merge the entry into "${key}" of that file (create the file if it is missing), then restart the host.`;

/** Where each host keeps the file an entry goes in (one line per OS where it differs, this machine's marked), and how to merge it. */
export const HOST_FILES: { readonly [K in HostId]: (platform: NodeJS.Platform) => string[] } = {
  claude: (platform) => [
    'Claude Desktop reads claude_desktop_config.json (Settings > Developer > Edit Config opens it):',
    ...perOs(platform, [
      ['darwin', '~/Library/Application Support/Claude/claude_desktop_config.json'],
      ['win32', '%APPDATA%\\Claude\\claude_desktop_config.json'],
      ['linux', 'there is no official Claude Desktop for Linux; use Claude Code (roundtrip config claude-code <module>)'],
    ]),
    `${mergeNote('mcpServers')} Quit Claude Desktop fully (not just its window) before reopening.`,
  ],
  'claude-code': () => [
    'Claude Code reads "mcpServers" from .mcp.json at the project root (shared with the project) or from ~/.claude.json (yours).',
    mergeNote('mcpServers'),
  ],
  vscode: (platform) => [
    'VS Code reads "servers" from .vscode/mcp.json in a workspace, or from mcp.json in your user profile',
    '(command palette: MCP: Open User Configuration):',
    ...perOs(platform, [
      ['darwin', '~/Library/Application Support/Code/User/mcp.json'],
      ['linux', '~/.config/Code/User/mcp.json'],
      ['win32', '%APPDATA%\\Code\\User\\mcp.json'],
    ]),
    mergeNote('servers'),
  ],
  cursor: (platform) => [
    'Cursor reads "mcpServers" from .cursor/mcp.json in a project, or from mcp.json in your home folder:',
    ...underHome(platform, '.cursor/mcp.json'),
    mergeNote('mcpServers'),
  ],
  goose: (platform) => [
    "goose reads the extensions of config.yaml (or add it with 'goose configure' > Add Extension):",
    ...perOs(platform, [
      ['darwin', '~/.config/goose/config.yaml'],
      ['linux', '~/.config/goose/config.yaml'],
      ['win32', '%APPDATA%\\Block\\goose\\config\\config.yaml'],
    ]),
    'Put the entry under the file\'s existing "extensions:" key (a second "extensions:" would replace the first), then restart goose.',
  ],
  windsurf: (platform) => [
    'Windsurf reads "mcpServers" from mcp_config.json:',
    ...underHome(platform, '.codeium/windsurf/mcp_config.json'),
    mergeNote('mcpServers'),
  ],
  lmstudio: (platform) => [
    'LM Studio reads "mcpServers" from mcp.json (Program > Install > Edit mcp.json opens it):',
    ...underHome(platform, '.lmstudio/mcp.json'),
    mergeNote('mcpServers'),
  ],
};

/** LM Studio's limit, said with every entry for it. */
export const LMSTUDIO_NO_ELICITATION =
  'LM Studio does not support elicitation: a tool that asks the user a question cannot get an answer there.';

export const HOSTS: { readonly [K in HostId]: HostConfig } = {
  claude: {
    title: 'Claude Desktop',
    entry: (launch) => mcpServers(launch),
    where: (_launch, platform) => HOST_FILES.claude(platform),
  },
  'claude-code': {
    title: 'Claude Code',
    entry: (launch) => mcpServers(launch, true),
    where: (launch, platform) => [
      ...HOST_FILES['claude-code'](platform),
      'Or let Claude Code write it (--scope user for every project, project for .mcp.json):',
      `  claude mcp add --transport stdio --scope user ${Object.entries(launch.env)
        .map(([key, value]) => `--env ${shellQuote(`${key}=${value}`, platform)} `)
        .join(
          '',
        )}${shellQuote(launch.name, platform)} -- ${[launch.command, ...launch.args].map((a) => shellQuote(a, platform)).join(' ')}`,
    ],
  },
  vscode: {
    title: 'VS Code',
    entry: (launch) => json({ servers: { [launch.name]: stdioEntry(launch, true) } }),
    where: (_launch, platform) => HOST_FILES.vscode(platform),
  },
  cursor: {
    title: 'Cursor',
    entry: (launch) => mcpServers(launch),
    where: (_launch, platform) => HOST_FILES.cursor(platform),
  },
  goose: {
    title: 'goose',
    entry: gooseEntry,
    where: (_launch, platform) => HOST_FILES.goose(platform),
  },
  windsurf: {
    title: 'Windsurf',
    entry: (launch) => mcpServers(launch),
    where: (_launch, platform) => HOST_FILES.windsurf(platform),
  },
  lmstudio: {
    title: 'LM Studio',
    entry: (launch) => mcpServers(launch),
    where: (_launch, platform) => [...HOST_FILES.lmstudio(platform), LMSTUDIO_NO_ELICITATION],
  },
};

export const isHostId = (value: string): value is HostId => (HOST_IDS as readonly string[]).includes(value);
