// The link to a server this host starts: the process spawned with the person's environment over its
// defaults, spoken to over stdio. Its stderr is kept (and appended to --server-log), never interleaved
// with the questions: it is shown when something fails.
import { appendFileSync } from 'node:fs';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { SpawnTarget } from './host-args.ts';

/** How many characters of the server's log are kept to show on failure. */
const LOG_KEPT = 16_000;

/**
 * The SDK's stdio transport probes a 2026-07-28 server on a disposable sibling process whose stderr is
 * dropped; a subclass probes in place: one spawn, and the log of a server that fails at once is kept.
 */
class HostStdioTransport extends StdioClientTransport {}

export interface StdioLink {
  readonly transport: StdioClientTransport;
  /** The last part of what the server wrote to stderr (since `mark`, a value of `mark()`, when given). */
  text(mark?: number): string;
  /** How much the server has written to stderr so far. */
  mark(): number;
  /** Resolves once the server's stderr has ended (after the process closed it). */
  readonly ended: Promise<void>;
}

/** The server's environment: the person's own shell (ROUNDTRIP_KEY, ROUNDTRIP_PRINCIPAL …), over the target's defaults. */
function environment(defaults: Readonly<Record<string, string>> = {}): Record<string, string> {
  const own = Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  // a variable set empty is unset to the server, so the default stands
  return { ...defaults, ...Object.fromEntries(own.filter(([name, value]) => !(name in defaults) || value.trim() !== '')) };
}

/** The transport that spawns `target` (on connect) and keeps what it writes to stderr. */
export function openStdioLink(target: SpawnTarget, cwd: string, serverLogFile: string | undefined): StdioLink {
  const transport = new HostStdioTransport({
    command: target.command,
    args: [...target.args],
    cwd,
    env: environment(target.env),
    stderr: 'pipe',
  });
  let log = '';
  let written = 0;
  const stderr = transport.stderr;
  const ended = new Promise<void>((resolve) => {
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
  return {
    transport,
    text: (mark = 0) => log.slice(Math.max(0, log.length - (written - mark))),
    mark: () => written,
    ended,
  };
}
