// Adversarial suite, sealed states: every small edit of a real sealed state, random mutations of it, and
// the cheap cross-checks (other tool, principal, arguments, after expiry, replay after completion).
// Every attempt goes through `callTool` and must come back as the one frozen refusal, never open, never throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryLedger } from '../src/index.ts';
import { makeSubmitTool, type SubmitCounter, validDetails } from './adversarial-tool.ts';
import { accept, complete, inputRequired, makeEngine, refused } from './support.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Characters outside base64url that a client might slip in: padding, standard base64, separators, space, controls, non-ASCII. */
const FOREIGN = ['=', '+', '/', '.', ' ', '\n', '\t', '\u0000', 'é', '\u0100', '😀', '%'];
const args = { account: 'acct_1' };
const answers = { details: accept(validDetails) };
/** Why a state did not open, as the log says it: the only refusals a mutated state may get. */
const NOT_OPENED =
  /^requestState refused \(invalid\): (requestState is empty|not a sealed Roundtrip state \(bad format\)|sealed with a key this server does not hold|failed authentication \(tampered, truncated or corrupted\)|header does not match the sealed copy)$/;

/** An engine serving the submit tool, a real round-1 state of it, and a checker for mutated states. */
async function target(account = args.account) {
  const counter: SubmitCounter = { runs: 0 };
  const test = makeEngine([makeSubmitTool(counter)]);
  const state = inputRequired(await test.call({ name: 'submit_request', arguments: { account } })).requestState;
  /** Sends `mutated` as the requestState of a retry; returns why it was refused (the log detail). */
  const attempt = async (mutated: string): Promise<string> => {
    const before = test.logs.length;
    const outcome = await test.call({ name: 'submit_request', arguments: { account }, requestState: mutated, inputResponses: answers });
    if (outcome.type !== 'error' || outcome.error.code !== -32602 || outcome.error.data?.reason !== 'invalid') {
      throw new Error(`a mutated state was not refused as invalid: ${JSON.stringify(mutated)} → ${JSON.stringify(outcome)}`);
    }
    const entries = test.logs.slice(before);
    if (entries.length !== 1 || !NOT_OPENED.test(entries[0]!.message)) {
      throw new Error(
        `a mutated state was refused for another reason than not opening: ${JSON.stringify(mutated)} → ${JSON.stringify(entries)}`,
      );
    }
    return entries[0]!.message;
  };
  return { ...test, counter, state, attempt };
}

/** Every distinct string `edit` makes of `state`, without the state itself. */
function variants(state: string, edit: (state: string, index: number) => string[]): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= state.length; i++) for (const v of edit(state, i)) if (v !== state) out.add(v);
  return [...out];
}

const swapCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

