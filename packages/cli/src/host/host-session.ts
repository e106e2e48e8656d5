// One session of the terminal host: the terminal opened, the server spawned and connected, the
// command's work done, and everything closed again; every failure explained with the right exit code.
import type { CommandIo } from '../command-io.ts';
import { EXIT } from '../exit-codes.ts';
import { connectHost, type HostConnection } from './connect-host.ts';
import { explainFailure, formatServerLog } from './explain-failure.ts';
import type { HostArgs } from './host-args.ts';
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
  const explain = (error: unknown, connecting: boolean, log: string) => {
    const failure = explainFailure(error, { era: args.era, server: args.target.label, connecting });
    io.err.write(`${red(`roundtrip ${command}: ${failure.message}`)}\n`);
    if (failure.showLog) io.err.write(formatServerLog(log, dim));
    return failure.code;
  };
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
    return explain(error, true, (error as { serverLog?: string }).serverLog ?? '');
  }
  terminal.onInterrupt(undefined);
  try {
    return await work({
      connection,
      terminal,
      io,
      args,
      fail: async (error) => explain(error, false, command === 'call' ? await connection.closeAndReadLog() : connection.serverLog()),
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
  const mark = session.connection.logMark();
  try {
    const outcome = await runOffering(session.connection.client, offering, args, abort.signal);
    const { text, isError } = formatResult(outcome);
    session.io.out.write(text);
    // an error result often says "see the server's log": show what the server wrote meanwhile
    const log = session.connection.serverLog(mark);
    if (isError && log.trim() !== '') session.io.err.write(formatServerLog(log, session.terminal.style.dim));
    return isError ? EXIT.failed : EXIT.ok;
  } catch (error) {
    // the client rejects an aborted request with a RequestTimeout SdkError: Ctrl-C is said as what it was
    return session.fail(abort.signal.aborted ? abort.signal.reason : error);
  } finally {
    session.terminal.onInterrupt(undefined);
  }
}
