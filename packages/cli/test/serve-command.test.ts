// `roundtrip serve`: a real child process speaking stdio to the official client (the workspace bin on
// the TypeScript module, as a host runs the entry `roundtrip config` prints: the package's one start of
// its tsx launcher), its pipes read raw to see every byte of stdout and its exit; its option errors in-process. (serverInfo naming the
// server without --name: serve-http.test.ts.)
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RawServer, spawnRawServer } from '../../transport-stdio/test/fixtures/spawn-raw-server.ts';
import { runCommand } from './fixtures/run-command.ts';
import { BIN, connectRaw, FIXTURES } from './fixtures/spawn-cli.ts';

const MODULE = join(FIXTURES, 'serve-definitions.ts');
// the cases run concurrently (each its own folders and key file; the one that serves mostly waits on its process):
// a server still running is stopped, and folders are removed, once they all have run
const temps: string[] = [];
const servers: RawServer[] = [];
afterAll(async () => {
  for (const { child } of servers.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'roundtrip-serve-'));
  temps.push(dir);
  return dir;
}

const run = (...args: string[]) => runCommand(args, { cwd: FIXTURES });

type Round = { resultType?: string; requestState?: string; inputRequests?: Record<string, { params: { message: string } }> };
type Final = Round & { content?: Array<{ text: string }> };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('roundtrip serve', { concurrent: true }, () => {
  it("serves a module to a 2026-07-28 client over stdio through a conversation of three questions, writes nothing but JSON-RPC on stdout (the module's console.log goes to stderr), lets each flag win over its variable, and exits 0 when stdin closes", async () => {
    const home = await tempDir();
    const keyFile = join(home, 'pizza.key');
    expect((await run('keys', 'new', keyFile)).code).toBe(0);
    // the entry `roundtrip config` prints for a host (config-command.test.ts checks it word by word), run as a host runs
    // it, with the variables its flags win over set around it
    const config = await run(
      'config',
      'claude-code',
      MODULE,
      '--key-file',
      keyFile,
      '--name',
      'renamed',
      '--ledger',
      ':memory:',
      '--principal',
      'ada',
      '--ttl',
      '120',
    );
    const entry = (
      JSON.parse(config.out) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }
    ).mcpServers.renamed!;
    const [bin, ...args] = entry.args;
    expect([entry.command, bin]).toEqual([process.execPath, BIN]);
    const server = spawnRawServer(bin!, { HOME: home, ...entry.env, ROUNDTRIP_STATE_TTL: '30', ROUNDTRIP_PRINCIPAL: 'grace' }, args);
    servers.push(server);
    const unread: Error[] = [];
    const client = await connectRaw(server, unread);
    expect(client.getServerVersion()).toMatchObject({ name: 'renamed', version: '1.2.3' });
    expect(client.getInstructions()).toBe('Orders pizzas, one question at a time.');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['order_pizza']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['tone']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['pizza://menu']);

    const call = (extra: object) =>
      client.callTool({ name: 'order_pizza', arguments: { for: 'Ada' }, ...extra }, { allowInputRequired: true }) as Promise<Final>;
    const size = await call({});
    expect(size.resultType).toBe('input_required');
    expect(size.inputRequests?.size?.params.message).toBe('Which size for Ada?');
    const topping = await call({ requestState: size.requestState, inputResponses: { size: accept({ size: 'l' }) } });
    expect(Object.keys(topping.inputRequests ?? {})).toEqual(['topping']);
    const sure = await call({ requestState: topping.requestState, inputResponses: { topping: accept({ topping: 'basil' }) } });
    expect(sure.inputRequests?.sure?.params.message).toBe('Order it?');
    const done = await call({ requestState: sure.requestState, inputResponses: { sure: accept({ ok: true }) } });
    expect(done.content?.[0]?.text).toBe('Ordered a l basil pizza for Ada.');

    await client.close();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(unread).toEqual([]);
    expect(server.stdoutLines.length).toBeGreaterThan(0);
    for (const line of server.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr()).toContain('serve-definitions loaded\n');
    expect(server.stderr()).toContain(
      `[renamed] info started: renamed 1.2.3 serving 1 tool, 1 prompt, 1 resource over stdio (key file ${keyFile}; principal ada; state lifetime 120s,`,
    );
  });

  it('exits 1 with the reason, naming the flag, when a key file given by flag cannot be used', async () => {
    const home = await tempDir();
    const keyFile = join(home, 'open.key');
    await run('keys', 'new', keyFile);
    await chmod(keyFile, 0o666);
    expect(await run('serve', MODULE, '--key-file', keyFile)).toMatchObject({
      code: 1,
      out: '',
      err: `roundtrip serve: cannot start serve-fixture: The key file ${keyFile} can be written by other users, who could plant a key and forge states. Run \`chmod 600 ${keyFile}\`, then start again.\n`,
    });
    const missing = join(home, 'missing.key');
    const refused = await run('serve', MODULE, '--key-file', missing);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      `roundtrip serve: cannot start serve-fixture: Cannot read the key file ${missing} (ENOENT): there is no such file. Create it with \`roundtrip keys new ${missing}\`, or check the path in --key-file.\n`,
    );
    // a file that holds something else than keys (a password, a path) says which line, and how to start over
    const notKeys = join(home, 'not-keys.key');
    await writeFile(notKeys, '# keys\nhunter2\n', { mode: 0o600 });
    const notAKey = await run('serve', MODULE, '--key-file', notKeys);
    expect(notAKey.code).toBe(1);
    expect(notAKey.err).toBe(
      `roundtrip serve: cannot start serve-fixture: Line 2 of the key file ${notKeys} is not a key: it is not base64url text. ` +
        `Fix or remove that line (one base64url key of 32 bytes a line), or move the file away and create a new one with \`roundtrip keys new ${notKeys}\`.\n`,
    );
  });

  it('prints its help, and refuses bad options as usage errors (2) naming the flag, before serving anything', async () => {
    expect(await run('serve', '--help')).toMatchObject({
      code: 0,
      out: expect.stringContaining('Usage: roundtrip serve <module> [options]'),
    });
    const cases: Array<[string[], string]> = [
      [[], 'roundtrip serve: give the module to serve.\n'],
      [['a.ts', 'b.ts'], 'roundtrip serve: give exactly one module (got a.ts, b.ts).\n'],
      [['serve-definitions.ts', '--port', '1'], 'roundtrip serve: unknown option --port.\n'],
      [['serve-definitions.ts', '--key-fle', 'k'], "roundtrip serve: unknown option --key-fle. Did you mean '--key-file'?\n"],
      [['serve-definitions.ts', '--ttl'], 'roundtrip serve: --ttl needs the state lifetime in seconds.\n'],
      [['serve-definitions.ts', '--principal', '--ttl', '5'], 'roundtrip serve: --principal needs the identity states are bound to.\n'],
      [
        ['serve-definitions.ts', '--inspect', 'ftp://x'],
        "roundtrip serve: --inspect is 'ftp://x'; give the address of an inspector page, such as http://127.0.0.1:4343, or stately.\n",
      ],
      [
        ['serve-definitions.ts', '--ttl', 'soon'],
        'roundtrip serve: --ttl is "soon"; give the state lifetime in whole seconds from 1 to 604800 (default 600).\n',
      ],
      [
        ['serve-definitions.ts', '--max-rounds=5000'],
        'roundtrip serve: --max-rounds is "5000"; give the number of rounds one request may take, a whole number from 1 to 1000 (default 64).\n',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run('serve', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err.startsWith(message), result.err).toBe(true);
      // the problem and where the usage is, not the whole usage burying it
      expect(result.err.slice(message.length)).toBe('Run `roundtrip serve --help` for its usage.\n');
      expect(result.out).toBe('');
    }
  });

  it('exits 1 when the module cannot be loaded or serves nothing, or its serverInfo is wrong', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'empty.ts'), 'export const nothing = 1;\n');
    await writeFile(join(dir, 'bad-info.ts'), `export { orderPizza } from '${MODULE}';\nexport const serverInfo = { name: 42 };\n`);
    const missing = await run('serve', join(dir, 'missing.ts'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`roundtrip serve: cannot load ${join(dir, 'missing.ts')}: `);
    expect(await run('serve', join(dir, 'empty.ts'))).toMatchObject({
      code: 1,
      err: `roundtrip serve: ${join(dir, 'empty.ts')} exports no tools, prompts or resources. Export them (or { tools, prompts, resources }).\n`,
    });
    expect(await run('serve', join(dir, 'bad-info.ts'))).toMatchObject({
      code: 1,
      err: `roundtrip serve: ${join(dir, 'bad-info.ts')}: serverInfo.name is not a non-empty string.\n`,
    });
  });
});
