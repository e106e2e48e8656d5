import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { turnOffPretenuring } from '../src/node/index.ts';
import { createBundles } from './fixtures/suite-bundle.ts';

const bundles = createBundles();
afterAll(() => bundles.remove());

/** Runs the probe in a node with `nodeArgs` and V8's pretenuring trace: its decision, and how many sites V8 weighed. */
async function probe(nodeArgs: string[]): Promise<{ decision: string; weighed: number }> {
  const script = await bundles.of(join(import.meta.dirname, 'fixtures', 'pretenuring-probe.ts'));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [...nodeArgs, '--trace-pretenuring-statistics', script]);
  return {
    decision: stderr.split('\n')[0]!,
    weighed: stdout.split('\n').filter((line) => line.includes('pretenuring: AllocationSite')).length,
  };
}

describe('turnOffPretenuring', () => {
  it('leaves pretenuring on when the command line names the flag, however it is spelled', () => {
    for (const flag of [
      '--allocation-site-pretenuring',
      '--allocation_site_pretenuring',
      '--no-allocation-site-pretenuring',
      '--noallocation-site-pretenuring',
      '--allocation-site-pretenuring=true',
    ])
      expect(turnOffPretenuring(['--enable-source-maps', flag])).toBe('kept_by_command_line');
  });

  it("turns it off in a real process: V8 weighs no allocation site's survivors any more", async () => {
    const [off, on] = await Promise.all([probe([]), probe(['--allocation-site-pretenuring'])]);
    expect(off.decision).toBe('turned_off');
    expect(on.decision).toBe('kept_by_command_line');
    // the same 12,000 short-lived actors: with pretenuring on, V8 weighs their sites at every scavenge
    expect(on.weighed).toBeGreaterThan(20);
    expect(off.weighed).toBe(0);
  });
});
