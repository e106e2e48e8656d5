// `roundtrip keys`: key files created, listed and rotated on disk, and an engine reading the rotated file
// still opening the states sealed before the rotation.
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, createKeyring, generateKey, type StepOutcome } from '@roundtrip/engine';
import { readKeyFile } from '@roundtrip/mcp/node';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from './fixtures/run-command.ts';
import { prompts } from './fixtures/serve-definitions.ts';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'roundtrip-keys-'));
  temps.push(dir);
  return dir;
}

const run = (cwd: string, ...args: string[]) => runCommand(args, { cwd });

const KID = /^[A-Za-z0-9_-]{8}$/;
/** The kid a command printed first on its stdout line. */
const kidOf = (out: string) => out.split(' ')[0]!;
const mode = async (path: string) => (await stat(path)).mode & 0o777;

/** An engine serving the fixture's prompt with the keys of `file`, as a server started now would. */
function serverWith(file: string) {
  const engine = createEngine({ prompts, keyring: createKeyring(readKeyFile(file, 'ROUNDTRIP_KEY_FILE')), audience: 'keys-test' });
  return (requestState?: string) =>
    engine.getPrompt({
      name: 'tone',
      principal: 'ada',
      capabilities: { elicitation: {} },
      ...(requestState && { requestState, inputResponses: { tone: { action: 'accept', content: { tone: 'warm' } } } }),
    });
}
const stateOf = (outcome: StepOutcome<unknown>) =>
  outcome.type === 'input_required' ? outcome.requestState : `not asked: ${outcome.type}`;

