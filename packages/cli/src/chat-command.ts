// `roundtrip chat`: spawns a server, lists what it offers, and lets the person run one thing after
// the other (arguments asked as a form, the server's questions answered at the terminal) until they quit.
import { hostNotes } from './call-command.ts';
import type { CommandIo } from './command-io.ts';
import { EXIT } from './host/explain-failure.ts';
import { parseHostArgs } from './host/host-args.ts';
import { runAndPrint, type Session, withSession } from './host/host-session.ts';
import { findOfferings, listOfferings, type Offering, type OfferingKind } from './host/offerings.ts';
import { askArguments } from './host/run-offering.ts';

export const CHAT_USAGE = `Usage: roundtrip chat <module> [options]
       roundtrip chat [options] -- <server command…>

A terminal MCP host: lists the server's tools, prompts and resources, runs the one you pick (its
arguments asked as a form), answers the server's questions at the terminal, prints the result,
and asks again. At the menu: a number or name runs it, ? lists again, q (or Ctrl-D, or Ctrl-C) quits.
${hostNotes().replace(/\nExit codes:[\s\S]*$/, '')}
Exit codes: 0 quit; 1 the server refused to list what it offers; 2 the command line is wrong;
  3 the server could not start, or stopped; 130 interrupted (Ctrl-C) while connecting.`;

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
      const name =
        offering.kind === 'resource' ? `${offering.name}  ${dim(where)}` : where ? `${offering.name}  ${dim(where)}` : offering.name;
      session.terminal.say(`  ${String(n).padStart(width)}  ${name}${offering.title ? ` — ${offering.title}` : ''}\n`);
      if (offering.description) session.terminal.say(`  ${' '.repeat(width)}  ${dim(offering.description)}\n`);
    }
  }
  if (offerings.length === 0) session.terminal.say(`\n${dim('The server offers nothing.')}\n`);
}

/** The offering a menu answer picks: its number, or a name `findOfferings` knows. */
function pick(offerings: readonly Offering[], typed: string): Offering | string {
  if (/^\d+$/.test(typed)) return offerings[Number(typed) - 1] ?? `there is no number ${typed}: pick 1–${offerings.length}.`;
  const found = findOfferings(offerings, typed);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) return `nothing is named '${typed}': pick a number or a name from the list (? shows it).`;
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
  terminal.say(`${bold(`Connected to ${connection.server}`)} ${dim(`(protocol ${connection.protocolVersion})`)}\n`);
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
    const label = chosen.kind === 'resource' ? `resource ${chosen.uri}` : `${chosen.kind} ${chosen.name}`;
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
  const parsed = parseHostArgs('chat', argv, io.cwd, 0);
  if (!parsed.ok) {
    if (parsed.help) {
      io.out.write(`${CHAT_USAGE}\n`);
      return EXIT.ok;
    }
    io.err.write(`roundtrip chat: ${parsed.problem}\n\n${CHAT_USAGE}\n`);
    return EXIT.usage;
  }
  return withSession('chat', parsed.value, io, loop);
}
