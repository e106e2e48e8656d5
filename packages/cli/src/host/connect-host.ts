// Spawns the server and connects the official v2 client to it over stdio, at the chosen era, with
// form and URL elicitation declared and answered at the terminal. The server's stderr is kept (and
// appended to --server-log), never interleaved with the questions: it is shown when something fails.
import { appendFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createElicitationAnswerer } from './answer-elicitation.ts';
import type { Era, ServerTarget } from './host-args.ts';
import type { Terminal } from './terminal.ts';

/** How many characters of the server's log are kept to show on failure. */
const LOG_KEPT = 16_000;
/** Rounds one call may take on 2026-07-28, re-asks included (the client's default of 10 is short for a person). */
const MAX_ROUNDS = 50;

export interface HostConnection {
  readonly client: Client;
  /** `name version` of the server, and the protocol version spoken. */
  readonly server: string;
  readonly protocolVersion: string;
  /** The last part of what the server wrote to stderr (since `mark`, a value of `logMark()`, when given). */
  serverLog(mark?: number): string;
  /** How much the server has written to stderr so far: a mark for `serverLog`. */
  logMark(): number;
  /** Whether the server process has gone (its connection closed). */
  closed(): boolean;
  close(): Promise<void>;
  /**
   * Closes the connection and resolves, once the server's stderr has ended, with all it wrote (since
   * `mark`): a server writes its log and its reply on two pipes, so the reply can arrive first.
   */
  closeAndReadLog(mark?: number): Promise<string>;
}

export interface ConnectHostOptions {
  target: ServerTarget;
  era: Era;
  terminal: Terminal;
  cwd: string;
  /** A file to append the server's stderr to. */
  serverLogFile?: string;
}

/**
 * The SDK's stdio transport probes a 2026-07-28 server on a disposable sibling process whose stderr is
 * dropped; a subclass probes in place: one spawn, and the log of a server that fails at once is kept.
 */
class HostStdioTransport extends StdioClientTransport {}

/** The server's environment: the person's own shell (ROUNDTRIP_KEY, ROUNDTRIP_PRINCIPAL …), over the target's defaults. */
function environment(defaults: Readonly<Record<string, string>> = {}): Record<string, string> {
  const own = Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  // a variable set empty is unset to the server, so the default stands
  return { ...defaults, ...Object.fromEntries(own.filter(([name, value]) => !(name in defaults) || value.trim() !== '')) };
}

function createClient(era: Era): Client {
  const info = { name: 'roundtrip-terminal-host', version: '0.1.0' };
  const capabilities = { elicitation: { form: {}, url: {} } };
  if (era === '2026-07-28') {
    return new Client(info, {
      capabilities,
      versionNegotiation: { mode: { pin: era } },
      inputRequired: { autoFulfill: true, maxRounds: MAX_ROUNDS },
    });
  }
  return new Client(info, { capabilities, versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [era] });
}

/** Connects to the server; throws (the log kept so far attached as `serverLog`) when it cannot. */
export async function connectHost({ target, era, terminal, cwd, serverLogFile }: ConnectHostOptions): Promise<HostConnection> {
  const client = createClient(era);
  client.setRequestHandler('elicitation/create', createElicitationAnswerer(terminal));
  const transport = new HostStdioTransport({
    command: target.command,
    args: [...target.args],
    cwd,
    env: environment(target.env),
    stderr: 'pipe',
  });
  let log = '';
  let written = 0;
  let closed = false;
  const stderr = transport.stderr;
  const stderrEnded = new Promise<void>((resolve) => {
    if (!stderr) resolve();
    else stderr.once('close', resolve).once('end', resolve);
  });
  stderr?.on('data', (chunk: Buffer | string) => {
    const text = chunk.toString();
    written += text.length;
    log = (log + text).slice(-LOG_KEPT);
    if (serverLogFile) {
      try {
        appendFileSync(serverLogFile, text);
      } catch {
        // a log file that cannot be written must not stop the conversation; the log is still kept here
      }
    }
  });
  client.onclose = () => {
    closed = true;
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { serverLog: log });
  }
  const version = client.getServerVersion();
  const serverLog = (mark = 0) => log.slice(Math.max(0, log.length - (written - mark)));
  return {
    client,
    server: version ? `${version.name} ${version.version}` : target.label,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? era,
    serverLog,
    logMark: () => written,
    closed: () => closed,
    close: () => client.close(),
    closeAndReadLog: async (mark) => {
      await client.close().catch(() => undefined);
      await stderrEnded;
      return serverLog(mark);
    },
  };
}
