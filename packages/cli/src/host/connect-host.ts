// Connects the official v2 client to the server, at the chosen era, with form and URL elicitation
// declared and answered at the terminal (and, on 2026-07-28, MCP tasks consented to; see task-handle.ts): over stdio to a server this host spawns (its stderr kept, see
// stdio-link.ts), or over Streamable HTTP to one already running at a URL (see http-link.ts).
import { Client } from '@modelcontextprotocol/client';
import { createElicitationAnswerer } from './answer-elicitation.ts';
import type { Era, ServerTarget } from './host-args.ts';
import { type HttpFailure, openHttpLink } from './http-link.ts';
import { openStdioLink } from './stdio-link.ts';
import { passTaskAnswers, TASKS_EXTENSION } from './task-handle.ts';
import type { Terminal } from './terminal.ts';

/** Rounds one call may take on 2026-07-28, re-asks included (the client's default of 10 is short for a person). */
const MAX_ROUNDS = 50;

/** What a server this host started writes to stderr. */
interface ServerLog {
  /** The last part of it (since `mark`, a value of `mark()`, when given). */
  text(mark?: number): string;
  /** How much the server has written so far: a mark for `text`. */
  mark(): number;
  /**
   * Closes the connection and resolves, once the server's stderr has ended, with all it wrote (since
   * `mark`): a server writes its log and its reply on two pipes, so the reply can arrive first.
   */
  closeAndRead(mark?: number): Promise<string>;
}

export interface HostConnection {
  readonly client: Client;
  /** `name version` of the server, and the protocol version spoken. */
  readonly server: string;
  readonly protocolVersion: string;
  /** The server's stderr: there is one only for a server this host started, none for one at a URL. */
  readonly log: ServerLog | undefined;
  /** How the last HTTP request to a server at a URL failed (undefined when it was answered, or over stdio). */
  httpFailure(): HttpFailure | undefined;
  /** Whether the connection has closed (the server process gone). */
  closed(): boolean;
  close(): Promise<void>;
}

export interface ConnectHostOptions {
  target: ServerTarget;
  era: Era;
  terminal: Terminal;
  cwd: string;
  /** A file to append the stderr of a server this host starts to. */
  serverLogFile?: string;
}

/** What a failed connection leaves to explain it: the log of a server started here, or how its HTTP request failed. */
export interface ConnectFailureDetails {
  readonly serverLog?: string;
  readonly httpFailure?: HttpFailure;
}

function createClient(era: Era): Client {
  const info = { name: 'roundtrip-terminal-host', version: '0.1.0' };
  const capabilities = { elicitation: { form: {}, url: {} } };
  if (era === '2026-07-28') {
    return new Client(info, {
      // tasks (SEP-2663) are defined on 2026-07-28 only: a call may answer one, followed by follow-task.ts
      capabilities: { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } },
      versionNegotiation: { mode: { pin: era } },
      inputRequired: { autoFulfill: true, maxRounds: MAX_ROUNDS },
    });
  }
  return new Client(info, { capabilities, versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [era] });
}

/** Connects to the server; throws (with `ConnectFailureDetails` attached) when it cannot. */
export async function connectHost({ target, era, terminal, cwd, serverLogFile }: ConnectHostOptions): Promise<HostConnection> {
  const client = createClient(era);
  client.setRequestHandler('elicitation/create', createElicitationAnswerer(terminal));
  const stdio = target.kind === 'spawn' ? openStdioLink(target, cwd, serverLogFile) : undefined;
  const http = target.kind === 'url' ? openHttpLink(target) : undefined;
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  try {
    await client.connect((stdio ?? http)!.transport);
    passTaskAnswers((stdio ?? http)!.transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const details: ConnectFailureDetails = stdio
      ? { serverLog: stdio.text() }
      : { ...(http?.failure() && { httpFailure: http.failure() }) };
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), details);
  }
  const version = client.getServerVersion();
  const log: ServerLog | undefined = stdio && {
    text: stdio.text,
    mark: stdio.mark,
    closeAndRead: async (mark) => {
      await client.close().catch(() => undefined);
      await stdio.ended;
      return stdio.text(mark);
    },
  };
  return {
    client,
    server: version ? `${version.name} ${version.version}` : target.label,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? era,
    log,
    httpFailure: () => http?.failure(),
    closed: () => closed,
    close: () => client.close(),
  };
}
