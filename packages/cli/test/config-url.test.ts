// `roundtrip config <host> --url`: each host's entry for a server already running over Streamable HTTP,
// parsed back (JSON) or compared as text (goose's YAML), the headers given in it and named (never their
// value) on stderr; Claude Desktop's refusal with what it takes instead; the command line's mistakes.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const run = (...args: string[]) => runCommand(args, { cwd: here });

const URL_GIVEN = 'https://mcp.example.com/mcp';
const TOKEN = 'Bearer s3cret-t0ken';

describe('roundtrip config --url', () => {
  it.each([
    ['claude-code', { mcpServers: { orders: { type: 'http', url: URL_GIVEN } } }, '.mcp.json'],
    ['vscode', { servers: { orders: { type: 'http', url: URL_GIVEN } } }, '.vscode/mcp.json'],
    ['cursor', { mcpServers: { orders: { url: URL_GIVEN } } }, '~/.cursor/mcp.json'],
    ['windsurf', { mcpServers: { orders: { serverUrl: URL_GIVEN } } }, '~/.codeium/windsurf/mcp_config.json'],
    ['lmstudio', { mcpServers: { orders: { url: URL_GIVEN } } }, '~/.lmstudio/mcp.json'],
  ])('prints the %s entry for a server at a URL, in its format for remote servers', async (host, entry, file) => {
    const plain = await run('config', host, '--url', URL_GIVEN, '--name', 'orders');
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.out)).toEqual(entry);
    expect(plain.err).toContain(file);
    expect(plain.err).not.toContain('secret');

    const withHeaders = await run(
      'config',
      host,
      '--name=orders',
      `--url=${URL_GIVEN}`,
      '--header',
      `Authorization: ${TOKEN}`,
      '--header',
      'X-Team:ops',
    );
    expect(withHeaders.code).toBe(0);
    const [key, servers] = Object.entries(entry)[0]!;
    expect(JSON.parse(withHeaders.out)).toEqual({
      [key]: { orders: { ...servers.orders, headers: { Authorization: TOKEN, 'X-Team': 'ops' } } },
    });
    expect(withHeaders.err).toContain('The entry holds the value of Authorization, X-Team as given, so the file now holds a secret');
    expect(withHeaders.err).not.toContain('s3cret');
  });

  it('prints the claude mcp add command for Claude Code, with header names but not their values', async () => {
    const { err } = await run('config', 'claude-code', '--url', URL_GIVEN, '--name', 'orders', '--header', `Authorization: ${TOKEN}`);
    expect(err).toContain(`  claude mcp add --transport http --scope user orders ${URL_GIVEN} --header 'Authorization: <value>'\n`);
    expect(err).not.toContain('s3cret');
    expect(err).not.toContain('2025 revision');
  });

  it("prints goose's streamable_http extension, every string quoted, and says 2025-era hosts get no forms over HTTP", async () => {
    const { code, out, err } = await run('config', 'goose', '--url', URL_GIVEN, '--header', `Authorization: ${TOKEN}`);
    expect(out).toBe(
      [
        'extensions:',
        '  mcp-example-com:',
        '    name: "mcp-example-com"',
        '    type: streamable_http',
        `    uri: "${URL_GIVEN}"`,
        '    envs: {}',
        '    env_keys: []',
        '    headers:',
        `      Authorization: "${TOKEN}"`,
        '    description: "Roundtrip server mcp-example-com"',
        '    enabled: true',
        '    timeout: 300',
        '',
      ].join('\n'),
    );
    expect(err).toContain("The entry is named 'mcp-example-com', after the URL's host; --name <name> names it otherwise.");
    expect(err).toContain('goose speaks a 2025 revision of MCP: a stateless HTTP server (roundtrip serve --http) cannot send it questions');
    expect(code).toBe(0);
  });

  it('refuses Claude Desktop, whose file takes no server at a URL, saying what it takes instead', async () => {
    const { code, out, err } = await run('config', 'claude', '--url', URL_GIVEN);
    expect(out).toBe('');
    expect(err).toContain('roundtrip config: Claude Desktop does not connect to a server at a URL written in claude_desktop_config.json');
    expect(err).toContain('Settings > Connectors > Add custom connector');
    expect(err).toContain('roundtrip config claude <module>');
    expect(code).toBe(2);
  });

  it('says what is wrong with the command line (exit 2), naming a header but never its value', async () => {
    const cases: [string[], string][] = [
      [['config', 'cursor', '--url', 'ws://h/mcp'], 'roundtrip config: --url takes an http:// or https:// address'],
      [['config', 'cursor', '--url'], 'roundtrip config: --url needs the address of an HTTP MCP server'],
      [
        ['config', 'cursor', 'orders.ts', '--url', URL_GIVEN],
        "roundtrip config: --url names a server already running; 'orders.ts' is a module",
      ],
      [['config', 'cursor', '--url', URL_GIVEN, '--key-file', 'k.key'], 'roundtrip config: --key-file is an option of `roundtrip serve`'],
      [['config', 'cursor', '--url', URL_GIVEN, '--header', 'sk-live-123'], "roundtrip config: --header number 1 is not 'Name: value'"],
      [
        ['config', 'cursor', '--url', URL_GIVEN, '--header', 'Authorization: Bearer'],
        "--header 'Authorization' has nothing after 'Bearer'",
      ],
      [
        ['config', 'cursor', '--url', URL_GIVEN, '--hedaer', 'X: 1'],
        "roundtrip config: unknown option '--hedaer'. Did you mean '--header'?",
      ],
      [
        ['config', 'cursor', 'orders.ts', '--header', 'X-A: sk-live-123'],
        'roundtrip config: --header goes into the entry of a server at --url',
      ],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await run(...args);
      expect(err, args.join(' ')).toContain(message);
      expect(err).not.toContain('sk-live-123');
      expect(out).toBe('');
      expect(code).toBe(2);
    }
    const help = await run('config', '--help');
    expect(help.out).toContain("roundtrip config <host> --url <url> [--header 'Name: value']… [--name <name>]");
  });
});
