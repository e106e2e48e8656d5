// `roundtrip call` and `roundtrip chat` show what a server sends with terminal escapes, bidi overrides,
// zero-width characters and lone carriage returns made visible: a server that puts them in its name,
// titles, questions, results, errors and log cannot retitle, clear or rewrite the person's terminal, nor
// pass off the text `\x1b` it sends as an escape shown.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOSTILE_SHOWN, hostileServer, RAW } from './fixtures/hostile-server.ts';
import { runCommand } from './fixtures/run-command.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const run = (args: string[], lines: string[] = []) => runCommand(args, { cwd: here, lines });
const era = ['--era', '2025-11-25'];

describe("a server's text at the terminal", { timeout: 60_000 }, () => {
  it('call: the question, its titles and options, the result text and its structured content are shown escaped', async () => {
    const { code, out, err } = await run(['call', 'ask', ...era, '--args', '{"who":"Ada"}', '--', ...hostileServer()], ['2']);
    expect(err).toContain(`Question${HOSTILE_SHOWN}\n`);
    expect(err).toContain(`Pick${HOSTILE_SHOWN} *`);
    expect(err).toContain(`One of two${HOSTILE_SHOWN}\n`);
    expect(err).toContain(`1) Option A${HOSTILE_SHOWN}  (a)\n`);
    expect(err).toContain(`[Option A${HOSTILE_SHOWN}]`);
    // the text keeps its own new line; the structured content stays JSON, its escapes JSON's own
    expect(out).toBe(
      `Picked b${HOSTILE_SHOWN}\nsecond line\nstructuredContent:\n{\n  "note": "note\\u001b]0;pwned\\u0007\\u001b[2J\\rover\\u202eesrever\\u200bhidden\\\\x1b[2J"\n}\n`,
    );
    // an ESC shown escaped and the text `\x1b` the server sent read apart: the text's backslash is doubled
    expect(out.startsWith('Picked b\\x1b]0;pwned\\x07\\x1b[2J\\rover\\u202eesrever\\u200bhidden\\\\x1b[2J\n')).toBe(true);
    expect(JSON.parse(out.slice(out.indexOf('{'))).note).toMatch(RAW);
    expect(out).not.toMatch(RAW);
    expect(err).not.toMatch(RAW);
    expect(code).toBe(0);
  });

  it("call: the server's error, its log and the names it offers are shown escaped", async () => {
    const refused = await run(['call', 'fail', ...era, '--args', '{}', '--', ...hostileServer()]);
    expect(refused.err).toContain(`roundtrip call: the server refused the request: Refused${HOSTILE_SHOWN} (JSON-RPC error -32602).`);
    expect(refused.err).toContain(`  │ refusing${HOSTILE_SHOWN}\n`);
    expect(refused.err).not.toMatch(RAW);
    expect(refused.code).toBe(1);

    const unknown = await run(['call', 'hostile', ...era, '--', ...hostileServer()]);
    expect(unknown.err).toContain(`  tool hostile${HOSTILE_SHOWN}\n`);
    expect(unknown.err).not.toMatch(RAW);
    expect(unknown.code).toBe(2);
  });

  it("chat: the server's name, the menu and the arguments form are shown escaped", async () => {
    const { code, out, err } = await run(['chat', ...era, '--', ...hostileServer()], ['ask', 'Ada', '', 'q']);
    expect(err).toContain(`Connected to evil${HOSTILE_SHOWN} 1 (protocol 2025-11-25)`);
    expect(err).toContain(`1  ask — Ask${HOSTILE_SHOWN}\n     Asks one question${HOSTILE_SHOWN}\n`);
    expect(err).toContain(`3  hostile${HOSTILE_SHOWN}\n`);
    expect(err).toContain(`Who${HOSTILE_SHOWN} * (text)\n  Who asks${HOSTILE_SHOWN}\n`);
    expect(out).toContain(`Picked a${HOSTILE_SHOWN}\nsecond line\n`);
    expect(err).not.toMatch(RAW);
    expect(out).not.toMatch(RAW);
    expect(code).toBe(0);
  });
});
