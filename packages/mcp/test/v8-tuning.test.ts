import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tuneV8ForServing } from '../src/node/index.ts';
import { createBundles } from './fixtures/suite-bundle.ts';
import { TIER_UP_TUNED as TUNED_HERE } from './fixtures/v8-tuning-shown.ts';

const bundles = createBundles();
afterAll(() => bundles.remove());
const run = (nodeArgs: string[], script: string, args: string[] = []) =>
  promisify(execFile)(process.execPath, [...nodeArgs, script, ...args]);

/** Runs the pretenuring probe in a node with `nodeArgs` and V8's pretenuring trace: its decision, and how many sites V8 weighed. */
async function pretenuringProbe(nodeArgs: string[]): Promise<{ decision: string; weighed: number }> {
  const script = await bundles.of(join(import.meta.dirname, 'fixtures', 'pretenuring-probe.ts'));
  const { stdout, stderr } = await run([...nodeArgs, '--trace-pretenuring-statistics'], script);
  return {
    decision: stderr.split('\n')[0]!,
    weighed: stdout.split('\n').filter((line) => line.includes('pretenuring: AllocationSite')).length,
  };
}

/** Runs the tier-up probe: its decision, and the calls of a hot function before TurboFan optimized it. */
async function tierUpProbe(nodeArgs: string[], tuned: boolean): Promise<{ decision: string; calls: number }> {
  const script = await bundles.of(join(import.meta.dirname, 'fixtures', 'tier-up-probe.ts'));
  const { stdout } = await run([...nodeArgs, '--allow-natives-syntax', '--no-concurrent-recompilation'], script, tuned ? ['tuned'] : []);
  const [decision, calls] = stdout.trim().split(' ');
  return { decision: decision!, calls: Number(calls) };
}

// a flag of the tuning, on the command line, with the effect V8 gives it by default: the server then leaves V8 as
// it is (Node 20, V8 11: the interrupt budget; Node 22, V8 12: TurboFan's threads, unbounded as by default)
const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
const V8_DEFAULT_THRESHOLD = V8_MAJOR === 11 ? '--interrupt-budget=67584' : '--concurrent-turbofan-max-threads=0';

describe('tuneV8ForServing', () => {
  it('leaves each setting as the command line gives it, however its flag is spelled', () => {
    const tierUpFlags = V8_DEFAULT_THRESHOLD.startsWith('--interrupt-budget')
      ? ['--interrupt-budget=67584', '--interrupt_budget=67584']
      : ['--invocation-count-for-turbofan=3000', '--invocation_count_for_turbofan=3000', '--concurrent-turbofan-max-threads=0'];
    for (const pretenuring of [
      '--allocation-site-pretenuring',
      '--allocation_site_pretenuring',
      '--no-allocation-site-pretenuring',
      '--noallocation-site-pretenuring',
      '--allocation-site-pretenuring=true',
    ])
      for (const tierUp of tierUpFlags)
        expect(tuneV8ForServing(['--enable-source-maps', pretenuring, tierUp])).toEqual({
          pretenuring: 'kept_by_command_line',
          tierUp: TUNED_HERE ? 'kept_by_command_line' : 'unavailable',
        });
  });

  it('leaves the tier-up of a V8 it was not measured on as it is, whatever the command line says', () => {
    // the pretenuring flag given, so that nothing is set in this process
    for (const v8 of ['10.2.154.26-node.36', '13.6.233.17-node.53', 'not a version'])
      expect(tuneV8ForServing(['--allocation-site-pretenuring'], v8)).toEqual({
        pretenuring: 'kept_by_command_line',
        tierUp: 'unavailable',
      });
  });

  it("turns pretenuring off in a real process: V8 weighs no allocation site's survivors any more", async () => {
    const [off, on] = await Promise.all([pretenuringProbe([]), pretenuringProbe(['--allocation-site-pretenuring'])]);
    expect(off.decision).toBe('turned_off');
    expect(on.decision).toBe('kept_by_command_line');
    // the same 3,000 short-lived actors: with pretenuring on, V8 weighs their sites at its scavenges (18 – 92 lines in
    // runs on 2 cores, fewer when the machine is busy), and none once it is off
    expect(on.weighed).toBeGreaterThan(0);
    expect(off.weighed).toBe(0);
  });

  it.runIf(TUNED_HERE)(
    'has TurboFan optimize a hot function after about a quarter of the calls, unless the command line sets the threshold',
    async () => {
      const [untouched, tuned, kept] = await Promise.all([
        tierUpProbe([], false),
        tierUpProbe([], true),
        tierUpProbe([V8_DEFAULT_THRESHOLD], true),
      ]);
      expect([untouched.decision, tuned.decision, kept.decision]).toEqual(['untouched', 'sooner', 'kept_by_command_line']);
      expect(untouched.calls).toBeGreaterThan(100);
      expect(tuned.calls).toBeLessThan(untouched.calls / 2);
      expect(kept.calls).toBe(untouched.calls);
    },
  );

  it.runIf(!TUNED_HERE)("leaves the tier-up of a V8 it was not measured on as it is (Node 24's V8 13)", async () => {
    const [untouched, tuned] = await Promise.all([tierUpProbe([], false), tierUpProbe([], true)]);
    expect(tuned.decision).toBe('unavailable');
    expect(tuned.calls).toBe(untouched.calls);
  });
});