describe('roundtrip keys', () => {
  it('creates a key file with one fresh key, owner-only, in a new folder, and never over an existing file', async () => {
    const dir = await tempDir();
    const created = await run(dir, 'keys', 'new', 'nested/server.key');
    const file = join(dir, 'nested', 'server.key');
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toMatch(new RegExp(`^[A-Za-z0-9_-]{8} sealing \\(new key file ${file}\\)\\n$`));
    expect(await mode(file)).toBe(0o600);
    const keys = readKeyFile(file, 'test');
    expect(keys).toHaveLength(1);
    expect(createKeyring(keys).sealingKid).toBe(kidOf(created.out));
    expect(created.out).not.toContain(keys[0]);

    const text = await readFile(file, 'utf8');
    expect(await run(dir, 'keys', 'new', file)).toMatchObject({
      code: 1,
      err: `roundtrip keys new: ${file} exists already; it was left as it is. Add a key to it with \`roundtrip keys add ${file}\`.\n`,
    });
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('rotates: add opens, promote seals, retire removes; a server started with the rotated file still opens states sealed before', async () => {
    const dir = await tempDir();
    const file = join(dir, 'rotate.key');
    const oldKid = kidOf((await run(dir, 'keys', 'new', file)).out);
    const before = serverWith(file);
    const inFlight = stateOf(await before());
    expect(inFlight.startsWith(`rt1.${oldKid}.`)).toBe(true);

    const added = await run(dir, 'keys', 'add', file);
    const newKid = kidOf(added.out);
    expect(added).toMatchObject({ code: 0, out: `${newKid} opening only (added to ${file})\n` });
    expect(added.err).toBe(`Next: restart every server that uses ${file}, then run \`roundtrip keys promote ${file} ${newKid}\`.\n`);
    expect(newKid).toMatch(KID);
    expect((await run(dir, 'keys', 'list', file)).out).toBe(`${oldKid} sealing\n${newKid} opening only\n`);
    expect(stateOf(await serverWith(file)()).startsWith(`rt1.${oldKid}.`)).toBe(true);

    const promoted = await run(dir, 'keys', 'promote', file, newKid);
    expect(promoted).toMatchObject({ code: 0, out: `${newKid} sealing (${oldKid} now opening only)\n` });
    expect(promoted.err).toContain(`run \`roundtrip keys retire ${file} ${oldKid}\``);
    expect((await run(dir, 'keys', 'list', file)).out).toBe(`${newKid} sealing\n${oldKid} opening only\n`);
    expect(await mode(file)).toBe(0o600);
    expect(await run(dir, 'keys', 'promote', file, newKid)).toMatchObject({
      code: 0,
      out: `${newKid} sealing (already; ${file} is unchanged)\n`,
    });

    const after = serverWith(file);
    expect(await after(inFlight)).toMatchObject({ type: 'complete' });
    expect(stateOf(await after()).startsWith(`rt1.${newKid}.`)).toBe(true);

    expect(await run(dir, 'keys', 'retire', file, oldKid)).toMatchObject({ code: 0, out: `${oldKid} retired from ${file}\n` });
    expect((await run(dir, 'keys', 'list', file)).out).toBe(`${newKid} sealing\n`);
    expect(await serverWith(file)(inFlight)).toMatchObject({ type: 'error', error: { code: -32602 } });
  });

  it('keeps comments and blank lines where they are', async () => {
    const dir = await tempDir();
    const file = join(dir, 'commented.key');
    const first = kidOf((await run(dir, 'keys', 'new', file)).out);
    const [key] = readKeyFile(file, 'test');
    await writeFile(file, `# production key\n\n${key}\n# end\n`, { mode: 0o600 });
    const second = kidOf((await run(dir, 'keys', 'add', file)).out);
    const [, newKey] = readKeyFile(file, 'test');
    expect(await readFile(file, 'utf8')).toBe(`# production key\n\n${key}\n${newKey}\n# end\n`);
    await run(dir, 'keys', 'promote', file, second);
    expect(await readFile(file, 'utf8')).toBe(`# production key\n\n${newKey}\n${key}\n# end\n`);
    await run(dir, 'keys', 'retire', file, first);
    expect(await readFile(file, 'utf8')).toBe(`# production key\n\n${newKey}\n# end\n`);
  });

  it('refuses to retire the sealing key or the last key, or to touch an unknown kid, leaving the file as it was', async () => {
    const dir = await tempDir();
    const file = join(dir, 'refuse.key');
    const only = kidOf((await run(dir, 'keys', 'new', file)).out);
    const text = await readFile(file, 'utf8');
    expect(await run(dir, 'keys', 'retire', file, only)).toMatchObject({
      code: 1,
      err: `roundtrip keys retire: ${only} is the only key of ${file}; a server needs one. Add a new key (roundtrip keys add), promote it, then retire this one.\n`,
    });
    const other = kidOf((await run(dir, 'keys', 'add', file)).out);
    const sealing = await run(dir, 'keys', 'retire', file, only);
    expect(sealing.code).toBe(1);
    expect(sealing.err).toContain(`${only} is the sealing key of ${file}; promote another key first`);
    const unknown = await run(dir, 'keys', 'promote', file, 'AAAAAAAA');
    expect(unknown).toMatchObject({
      code: 1,
      err: `roundtrip keys promote: ${file} holds no key with id AAAAAAAA (its keys: ${only}, ${other}). Run \`roundtrip keys list ${file}\` to see them.\n`,
    });
    expect((await readFile(file, 'utf8')).startsWith(text)).toBe(true);
  });

  it('promotes and retires a key whose id begins with a dash (one key in 64): the id is not taken for an option', async () => {
    const dir = await tempDir();
    const file = join(dir, 'dash.key');
    const first = kidOf((await run(dir, 'keys', 'new', file)).out);
    let dashKey = generateKey();
    for (let tries = 0; !createKeyring([dashKey]).sealingKid.startsWith('-') && tries < 100_000; tries++) dashKey = generateKey();
    const dash = createKeyring([dashKey]).sealingKid;
    expect(dash.startsWith('-')).toBe(true);
    const [key] = readKeyFile(file, 'test');
    await writeFile(file, `${key}\n${dashKey}\n`, { mode: 0o600 });
    expect(await run(dir, 'keys', 'promote', file, dash)).toMatchObject({ code: 0, out: `${dash} sealing (${first} now opening only)\n` });
    expect(await run(dir, 'keys', 'promote', file, first)).toMatchObject({ code: 0 });
    expect(await run(dir, 'keys', 'retire', file, dash)).toMatchObject({ code: 0, out: `${dash} retired from ${file}\n` });
    expect(readKeyFile(file, 'test')).toEqual([key]);
  });

  it('checks the file as a server does before reading it: missing, writable by others, or holding a bad line', async () => {
    const dir = await tempDir();
    const missing = join(dir, 'missing.key');
    expect(await run(dir, 'keys', 'list', missing)).toMatchObject({
      code: 1,
      err: `roundtrip keys list: ${missing} does not exist. Create it with \`roundtrip keys new ${missing}\`.\n`,
    });
    const open = join(dir, 'open.key');
    await run(dir, 'keys', 'new', open);
    await chmod(open, 0o666);
    const refused = await run(dir, 'keys', 'add', open);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `The key file ${open} can be written by other users, who could plant a key and forge states. Run \`chmod 600 ${open}\``,
    );
    const readable = join(dir, 'readable.key');
    await run(dir, 'keys', 'new', readable);
    await chmod(readable, 0o644);
    const listed = await run(dir, 'keys', 'list', readable);
    expect(listed).toMatchObject({ code: 0, err: `warning: ${readable} can be read by other users; run \`chmod 600 ${readable}\`.\n` });
    const bad = join(dir, 'bad.key');
    await writeFile(bad, '# keys\nnot-a-key!\n', { mode: 0o600 });
    const badList = await run(dir, 'keys', 'list', bad);
    expect(badList.code).toBe(1);
    expect(badList.err).toMatch(/^roundtrip keys list: Line 2 of .*bad\.key.*base64url/);
  });

  it('prints its help with the rotation procedure, and refuses wrong arguments as usage errors (2)', async () => {
    const help = await run('.', 'keys', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Rotating the key while conversations are in flight:');
    expect(help.out).toContain('Exit codes (the same for every command):\n  0    done');
    const cases: Array<[string[], string]> = [
      [[], 'roundtrip keys: say what to do: new, list, add, promote or retire.\n'],
      [['rotate', 'f'], "roundtrip keys: unknown action 'rotate'; use new, list, add, promote or retire.\n"],
      [['list'], "roundtrip keys: list needs the key file's path.\n"],
      [['promote', 'f.key'], 'roundtrip keys: promote needs the id of a key; `roundtrip keys list f.key` shows them.\n'],
      [['new', 'f.key', 'extra'], 'roundtrip keys: too many arguments for new.\n'],
      [['list', 'f.key', '--all'], 'roundtrip keys: unknown option --all.\n'],
      [['lsit', 'f.key'], "roundtrip keys: unknown action 'lsit'; use new, list, add, promote or retire. Did you mean 'list'?\n"],
    ];
    for (const [args, message] of cases) {
      const result = await run('.', 'keys', ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err).toBe(`${message}Run \`roundtrip keys --help\` for its usage.\n`);
    }
  });
});
