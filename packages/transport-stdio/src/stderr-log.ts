import type { EngineLogEntry } from '@roundtrip/engine';

/** Writes one line per entry to stderr (stdout belongs to the protocol). */
export function createStderrLog(serverName: string, write: (line: string) => void = (line) => process.stderr.write(line)) {
  return (entry: EngineLogEntry) => {
    const where = [entry.target, entry.run && `run ${entry.run}`].filter(Boolean).join(' ');
    let line = `[${serverName}] ${entry.level} ${entry.event}${where ? ` (${where})` : ''}: ${entry.message}\n`;
    if (entry.error !== undefined) {
      const error = entry.error;
      line += `    ${error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : describe(error)}\n`.replace(
        /\n(?!$)/g,
        '\n    ',
      );
    }
    write(line);
  };
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
