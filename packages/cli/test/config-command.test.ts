// `roundtrip config`: each host's entry, parsed back (JSON) or compared as text (goose's YAML), where the
// host's file lives (serve-command.test.ts runs an entry as a host runs it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultKeyFilePath } from '@roundtrip/mcp/node';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from './fixtures/run-command.ts';
import { BIN, FIXTURES } from './fixtures/spawn-cli.ts';

const MODULE = join(FIXTURES, 'serve-definitions.ts');
const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'roundtrip-config-'));
  temps.push(dir);
  return dir;
}

const run = (...args: string[]) => runCommand(args, { cwd: FIXTURES });

type Entry = { type?: string; command: string; args: string[]; env: Record<string, string> };

describe('roundtrip config', () => {
  const keyFile = join(tmpdir(), 'roundtrip-config-test.key');
  const launch = {
    command: process.execPath,
    args: [BIN, 'serve', MODULE, '--principal', 'ada', '--ttl', '900'],
    env: { ROUNDTRIP_KEY_FILE: keyFile },
  };

  it.each([
    ['claude', 'mcpServers', undefined, 'claude_desktop_config.json'],
    ['claude-code', 'mcpServers', 'stdio', '.mcp.json'],
    ['vscode', 'servers', 'stdio', '.vscode/mcp.json'],
    ['cursor', 'mcpServers', undefined, '~/.cursor/mcp.json'],
    ['windsurf', 'mcpServers', undefined, '~/.codeium/windsurf/mcp_config.json'],
    ['lmstudio', 'mcpServers', undefined, '~/.lmstudio/mcp.json'],
  ])('prints the %s entry under "%s", node and the module by absolute path, the key file in env', async (host, key, type, file) => {
    const result = await run('config', host, 'serve-definitions.ts', '--key-file', keyFile, '--principal', 'ada', '--ttl', '900');
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.out) as Record<string, Record<string, Entry>>;
    expect(parsed).toEqual({ [key]: { 'serve-fixture': { ...(type && { type }), ...launch } } });
    expect(result.err).toContain(file);
    expect(result.err).toContain(`The key file ${keyFile} does not exist yet`);
    expect(result.err).toContain(`roundtrip keys new ${keyFile}\n`);
  });

  it("prints goose's YAML extension entry, every string quoted", async () => {
    const dir = await tempDir();
    const key = join(dir, 'goose.key');
    await run('keys', 'new', key);
    const result = await run('config', 'goose', MODULE, '--key-file', key, '--name', 'pizza shop');
    expect(result.code).toBe(0);
    const q = JSON.stringify;
    expect(result.out).toBe(
      [
        'extensions:',
        '  "pizza shop":',
        '    name: "pizza shop"',
        '    type: stdio',
        `    cmd: ${q(process.execPath)}`,
        '    args:',
        `      - ${q(BIN)}`,
        '      - "serve"',
        `      - ${q(MODULE)}`,
        '      - "--name"',
        '      - "pizza shop"',
        '    envs:',
        `      ROUNDTRIP_KEY_FILE: ${q(key)}`,
        // goose ends a call after 900 s: a question waits 14 minutes, not the 50 s meant for 60 s hosts
        '      ROUNDTRIP_ANSWER_TIMEOUT_MS: "840000"',
        '    description: "Roundtrip server pizza shop"',
        '    enabled: true',
        '    timeout: 900',
        '',
      ].join('\n'),
    );
    expect(result.err).toContain('~/.config/goose/config.yaml');
    expect(result.err).toContain('%APPDATA%\\Block\\goose\\config\\config.yaml');
    expect(result.err).not.toContain('does not exist yet');
  });

  it("keeps the answer timeout given to goose's entry, and raises goose's timeout to a minute past it when it would not fit", async () => {
    const tail = (out: string) => out.slice(out.indexOf('      - "--answer-timeout-ms"'));
    const short = await run('config', 'goose', MODULE, '--key-file', keyFile, '--answer-timeout-ms', '30000');
    expect(short.code).toBe(0);
    expect(tail(short.out)).toBe(
      [
        '      - "--answer-timeout-ms"',
        '      - "30000"',
        '    envs:',
        `      ROUNDTRIP_KEY_FILE: ${JSON.stringify(keyFile)}`,
        '    description: "Roundtrip server serve-fixture"',
        '    enabled: true',
        '    timeout: 900',
        '',
      ].join('\n'),
    );
    const long = await run('config', 'goose', MODULE, '--key-file', keyFile, '--answer-timeout-ms=1200500');
    expect(long.out).toContain('      - "--answer-timeout-ms"\n      - "1200500"\n');
    expect(long.out).not.toContain('ROUNDTRIP_ANSWER_TIMEOUT_MS');
    expect(long.out.endsWith('    timeout: 1261\n')).toBe(true);
  });

  it("says where Claude Desktop's file lives on each OS, that Linux has none, and gives Claude Code's command line", async () => {
    const desktop = await run('config', 'claude', MODULE, '--key-file', keyFile);
    expect(desktop.err).toContain('~/Library/Application Support/Claude/claude_desktop_config.json');
    expect(desktop.err).toContain('%APPDATA%\\Claude\\claude_desktop_config.json');
    expect(desktop.err).toContain('there is no official Claude Desktop for Linux');
    const code = await run('config', 'claude-code', MODULE, '--key-file', keyFile);
    expect(code.err).toContain(
      `  claude mcp add --transport stdio --scope user --env ROUNDTRIP_KEY_FILE=${keyFile} serve-fixture -- ${process.execPath} ${BIN} serve ${MODULE}\n`,
    );
  });

  it("names the server's default key file when no --key-file is given", async () => {
    const result = await run('config', 'cursor', MODULE);
    expect((JSON.parse(result.out) as { mcpServers: Record<string, Entry> }).mcpServers['serve-fixture']!.env).toEqual({
      ROUNDTRIP_KEY_FILE: defaultKeyFilePath('serve-fixture'),
    });
  });

  it('prints an entry a host can run: node, the bin, serve, the module and its flags, the key file in env', async () => {
    const key = join(tmpdir(), 'host.key');
    const result = await run('config', 'claude-code', MODULE, '--key-file', key, '--ledger', ':memory:');
    // serve-command.test.ts starts such an entry as a host does, and holds a conversation with its server
    expect((JSON.parse(result.out) as { mcpServers: Record<string, Entry> }).mcpServers['serve-fixture']).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [BIN, 'serve', MODULE, '--ledger', ':memory:'],
      env: { ROUNDTRIP_KEY_FILE: key },
    });
  });

  it('prints its help, and refuses a missing or unknown host or module, or a value the server would refuse, as a usage error (2)', async () => {
    expect(await run('config', '--help')).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage: roundtrip config <claude|claude-code|vscode|cursor|goose|windsurf|lmstudio> <module>'),
    });
    const cases: Array<[string[], string]> = [
      [[], 'roundtrip config: name the host first: claude, claude-code, vscode, cursor, goose, windsurf, lmstudio.\n'],
      [
        ['zed', MODULE],
        "roundtrip config: unknown host 'zed'; choose one of claude, claude-code, vscode, cursor, goose, windsurf, lmstudio.\n",
      ],
      [
        ['claud', MODULE],
        "roundtrip config: unknown host 'claud'; choose one of claude, claude-code, vscode, cursor, goose, windsurf, lmstudio. Did you mean 'claude'?\n",
      ],
      [['vscode', MODULE, '--principle', 'ada'], "roundtrip config: unknown option --principle. Did you mean '--principal'?\n"],
      [['vscode'], 'roundtrip config: give the module to serve.\n'],
      [['vscode', MODULE, '--ttl'], 'roundtrip config: --ttl needs the state lifetime in seconds.\n'],
      // a value the server would refuse: no entry whose server cannot start
      [
        ['claude', MODULE, '--ttl', 'soon'],
        'roundtrip config: --ttl is "soon"; give the state lifetime in whole seconds from 1 to 604800 (default 600).\n',
      ],
      [
        ['goose', MODULE, '--max-request-bytes=1'],
        'roundtrip config: --max-request-bytes is "1"; give the size of the largest request line read from stdin, in whole bytes from 65536 to 8388608',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run('config', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err.startsWith(message), result.err).toBe(true);
      expect(result.out).toBe('');
    }
    const missing = await run('config', 'vscode', 'missing.ts');
    expect(missing).toMatchObject({ code: 1, out: '' });
    expect(missing.err).toContain('roundtrip config: cannot load ');
  });
});