describe('every small edit of a real sealed state is refused', () => {
  it('refuses every single-character substitution by any base64url character, the other case, and foreign characters', async () => {
    const { state, attempt } = await target();
    const substitutions = variants(state, (s, i) =>
      i === s.length ? [] : [...ALPHABET, ...FOREIGN, swapCase(s[i]!)].map((c) => s.slice(0, i) + c + s.slice(i + 1)),
    );
    expect(substitutions.length).toBeGreaterThan(state.length * 70);
    const reasons = new Set<string>();
    for (const mutated of substitutions) reasons.add(await attempt(mutated));
    // the edits reach every layer: the format, the key lookup and the cipher itself
    expect([...reasons].map((r) => r.replace('requestState refused (invalid): ', '')).sort()).toEqual([
      'failed authentication (tampered, truncated or corrupted)',
      'not a sealed Roundtrip state (bad format)',
      'sealed with a key this server does not hold',
    ]);
  });

  it('refuses every truncation, every deletion and every insertion of one character', async () => {
    const { state, attempt } = await target();
    const truncations = variants(state, (s, i) => [s.slice(0, i)]);
    const deletions = variants(state, (s, i) => [s.slice(0, i) + s.slice(i + 1)]);
    const insertions = variants(state, (s, i) => ['A', '_', '.', '='].map((c) => s.slice(0, i) + c + s.slice(i)));
    expect(truncations).toHaveLength(state.length);
    for (const mutated of [...truncations, ...deletions, ...insertions]) await attempt(mutated);
  });

  it('refuses every extension: 1 to 8 characters of the alphabet or foreign ones appended, or prepended', async () => {
    const { state, attempt } = await target();
    const suffixes = [...ALPHABET, ...FOREIGN].flatMap((c) => [1, 2, 3, 4, 5, 8].map((n) => c.repeat(n)));
    for (const suffix of suffixes) {
      await attempt(state + suffix);
      await attempt(suffix + state);
    }
  });

  it('refuses a body whose last character differs only in bits base64url leaves unused (non-canonical encoding)', async () => {
    // accounts of different lengths give bodies of every length modulo 4 (2 or 4 unused bits in the last character)
    const lastChars = new Set<number>();
    for (const account of ['a', 'ab', 'abc', 'abcd']) {
      const { state, attempt } = await target(account);
      const body = state.slice(state.lastIndexOf('.') + 1);
      const unusedBits = [0, -1, 4, 2][body.length % 4]!;
      lastChars.add(unusedBits);
      const bytes = Buffer.from(body, 'base64url');
      const sameBytes = [...ALPHABET]
        .map((c) => state.slice(0, -1) + c)
        .filter((v) => v !== state && Buffer.from(v.slice(v.lastIndexOf('.') + 1), 'base64url').equals(bytes));
      // every other value of the unused bits decodes to the very same bytes, and must still be refused
      expect(sameBytes).toHaveLength(2 ** unusedBits - 1);
      for (const mutated of sameBytes) {
        expect(await attempt(mutated)).toBe('requestState refused (invalid): not a sealed Roundtrip state (bad format)');
      }
    }
    expect([...lastChars].sort()).toEqual([0, 2, 4]);
  });

  it('refuses the key id in another case, with a character changed, or taken from another state', async () => {
    const { state, attempt } = await target();
    const [prefix, kid, body] = state.split('.') as [string, string, string];
    for (const edited of [kid.toUpperCase(), kid.toLowerCase(), `${kid}A`, kid.slice(1), '', 'AAAAAAAA']) {
      if (edited !== kid) await attempt(`${prefix}.${edited}.${body}`);
    }
    for (const tag of ['RT1', 'Rt1', 'rt2', 'rt0', 'rt', '', ' rt1']) await attempt(`${tag}.${kid}.${body}`);
  });
});

describe('random mutations never open and never crash (fast-check, seeded)', () => {
  const runs = { seed: 0x5eed, numRuns: 500 };

  it('refuses a state with random bytes of its decoded body flipped and re-encoded', async () => {
    const { state, attempt } = await target();
    const [prefix, kid, body] = state.split('.') as [string, string, string];
    const bytes = Buffer.from(body, 'base64url');
    const flip = fc.record({ at: fc.nat({ max: bytes.length - 1 }), mask: fc.integer({ min: 1, max: 255 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(flip, { minLength: 1, maxLength: 6 }), async (flips) => {
        const altered = Buffer.from(bytes);
        for (const { at, mask } of flips) altered[at]! ^= mask;
        fc.pre(!altered.equals(bytes)); // two flips of the same byte may cancel out
        await attempt(`${prefix}.${kid}.${altered.toString('base64url')}`);
      }),
      runs,
    );
  });

  it('refuses a state with a random part replaced by random text (a splice)', async () => {
    const { state, attempt } = await target();
    const text = fc.string({ unit: fc.constantFrom(...ALPHABET, ...FOREIGN), maxLength: 40 });
    const splice = fc.record({ from: fc.nat({ max: state.length }), length: fc.nat({ max: 40 }), text });
    await fc.assert(
      fc.asyncProperty(splice, async ({ from, length, text }) => {
        const mutated = state.slice(0, from) + text + state.slice(from + length);
        fc.pre(mutated !== state);
        await attempt(mutated);
      }),
      runs,
    );
  });

  it('refuses a state spliced from two real states at any point', async () => {
    const { state, attempt, call } = await target();
    const other = inputRequired(await call({ name: 'submit_request', arguments: args })).requestState;
    expect(other).toHaveLength(state.length);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: state.length - 1 }), fc.boolean(), async (cut, otherFirst) => {
        const [a, b] = otherFirst ? [other, state] : [state, other];
        const mutated = a.slice(0, cut) + b.slice(cut);
        fc.pre(mutated !== state && mutated !== other);
        await attempt(mutated);
      }),
      { seed: runs.seed, numRuns: 400 },
    );
  });

  it('refuses random bodies behind the right prefix and a valid key id', async () => {
    const { state, attempt } = await target();
    const kid = state.split('.')[1]!;
    const bytes = fc.uint8Array({ minLength: 0, maxLength: 600 });
    await fc.assert(
      fc.asyncProperty(bytes, async (random) => {
        await attempt(`rt1.${kid}.${Buffer.from(random).toString('base64url')}`);
      }),
      runs,
    );
    const chars = fc.string({ unit: fc.constantFrom(...ALPHABET, ...FOREIGN), maxLength: 600 });
    await fc.assert(
      fc.asyncProperty(chars, async (random) => {
        await attempt(`rt1.${kid}.${random}`);
      }),
      runs,
    );
  });
});

