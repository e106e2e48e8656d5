// `roundtrip call`: spawns a server (or reaches one at a URL), runs one tool, prompt or resource, answers
// its questions at the terminal, prints the result.

import { didYouMean } from '@roundtrip/mcp/internal';
import type { CommandIo } from './command-io.ts';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { checkArgumentNames } from './host/check-arguments.ts';
import { displayLine } from './host/display-text.ts';
import { type HostArgs, parseHostArgs } from './host/host-args.ts';
import { runAndPrint, withSession } from './host/host-session.ts';
import { findOfferings, listOfferings, offeringLabel } from './host/offerings.ts';
import { askArguments } from './host/run-offering.ts';
import { usageError } from './usage-error.ts';

/** What `call` and `chat` share in their help: the server, the questions, the options (`extra` first), the exit codes. */
export const hostNotes = (extra = '') => `Server: a module of definitions is served by \`roundtrip serve <module>\`, given the serve options
  (--key-file, --ledger, --principal, --ttl …; see roundtrip serve --help); any other stdio MCP server
  is given after \`--\` (\`--server\` may precede it), e.g. \`-- node apps/demo/bin/roundtrip-demo.mjs\`.
  It runs in the current folder with this shell's environment (ROUNDTRIP_KEY, ROUNDTRIP_PRINCIPAL …).
  Its stderr is not shown while you answer; it is printed (dimmed) when the server fails, and
  --server-log <file> appends all of it to a file (watch it with tail -f). What the server sends is
  shown with controls and invisible characters escaped (\\x1b, \\u202e).
  A server already running over Streamable HTTP is reached with --url (e.g. one roundtrip serve --http
  started), sent each --header on every request; nothing is started, so serve's options and
  --server-log do not apply. Header values are never shown in messages (Authorization is a secret).
  On a 2025 era a server at a URL asks on the call's stream if it can (roundtrip serve --http does); 2026-07-28 works with any.
Questions: each field shows its title, what fits and its [default]. Enter keeps the default or skips
  an optional field; a bad value is asked again with the reason. :decline refuses the question,
  :cancel cancels it (the server decides what follows), Ctrl-D (end of input) cancels too; Ctrl-C
  cancels it and interrupts the command. ::text means a value ":text".
  Selects take a number, a value or a title; multi selects a comma-separated list (- for none).
Options:
${extra}  --era <version>          2026-07-28 (default), 2025-11-25 or 2025-06-18
  --url <url>              the http:// or https:// address of a server already running (its MCP endpoint)
  --header 'Name: value'   an HTTP header sent with --url, e.g. 'Authorization: Bearer <token>' (repeatable)
  --server-log <file>      append the server's stderr to this file
  serve's options          passed on to \`roundtrip serve <module>\`

${EXIT_CODES_HELP}`;

export const CALL_USAGE = `Usage: roundtrip call <module> <name> [--args <json>] [options]
       roundtrip call <name> [--args <json>] [options] -- <server command…>
       roundtrip call <name> [--args <json>] --url <url> [--header 'Name: value']… [--era <version>]

Runs one tool, prompt or resource of a server, asks its questions at the terminal, prints the result.
<name> is a tool or prompt name, a resource URI or name, or a resource template name (its variables
come from --args). Prefix it with tool:, prompt:, resource: or template: when two kinds share it.
Without --args, the arguments are asked as a form. The result goes to stdout (text, then
structuredContent as JSON); questions and messages go to stderr. On 2026-07-28 it accepts MCP tasks:
a long step's progress shows as it changes (a bar when it says "<n> of <m>"), its questions are asked
the same way, and Ctrl-C cancels it.
Exit code 1: the result is an error (isError) or the server refused the request; 130: Ctrl-C, or the
arguments form cancelled.
${hostNotes(`  --args <json>            the arguments as a JSON object, e.g. --args '{"orderId":"A-1001"}'\n`)}`;

type ParsedArgs = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; problem: string };

function readArgs(text: string | undefined): ParsedArgs {
  if (text === undefined) return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `--args is not JSON (${(error as Error).message}). Quote it for the shell: --args '{"name":"value"}'.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: '--args must be a JSON object of argument names to values.' };
  return { ok: true, value: value as Record<string, unknown> };
}

async function call(args: HostArgs, given: Record<string, unknown> | undefined, io: CommandIo): Promise<number> {
  const typed = args.words[0]!;
  return withSession('call', args, io, async (session) => {
    let offerings: Awaited<ReturnType<typeof listOfferings>>;
    try {
      offerings = await listOfferings(session.connection.client);
    } catch (error) {
      return session.fail(error);
    }
    const found = findOfferings(offerings, typed);
    if (found.length !== 1) {
      const list = offerings.map((o) => `  ${offeringLabel(o)}`).join('\n') || '  (nothing)';
      const names = offerings.map((o) => displayLine(o.kind === 'resource' ? o.uri : o.name));
      const problem =
        found.length === 0
          ? `the server offers no tool, prompt or resource named '${typed}'.${didYouMean(typed, names)} It offers:\n${list}`
          : `'${typed}' names ${found.map(offeringLabel).join(' and ')}: prefix it with the kind (e.g. ${found[0]!.kind}:${typed}).`;
      io.err.write(`roundtrip call: ${problem}\n`);
      return EXIT.usage;
    }
    const offering = found[0]!;
    let values = given;
    if (values === undefined) {
      const form = await askArguments(session.terminal, offering, offeringLabel(offering));
      if (form.action !== 'accept') {
        io.err.write('roundtrip call: cancelled before the request was sent.\n');
        return EXIT.interrupted;
      }
      values = form.content;
    } else {
      const misnamed = checkArgumentNames(offering, values);
      if (misnamed) {
        io.err.write(`roundtrip call: ${misnamed}\n`);
        return EXIT.usage;
      }
    }
    return runAndPrint(session, offering, values);
  });
}

/** Why a serve option's value would stop the server (a limit out of range), before it is started. */
export async function checkServeValues(args: HostArgs): Promise<string | undefined> {
  if (args.settings.length === 0) return undefined;
  // loaded only then: call and chat do not load the server otherwise
  const { checkSettingValues } = await import('./serve-options.ts');
  return checkSettingValues(args.settings);
}

/** `roundtrip call …`: resolves to the exit code. */
export async function callCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseHostArgs('call', argv, io.cwd, 1, io.launcher);
  if (!parsed.ok) {
    if (parsed.help) {
      io.out.write(`${CALL_USAGE}\n`);
      return EXIT.ok;
    }
    return usageError(io, 'call', parsed.problem);
  }
  const given = readArgs(parsed.value.args);
  if (!given.ok) return usageError(io, 'call', given.problem);
  const badValue = await checkServeValues(parsed.value);
  if (badValue) return usageError(io, 'call', badValue);
  return call(parsed.value, given.value, io);
}
