import type { EngineLogEntry } from '@roundtrip/engine';

/** Writes one line per entry to stderr (stdout belongs to the protocol). Debug entries only with ROUNDTRIP_DEBUG. */
export function createStderrLog(serverName: string, write: (line: string) => void = (line) => process.stderr.write(line)) {
  const debug = Boolean(process.env.ROUNDTRIP_DEBUG);
  return (entry: EngineLogEntry | { level: EngineLogEntry['level']; event: string; message: string; error?: unknown; tool?: string; run?: string }) => {
    if (entry.level === 'debug' && !debug) return;
    const where = [entry.tool, entry.run && `run ${entry.run}`].filter(Boolean).join(' ');
    let line = `[${serverName}] ${entry.level} ${entry.event}${where ? ` (${where})` : ''}: ${entry.message}\n`;
    if (entry.error !== undefined) {
      const error = entry.error;
      line += `    ${error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : JSON.stringify(error)}\n`.replace(/\n(?!$)/g, '\n    ');
    }
    write(line);
  };
}