describe('cross-checks: a real state outside its binding', () => {
  it('refuses a state used on another tool, by another principal, with other arguments, and after its lifetime', async () => {
    let clock = Date.UTC(2026, 6, 28, 9, 0, 0);
    const counter: SubmitCounter = { runs: 0 };
    const { call } = makeEngine([makeSubmitTool(counter), makeSubmitTool(counter, 'submit_other')], { now: () => clock });
    const state = inputRequired(await call({ name: 'submit_request', arguments: args })).requestState;
    const retry = { name: 'submit_request', arguments: args, requestState: state, inputResponses: answers };
    expect(await call({ ...retry, name: 'submit_other' })).toEqual(refused('mismatch'));
    expect(await call({ ...retry, principal: 'mallory' })).toEqual(refused('mismatch'));
    expect(await call({ ...retry, arguments: { account: 'acct_2' } })).toEqual(refused('mismatch'));
    clock += 600_000;
    expect(await call(retry)).toEqual(refused('expired'));
    expect(counter.runs).toBe(0);
  });

  it('answers a replay of the confirming round after completion with the recorded outcome, not a second effect', async () => {
    const counter: SubmitCounter = { runs: 0 };
    const ledger = createMemoryLedger();
    const { call } = makeEngine([makeSubmitTool(counter)], { ledger });
    const first = inputRequired(await call({ name: 'submit_request', arguments: args })).requestState;
    const retry = { name: 'submit_request', arguments: args };
    const second = inputRequired(await call({ ...retry, requestState: first, inputResponses: answers })).requestState;
    const yes = { confirm: accept({ confirm: true }) };
    const done = complete(await call({ ...retry, requestState: second, inputResponses: yes }));
    expect(done.result.structuredContent).toMatchObject({ outcome: 'submitted', receipt: 'r1:acct_1:42' });
    // the same confirming round again: the ledger answers, the effect does not run
    expect(complete(await call({ ...retry, requestState: second, inputResponses: yes }))).toEqual(done);
    // an earlier round replayed within its lifetime may take another path, but the run id is the same: still the first outcome
    const other = { details: accept({ ...validDetails, amount: 7 }) };
    const rebranched = inputRequired(await call({ ...retry, requestState: first, inputResponses: other })).requestState;
    const replayed = complete(await call({ ...retry, requestState: rebranched, inputResponses: yes }));
    expect(replayed.result.structuredContent).toMatchObject({ outcome: 'submitted', receipt: 'r1:acct_1:42' });
    expect(counter.runs).toBe(1);
    expect(ledger.size).toBe(1);
  });
});
