// A line a test helper writes to stderr once per test run, however many of the run's workers load it (the
// PostgreSQL tests' skip line, postgres-test-database.ts: every worker that loads a PostgreSQL test file
// imports that module once). The workers of a run are child processes of one vitest process, and the
// first of them to create a file named after that process and the line, exclusively, in the temporary
// folder says it; the others find the file there and stay quiet. Under the suite's configuration that folder
// is the run's own (packages/mcp/test/fixtures/suite-temp-folder-setup.ts), removed when the run ends.
import { createHash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes `line` to stderr unless another process of this test run (a child of the same parent) wrote it already.
 *
 * @example
 * if (skipPostgres) sayOncePerRun('skipping the PostgreSQL tests: …');
 */
export function sayOncePerRun(line: string): void {
  const digest = createHash('sha256').update(line).digest('hex').slice(0, 16);
  const claim = join(tmpdir(), `roundtrip-said-${process.ppid}-${digest}`);
  try {
    closeSync(openSync(claim, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    // a folder it cannot write to: better said twice than never
  }
  process.stderr.write(`${line}\n`);
}
