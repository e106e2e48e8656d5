// `roundtrip call` and `roundtrip chat` in a real pseudo-terminal (tmux): a person types the answers,
// presses Enter for defaults and Ctrl-C to cancel. The command and its server (the command's own `serve`
// of a module, given after `--`) are the bundled ones (see bundled-cli.ts): each starts in a fraction of
// the time the workspace bin takes; call-command.test.ts runs `call <module>.ts` through the real bin.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BundledCli, bundleCli } from './fixtures/bundled-cli.ts';
import { hasTmux, openTmuxPane, type TmuxPane } from './fixtures/tmux-pane.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const env = { ROUNDTRIP_KEY: randomBytes(32).toString('base64url'), ROUNDTRIP_LEDGER: ':memory:', ROUNDTRIP_PRINCIPAL: 'tester' };
let bundled: BundledCli;
beforeAll(async () => {
  if (hasTmux) bundled = await bundleCli('trip-definitions');
});
afterAll(() => bundled?.remove());
const panes: TmuxPane[] = [];
afterEach(() => {
  for (const pane of panes.splice(0)) pane.close();
});

/** `roundtrip <args…> -- <the bundled serve of trip-definitions>` in a new pane. */
function open(...args: string[]) {
  const pane = openTmuxPane([...bundled.launcher, ...args, '--', ...bundled.launcher, 'serve', bundled.module('trip-definitions')], {
    cwd: here,
    env,
  });
  panes.push(pane);
  return pane;
}

describe.skipIf(!hasTmux && process.env.CI !== 'true')('the terminal host in a pseudo-terminal', { timeout: 120_000 }, () => {
  it('call: asks the arguments, both questions, re-asks with the reason, and prints the result', async () => {
    const pane = open('call', 'plan_trip');
    await pane.waitFor('Arguments of tool plan_trip');
    await pane.waitFor('traveller *');
    pane.line('Ada');
    await pane.waitFor('Where should Ada go?');
    pane.line('Atlantis');
    await pane.waitFor('Nights (whole number, 1–14) [3]');
    pane.line('');
    await pane.waitFor('2) Plane');
    pane.line('');
    const reasked = await pane.waitFor('Your last answer was not accepted: Atlantis is not on the map.');
    pane.line('Rome');
    await pane.waitFor('Nights', { from: reasked.lastIndexOf('not on the map') });
    pane.line('4');
    await pane.waitFor('Travel by', { from: reasked.lastIndexOf('not on the map') });
    pane.line('2');
    await pane.waitFor('Book 4 nights in Rome?');
    pane.line('maybe');
    await pane.waitFor('✗ answer yes or no (y/n). Try again.');
    pane.line('y');
    const done = await pane.waitFor('Booked: 4 nights in Rome for Ada, by plane.');
    expect(done).toContain('"booked": true');
    expect(await pane.exitStatus()).toBe(0);
  });

  it('call: Ctrl-C at a field cancels the question; the tool says so and the command exits 1', async () => {
    const pane = open('call', 'plan_trip', '--args', '{"traveller":"Bo"}');
    await pane.waitFor('City *');
    pane.keys('C-c');
    await pane.waitFor("Nothing planned: the question 'where' was cancelled.");
    expect(await pane.exitStatus()).toBe(1);
  });

  it('chat: lists what the server offers, runs a prompt and a resource template, and quits on Ctrl-D', async () => {
    const pane = open('chat', '--era', '2025-11-25');
    const menu = await pane.waitFor('roundtrip>');
    expect(menu).toContain('Connected to trips 1.2.3 (protocol 2025-11-25)');
    expect(menu).toContain('1  plan_trip — Plan a trip');
    expect(menu).toContain('3  weather  trip://{city}/weather');
    pane.line('postcard');
    await pane.waitFor('to *');
    pane.line('Mum');
    await pane.waitFor('Which tone for Mum?');
    pane.line('funny');
    await pane.waitFor('[user] Write a funny postcard to Mum.');
    pane.line('3');
    await pane.waitFor('city *');
    pane.line('Oslo');
    await pane.waitFor('Day *');
    pane.line('2026-13-01');
    await pane.waitFor('✗ that is not a date (YYYY-MM-DD).');
    pane.line('2026-12-01');
    const read = await pane.waitFor('Sunny in Oslo on 2026-12-01.');
    pane.keys('C-d');
    expect(await pane.exitStatus()).toBe(0);
    expect(read).toContain('[trip://Oslo/weather text/plain]');
  });
});
