// The PostgreSQL tests' skip line is said once per run, not once per test worker (it was said twice with two
// workers): sayOncePerRun in sibling processes, as the workers of one run are, says a line once between them.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const helper = new URL('./say-once-per-run.ts', import.meta.url).href;
const folder = mkdtempSync(join(tmpdir(), 'rt-say-once-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A child of this process saying `lines` through sayOncePerRun, with `folder` as its temporary folder; resolves with its stderr. */
async function sayIn(lines: string[]): Promise<string> {
  const code = `import { sayOncePerRun } from ${JSON.stringify(helper)};\nfor (const line of ${JSON.stringify(lines)}) sayOncePerRun(line);`;
  // Node strips the helper's types itself (it imports only node: modules): no loader to start in each child
  const { stderr } = await run(process.execPath, ['--experimental-strip-types', '--no-warnings', '--input-type=module', '-e', code], {
    env: { ...process.env, TMPDIR: folder },
  });
  return stderr;
}

describe('sayOncePerRun', () => {
  it('says a line once among the processes of one run, and each other line once too', async () => {
    const said = (await Promise.all([sayIn(['skipping A']), sayIn(['skipping A', 'skipping B']), sayIn(['skipping A'])])).join('');
    expect(said.split('\n').filter(Boolean).sort()).toEqual(['skipping A', 'skipping B']);
  });
});
