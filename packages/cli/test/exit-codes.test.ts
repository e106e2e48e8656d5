// One table of exit codes for every command: `roundtrip --help` and each command's help end with it,
// and the README documents the same codes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const TABLE_START = 'Exit codes (the same for every command):\n  0    done';
const TABLE_END = '  3    (call, chat) the server could not start (or, at --url, be reached), or stopped\n  130  interrupted (Ctrl-C)\n';

describe('exit codes', () => {
  it.each(['', 'serve', 'config', 'keys', 'call', 'chat', 'visualize', 'inspect'])(
    'roundtrip %s --help ends with the one table',
    async (command) => {
      const { code, out } = await runCommand([...(command ? [command] : []), '--help'], { cwd: here });
      expect(code).toBe(0);
      expect(out.indexOf(TABLE_START)).toBe(out.lastIndexOf(TABLE_START));
      expect(out.endsWith(TABLE_END), out).toBe(true);
      expect(out.slice(out.indexOf(TABLE_START))).toMatch(
        /^Exit codes[^\n]*\n {2}0 {4}done[\s\S]*\n {2}1 {4}failed[\s\S]*\n {2}2 {4}the command line is wrong/,
      );
    },
  );

  it('the README documents the same codes, in one table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const codes = [...readme.matchAll(/^\| (\d+) +\|/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual([0, 1, 2, 3, 130]);
    expect(readme).toContain('| code | meaning ');
  });
});
