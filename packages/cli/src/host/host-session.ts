// One session of the terminal host: the terminal opened, the server spawned (or reached at its URL) and
// connected, the command's work done, and everything closed again; every failure explained with the
// right exit code.
import type { CommandIo } from '../command-io.ts';
import { EXIT } from '../exit-codes.ts';
import { type ConnectFailureDetails, connectHost, type HostConnection } from './connect-host.ts';
import { explainFailure, formatServerLog } from './explain-failure.ts';
import type { HostArgs } from './host-args.ts';
import type { HttpFailure } from './http-link.ts';
import type { Offering } from './offerings.ts';
import { formatResult } from './print-result.ts';
import { runOffering } from './run-offering.ts';
import { createTerminal, type Terminal } from './terminal.ts';

export interface Session {
  readonly connection: HostConnection;
  readonly terminal: Terminal;
  readonly io: CommandIo;
  readonly args: HostArgs;
  /**
   * Writes `roundtrip <command>: <message>` on stderr, with the server log when it helps; resolves with
   * the exit code. For `call`, whose failure ends it, the server is closed first, so its log is whole.
   */
  fail(error: unknown): Promise<number>;
  /**
   * What a server this host started wrote to stderr since `mark` (undefined for a server at a URL). For
   * `call`, whose result ends it, the server is closed first and its stderr read to the end: a server
   * writes its log and its reply on two pipes, so the reply can arrive before the last log line.
   */
  serverLog(mark?: number): Promise<string | undefined>;
}

/** Why a question may not reach this host from a server at a URL on a 2025 era: shown after an error result there. */
const LEGACY_OVER_HTTP =
  'Note: on a 2025 era, an HTTP server that is stateless and does not ask on the call’s own stream (roundtrip serve --http does) ' +
  'cannot send this host its questions (elicitation/create): a tool that asks fails, or falls back to the model. ' +
  'Run with --era 2026-07-28 (the default) to answer them here.';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** A warning when a credential header would cross the network unencrypted (http:// to another machine). */
function plainAuthorization(args: HostArgs): string | undefined {
  const { target } = args;
  if (target.kind !== 'url' || target.url.protocol !== 'http:' || LOOPBACK.test(target.url.hostname)) return undefined;
  const secret = target.headers.find(({ name }) => /^(authorization|proxy-authorization|cookie|x-api-key)$/i.test(name));
  return secret
    ? `Note: ${secret.name} goes to ${target.url.host} unencrypted (http://); anyone on the way can read it. Use https:// beyond this machine.`
    : undefined;
}

/** Opens the terminal and the connection, runs `work`, and closes both. */
export async function withSession(
  command: 'call' | 'chat',
  args: HostArgs,
  io: CommandIo,
  work: (session: Session) => Promise<number>,
): Promise<number> {
  const terminal = createTerminal({ input: io.in ?? process.stdin, output: io.err });
  const { dim, red } = terminal.style;
  /** `log`: what a server started here wrote (none for one at a URL); `httpFailure`: how its last HTTP request failed. */
  const explain = (error: unknown, connecting: boolean, log: string | undefined, httpFailure: HttpFailure | undefined) => {
    const failure = explainFailure(error, { era: args.era, target: args.target, connecting, httpFailure });
    io.err.write(`${red(`roundtrip ${command}: ${failure.message}`)}\n`);
    if (failure.showLog && log !== undefined) io.err.write(formatServerLog(log, dim));
    return failure.code;
  };
  const plain = plainAuthorization(args);
  if (plain) io.err.write(`${dim(plain)}\n`);
  // Ctrl-C while connecting: nothing to cancel yet but the command itself
  terminal.onInterrupt(() => {
    io.err.write(`${red(`roundtrip ${command}: interrupted.`)}\n`);
    process.exit(EXIT.interrupted);
  });
  let connection: HostConnection;
  try {
    connection = await connectHost({
      target: args.target,
      era: args.era,
      terminal,
      cwd: io.cwd,
      ...(args.serverLog && { serverLogFile: args.serverLog }),
    });
  } catch (error) {
    terminal.close();
    const details = error as ConnectFailureDetails;
    return explain(error, true, args.target.kind === 'spawn' ? (details.serverLog ?? '') : undefined, details.httpFailure);
  }
  terminal.onInterrupt(undefined);
  const serverLog = async (mark?: number) => {
    const { log } = connection;
    return log && (command === 'call' ? await log.closeAndRead(mark) : log.text(mark));
  };
  try {
    return await work({
      connection,
      terminal,
      io,
      args,
      serverLog,
      fail: async (error) => explain(error, false, await serverLog(), connection.httpFailure()),
    });
  } finally {
    terminal.close();
    await connection.close().catch(() => undefined);
  }
}

/**
 * Runs one offering and prints its result on stdout. Ctrl-C while the server works aborts the request.
 * Resolves with the exit code: 0, 1 for an error result or a refused request, 3 when the server stopped, 130 when interrupted.
 */
export async function runAndPrint(session: Session, offering: Offering, args: Record<string, unknown>): Promise<number> {
  const abort = new AbortController();
  session.terminal.onInterrupt(() => abort.abort());
  const { log } = session.connection;
  const { dim } = session.terminal.style;
  const mark = log?.mark();
  try {
    const outcome = await runOffering(session.connection.client, session.terminal, offering, args, abort.signal);
    const { text, isError } = formatResult(outcome);
    session.io.out.write(text);
    // an error result often says "see the server's log": show what the server wrote meanwhile
    const written = isError ? ((await session.serverLog(mark)) ?? '') : '';
    if (isError && written.trim() !== '') session.io.err.write(formatServerLog(written, dim));
    if (isError && session.args.target.kind === 'url' && session.args.era !== '2026-07-28')
      session.io.err.write(`${dim(LEGACY_OVER_HTTP)}\n`);
    return isError ? EXIT.failed : EXIT.ok;
  } catch (error) {
    // the client rejects an aborted request with a RequestTimeout SdkError: Ctrl-C is said as what it was
    return session.fail(abort.signal.aborted ? abort.signal.reason : error);
  } finally {
    session.terminal.onInterrupt(undefined);
  }
}
