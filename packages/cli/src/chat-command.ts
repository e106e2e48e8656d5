// `roundtrip chat`: spawns a server (or reaches one at a URL), lists what it offers, and lets the person run one thing after
// the other (arguments asked as a form, the server's questions answered at the terminal) until they quit.

import { didYouMean } from '@roundtrip/mcp/internal';
import { checkServeValues, hostNotes } from './call-command.ts';
import type { CommandIo } from './command-io.ts';
import { EXIT } from './exit-codes.ts';
import { displayLine, displayText } from './host/display-text.ts';
import { parseHostArgs } from './host/host-args.ts';
import { runAndPrint, type Session, withSession } from './host/host-session.ts';
import { findOfferings, listOfferings, type Offering, type OfferingKind, offeringLabel } from './host/offerings.ts';
import { askArguments } from './host/run-offering.ts';
import { usageError } from './usage-error.ts';

export const CHAT_USAGE = `Usage: roundtrip chat <module> [options]
       roundtrip chat [options] -- <server command…>
       roundtrip chat --url <url> [--header 'Name: value']… [--era <version>]

A terminal MCP host: lists the server's tools, prompts and resources, runs the one you pick (its
arguments asked as a form), answers the server's questions at the terminal, prints the result,
and asks again. At the menu: a number or name runs it, ? lists again, q (or Ctrl-D, or Ctrl-C) quits
(exit code 0). Ctrl-C at a question or while the server works interrupts that run: back at the menu.
On 2026-07-28 it accepts MCP tasks, as call does: a long step's progress shows as it changes (a bar when
it says "<n> of <m>"), its questions are asked the same way, and Ctrl-C cancels it.
Exit code 1: the server refused to list what it offers; 130: Ctrl-C while connecting.
${hostNotes()}`;

const SECTIONS: readonly [OfferingKind, string][] = [
  ['tool', 'Tools'],
  ['prompt', 'Prompts'],
  ['resource', 'Resources'],
  ['template', 'Resource templates'],
];

function showMenu(session: Session, offerings: readonly Offering[]): void {
  const { bold, dim } = session.terminal.style;
  const width = String(offerings.length).length;
  for (const [kind, heading] of SECTIONS) {
    const items = offerings.map((offering, i) => ({ offering, n: i + 1 })).filter(({ offering }) => offering.kind === kind);
    if (items.length === 0) continue;
    session.terminal.say(`\n${bold(heading)}\n`);
    for (const { offering, n } of items) {
      const where = offering.kind === 'resource' ? offering.uri : offering.kind === 'template' ? offering.uriTemplate : '';
      const name = where ? `${displayLine(offering.name)}  ${dim(displayLine(where))}` : displayLine(offering.name);
      session.terminal.say(`  ${String(n).padStart(width)}  ${name}${offering.title ? ` — ${displayLine(offering.title)}` : ''}\n`);
      if (offering.description) session.terminal.say(`  ${' '.repeat(width)}  ${dim(displayText(offering.description))}\n`);
    }
  }
  if (offerings.length === 0) session.terminal.say(`\n${dim('The server offers nothing.')}\n`);
}

/** The offering a menu answer picks: its number, or a name `findOfferings` knows. */
function pick(offerings: readonly Offering[], typed: string): Offering | string {
  if (/^\d+$/.test(typed)) return offerings[Number(typed) - 1] ?? `there is no number ${typed}: pick 1–${offerings.length}.`;
  const found = findOfferings(offerings, typed);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    const names = offerings.map((o) => displayLine(o.kind === 'resource' ? o.uri : o.name));
    return `nothing is named '${typed}'.${didYouMean(typed, names)} Pick a number or a name from the list (? shows it).`;
  }
  return `'${typed}' names more than one thing: pick it by number.`;
}

async function loop(session: Session): Promise<number> {
  const { terminal, connection } = session;
  const { bold, dim, red } = terminal.style;
  let offerings: Offering[];
  try {
    offerings = await listOfferings(connection.client);
  } catch (error) {
    return session.fail(error);
  }
  const server = displayLine(connection.server);
  terminal.say(`${bold(`Connected to ${server}`)} ${dim(`(protocol ${displayLine(connection.protocolVersion)})`)}\n`);
  showMenu(session, offerings);
  terminal.say(`\n${dim('Pick a number or a name; ? lists them again; q quits.')}\n`);
  for (;;) {
    const answer = await terminal.ask(`\n${bold('roundtrip>')} `);
    if (answer.kind !== 'line') return EXIT.ok;
    const typed = answer.text.trim();
    if (typed === '') continue;
    if (typed === 'q' || typed === 'quit' || typed === 'exit') return EXIT.ok;
    if (typed === '?' || typed === 'help' || typed === 'ls') {
      showMenu(session, offerings);
      continue;
    }
    const chosen = pick(offerings, typed);
    if (typeof chosen === 'string') {
      terminal.say(`${red(chosen)}\n`);
      continue;
    }
    const label = offeringLabel(chosen);
    const form = await askArguments(terminal, chosen, label);
    if (form.action !== 'accept') continue;
    terminal.say(`${dim(`Running ${label}…`)}\n`);
    const code = await runAndPrint(session, chosen, form.content);
    if (connection.closed()) return EXIT.server;
    if (code === EXIT.interrupted) terminal.say(`${dim('Interrupted; back at the menu.')}\n`);
  }
}

/** `roundtrip chat …`: resolves to the exit code. */
export async function chatCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseHostArgs('chat', argv, io.cwd, 0, io.launcher);
  if (!parsed.ok) {
    if (parsed.help) {
      io.out.write(`${CHAT_USAGE}\n`);
      return EXIT.ok;
    }
    return usageError(io, 'chat', parsed.problem);
  }
  const badValue = await checkServeValues(parsed.value);
  if (badValue) return usageError(io, 'chat', badValue);
  return withSession('chat', parsed.value, io, loop);
}
