// Benchmark of one MRTR retry round of the demo's `refund_order` tool, against the bare XState cycle of
// the same machine, measured in the same process and the same run. Run from the repo root: `pnpm bench`.
//
// Every figure this prints is relative to a baseline measured in this run (ratios), or a size in
// characters; absolute µs/op depend on the machine and are printed only to make the ratios checkable.
//
// Method: warm-up, then ROUNDS rounds; each round runs every case for its own fixed iteration count
// (calibrated during warm-up to take about TARGET_MS), in alternating order (the order flips every
// round), and the figure reported per case is the median over the rounds of its µs/op. Ratios are the
// median of per-round paired ratios (each Roundtrip sample against the baseline sample run beside it),
// which cancels most of the drift a busy 2-core machine adds.

import { createCipheriv, createHash, randomFillSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
// `xstate` is not a dependency of the workspace root, so a bare `import 'xstate'` does not resolve from
// bench/. Import the very file the engine's own `import 'xstate'` resolves to (the "import" condition of
// xstate's exports map, through the engine's node_modules link), so the bench, the engine and the demo
// share one xstate instance (checked below with instanceof). Cleaner: add xstate as a root devDependency.
import { createActor, StateMachine, waitFor, type AnyStateMachine } from '../packages/engine/node_modules/xstate/dist/xstate.cjs.mjs';
import { createEngine, createKeyring, generateKey, type StepOutcome } from '../packages/engine/src/index.ts';
import { encodeBase64url } from '../packages/engine/src/base64url.ts';
import type { CompiledAsk } from '../packages/engine/src/compile-machine.ts';
import { canonicalJson, digestBytes } from '../packages/engine/src/digest.ts';
import { readAnswer } from '../packages/engine/src/read-answer.ts';
import { openState, sealState } from '../packages/engine/src/sealed-state.ts';
import { checkEnvelope, decodeEnvelope, encodeEnvelope, type StateBinding, type StateEnvelope, TAG_BYTES } from '../packages/engine/src/state-envelope.ts';
import { openOrdersStore } from '../apps/demo/src/orders-store.ts';
import { createRefundOrderTool } from '../apps/demo/src/refund-order-tool.ts';

const ROUNDS = 7;
/** Wall time one case should take per round (main cases); breakdown cases take a third, candidates a sixth. */
const TARGET_MS = 300;
const WARMUP_MS = 400;

const gc = (globalThis as { gc?: () => void }).gc;

// ---------------------------------------------------------------------------------------------------
// setup

const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-'));
const store = openOrdersStore(join(dir, 'orders.db'));
const tool = createRefundOrderTool(store);
const keyring = createKeyring([generateKey()]);
const AUDIENCE = 'bench';
const engine = createEngine({ tools: [tool], keyring, audience: AUDIENCE });
const PRINCIPAL = 'bench-principal';
const capabilities = { elicitation: {} };
const args = { order_id: 'ord_51' };

// Internal (`_machine` is marked @internal in ToolDefinition), fine for a bench: the XState machine the
// engine rehydrates, and the compiled question of the `confirming` state.
const machine: AnyStateMachine = tool._machine.machine;
if (!(machine instanceof StateMachine)) throw new Error('the bench and the demo load different xstate instances');
const confirmAsk: CompiledAsk = tool._machine.asksByState.get('refund_order.confirming')![0]!;

const invalidAnswer = { confirm: { action: 'accept', content: { confirm: 'maybe' } } };
const declineAnswer = { confirm: { action: 'decline' } };

// round 1: look the order up, ask to confirm, seal
const first = await engine.callTool({ name: 'refund_order', arguments: args, principal: PRINCIPAL, capabilities });
if (first.type !== 'input_required') throw new Error(`round 1 did not ask: ${JSON.stringify(first)}`);
const round1State = first.requestState;

const retry = (inputResponses: unknown) => () =>
  engine.callTool({ name: 'refund_order', arguments: args, inputResponses, requestState: round1State, principal: PRINCIPAL, capabilities });
const retryInvalid = retry(invalidAnswer);
const retryDecline = retry(declineAnswer);

// check once that each variant does what it is meant to
const invalidOutcome = await retryInvalid();
if (invalidOutcome.type !== 'input_required' || !invalidOutcome.inputRequests.confirm?.params.message.includes('not accepted')) {
  throw new Error(`invalid-answer round did not re-ask: ${JSON.stringify(invalidOutcome)}`);
}
const declineOutcome = await retryDecline();
if (declineOutcome.type !== 'complete' || (declineOutcome.result.structuredContent as { status?: string } | undefined)?.status !== 'kept') {
  throw new Error(`decline round did not finish as kept: ${JSON.stringify(declineOutcome)}`);
}
const round2State = invalidOutcome.requestState;

// the raw persisted snapshot at `confirming`, as plain XState would store it
const seed = createActor(machine, { input: args });
seed.start();
await waitFor(seed, (s) => s.matches('confirming'));
const persistedJson = JSON.stringify(seed.getPersistedSnapshot());
seed.stop();

// The baseline: bare XState restore cycle of the same machine, no crypto, no binding, no validation.
// Invalid-answer variant: the engine sends NO event (the answer fails the zod schema; it re-asks), so the
// same machine work is restore → start → persist with no event. An ignored event is measured too, for
// information (it adds XState's transition selection for an event that matches nothing).
const declineEvent = { type: 'confirm.decline', key: 'confirm' } as const;
const ignoredEvent = { type: 'confirm.ignored', key: 'confirm' } as const;
let sink = 0;
const xstateCycle = (event: { type: string } | undefined) => () => {
  const snapshot = JSON.parse(persistedJson);
  const actor = createActor(machine, { snapshot, input: args });
  actor.start();
  if (event) actor.send(event as never);
  sink += JSON.stringify(actor.getPersistedSnapshot()).length;
  actor.stop();
};
{
  const a = createActor(machine, { snapshot: JSON.parse(persistedJson), input: args });
  a.start();
  a.send(declineEvent as never);
  if (a.getSnapshot().status !== 'done') throw new Error('baseline decline did not finish');
  a.stop();
}

// Breakdown pieces, each doing what the engine does for them in one retry round.
const binding: StateBinding = {
  aud: digestBytes(`aud\0${AUDIENCE}`, TAG_BYTES.aud),
  sub: digestBytes(`sub\0${PRINCIPAL}`, TAG_BYTES.sub),
  target: digestBytes('tools/call\0refund_order', TAG_BYTES.target),
  args: digestBytes(`tools/call\0refund_order\0${canonicalJson(args)}`, TAG_BYTES.args),
};
const opened = openState(keyring, round1State);
if (!opened.ok) throw new Error('round-1 state did not open');
const envelope = decodeEnvelope(opened.plaintext) as StateEnvelope;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const questionMessage = typeof confirmAsk.message === 'string' ? confirmAsk.message : confirmAsk.message({ context: envelope.snapshot.c as never });

const pieces = {
  open: () => {
    const r = openState(keyring, round1State);
    sink += r.ok ? r.plaintext.length : 0;
  },
  seal: () => {
    sink += sealState(keyring, encodeEnvelope({ ...envelope, round: 2 })).length;
  },
  check: () => {
    const r = checkEnvelope(opened.plaintext, binding, tool._machine, nowSeconds(), 64);
    sink += r.ok ? 1 : 0;
  },
  bindingDigests: () => {
    sink += digestBytes(`sub\0${PRINCIPAL}`, TAG_BYTES.sub)[0]!;
    sink += digestBytes('tools/call\0refund_order', TAG_BYTES.target)[0]!;
    sink += digestBytes(`tools/call\0refund_order\0${canonicalJson(args)}`, TAG_BYTES.args)[0]!;
  },
  questionHash: () => {
    sink += digestBytes(canonicalJson({ m: questionMessage, s: confirmAsk.requestedSchema }), TAG_BYTES.question)[0]!;
  },
  zodInvalid: () => {
    sink += tool._input.safeParse(args).success ? 1 : 0;
    sink += readAnswer(invalidAnswer.confirm, confirmAsk).kind.length;
  },
  zodDecline: () => {
    sink += tool._input.safeParse(args).success ? 1 : 0;
    sink += readAnswer(declineAnswer.confirm, confirmAsk).kind.length;
  },
};

// What the suggestions in BENCHMARKS.md would swap in, each beside what the engine does today on the same
// input. tweetnacl is loaded through the engine's own dependency (same instance the engine uses).
const nacl = createRequire(new URL('../packages/engine/package.json', import.meta.url))('tweetnacl') as {
  secretbox: (message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array;
  randomBytes: (n: number) => Uint8Array;
};
const questionText = canonicalJson({ m: questionMessage, s: confirmAsk.requestedSchema });
const schemaCanonical = canonicalJson(confirmAsk.requestedSchema); // could be computed once per ask, at definition time
const questionTextFast = () => `{"m":${JSON.stringify(questionMessage)},"s":${schemaCanonical}}`;
if (questionTextFast() !== questionText) throw new Error('precomputed question text differs from canonicalJson');
if (!createHash('sha512').update(questionText).digest().subarray(0, TAG_BYTES.question).equals(digestBytes(questionText, TAG_BYTES.question))) {
  throw new Error('node:crypto SHA-512 gives other bytes than digestBytes');
}
const sealedPlaintext = encodeEnvelope(envelope);
const boxKey = keyring._keys.get(keyring.sealingKid)!;
const nodeKey = new Uint8Array(32).fill(7);
const sealedBytes = (() => {
  const b = new Uint8Array(Math.ceil(((round1State.length - round1State.lastIndexOf('.') - 1) * 3) / 4));
  randomFillSync(b);
  return b;
})();
const noncePool = new Uint8Array(4096);
let noncePoolAt = noncePool.length;
const pooledNonce = () => {
  if (noncePoolAt + 24 > noncePool.length) {
    randomFillSync(noncePool);
    noncePoolAt = 0;
  }
  const nonce = noncePool.slice(noncePoolAt, noncePoolAt + 24);
  noncePoolAt += 24;
  return nonce;
};
const alternatives = {
  hashNacl: () => {
    sink += digestBytes(questionText, TAG_BYTES.question)[0]!;
  },
  hashNode: () => {
    sink += createHash('sha512').update(questionText).digest()[0]!;
  },
  questionTextNow: () => {
    sink += canonicalJson({ m: questionMessage, s: confirmAsk.requestedSchema }).length;
  },
  questionTextPre: () => {
    sink += questionTextFast().length;
  },
  boxNacl: () => {
    sink += nacl.secretbox(sealedPlaintext, pooledNonce(), boxKey).length;
  },
  boxNode: () => {
    const cipher = createCipheriv('chacha20-poly1305', nodeKey, pooledNonce().subarray(0, 12), { authTagLength: 16 });
    sink += cipher.update(sealedPlaintext).length + cipher.final().length + cipher.getAuthTag().length;
  },
  nonceNacl: () => {
    sink += nacl.randomBytes(24)[0]!;
  },
  noncePooled: () => {
    sink += pooledNonce()[0]!;
  },
  b64Engine: () => {
    sink += encodeBase64url(sealedBytes).length;
  },
  b64Buffer: () => {
    sink += Buffer.from(sealedBytes.buffer, sealedBytes.byteOffset, sealedBytes.byteLength).toString('base64url').length;
  },
};

// ---------------------------------------------------------------------------------------------------
// harness

interface Case {
  name: string;
  label: string;
  run: () => unknown;
  async: boolean;
  weight: number;
  iterations: number;
  samples: number[];
}

// every timed engine call is checked (a cheap string compare), so a broken round cannot pass as a fast one
const expectType = (type: StepOutcome['type']) => async (call: () => Promise<StepOutcome>) => {
  const o = await call();
  if (o.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(o)}`);
};
const checkInvalid = expectType('input_required');
const checkDecline = expectType('complete');

const cases: Case[] = [
  { name: 'rt-invalid', label: 'Roundtrip retry, invalid answer (open, rehydrate, answer, settle, seal)', run: () => checkInvalid(retryInvalid), async: true, weight: 1, iterations: 0, samples: [] },
  { name: 'xs-invalid', label: 'XState baseline, no event (parse, restore, start, persist, stringify)', run: xstateCycle(undefined), async: false, weight: 1, iterations: 0, samples: [] },
  { name: 'rt-decline', label: 'Roundtrip retry, decline (open, rehydrate, answer, settle, result)', run: () => checkDecline(retryDecline), async: true, weight: 1, iterations: 0, samples: [] },
  { name: 'xs-decline', label: 'XState baseline, decline event (parse, restore, start, send, persist, stringify)', run: xstateCycle(declineEvent), async: false, weight: 1, iterations: 0, samples: [] },
  { name: 'xs-ignored', label: 'XState, an event the machine ignores (info only)', run: xstateCycle(ignoredEvent), async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'open', label: 'openState: base64url decode + secretbox.open + header check', run: pieces.open, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'seal', label: 'encodeEnvelope + sealState: JSON + nonce + secretbox + base64url', run: pieces.seal, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'check', label: 'decodeEnvelope + checkEnvelope (JSON.parse of snapshot, tag compares)', run: pieces.check, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'binding', label: 'binding digests: 3 × SHA-512 (tweetnacl) + canonicalJson(args)', run: pieces.bindingDigests, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'question', label: 'question hash: canonicalJson + 1 × SHA-512', run: pieces.questionHash, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'zod-invalid', label: 'zod: arguments + invalid answer (failing safeParse)', run: pieces.zodInvalid, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  { name: 'zod-decline', label: 'zod: arguments + decline answer (no content to parse)', run: pieces.zodDecline, async: false, weight: 1 / 3, iterations: 0, samples: [] },
  // alternatives (info, for the suggestions): pairs of today / candidate
  { name: 'alt-hash-nacl', label: 'today: SHA-512 of the question text, tweetnacl (digestBytes)', run: alternatives.hashNacl, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-hash-node', label: 'candidate: SHA-512 of the same text, node:crypto createHash', run: alternatives.hashNode, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-qtext-now', label: 'today: canonicalJson({ m, s }) of the question', run: alternatives.questionTextNow, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-qtext-pre', label: 'candidate: same text with the schema part canonicalised once per ask', run: alternatives.questionTextPre, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-box-nacl', label: 'today: nacl.secretbox (XSalsa20-Poly1305) of the envelope, pooled nonce', run: alternatives.boxNacl, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-box-node', label: 'candidate: node:crypto chacha20-poly1305 of the same, pooled nonce', run: alternatives.boxNode, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-nonce-nacl', label: 'today: nacl.randomBytes(24) (one crypto.randomBytes call each)', run: alternatives.nonceNacl, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-nonce-pool', label: 'candidate: 24 bytes sliced from a 4 KiB randomFillSync pool', run: alternatives.noncePooled, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-b64-engine', label: 'today: encodeBase64url of the sealed bytes (string concatenation)', run: alternatives.b64Engine, async: false, weight: 1 / 6, iterations: 0, samples: [] },
  { name: 'alt-b64-buffer', label: "candidate: Buffer#toString('base64url') of the same bytes", run: alternatives.b64Buffer, async: false, weight: 1 / 6, iterations: 0, samples: [] },
];
const byName = (name: string) => cases.find((c) => c.name === name)!;

async function timeIt(c: Case, iterations: number): Promise<number> {
  const run = c.run;
  const start = performance.now();
  if (c.async) for (let i = 0; i < iterations; i++) await run();
  else for (let i = 0; i < iterations; i++) run();
  return performance.now() - start;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const started = performance.now();

// warm-up and calibration: run each case for WARMUP_MS (twice, to let the JIT settle), then size N
for (const pass of [0, 1]) {
  for (const c of cases) {
    let n = 16;
    let spent = 0;
    let done = 0;
    while (spent < WARMUP_MS * (pass === 0 ? 0.5 : 1) * Math.max(c.weight, 0.5)) {
      spent += await timeIt(c, n);
      done += n;
      n *= 2;
    }
    if (pass === 1) c.iterations = Math.max(50, Math.round(((TARGET_MS * c.weight) / spent) * done));
  }
}

for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? cases : [...cases].reverse();
  for (const c of order) {
    gc?.();
    const ms = await timeIt(c, c.iterations);
    c.samples.push((ms * 1000) / c.iterations);
  }
}
const elapsed = (performance.now() - started) / 1000;

// ---------------------------------------------------------------------------------------------------
// report

const versionOf = (pkgJson: string) => (JSON.parse(readFileSync(new URL(pkgJson, import.meta.url), 'utf8')) as { version: string }).version;
const cpu = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();
const { availableParallelism } = await import('node:os');

const us = (c: Case) => median(c.samples);
const fmt = (x: number, digits = 1) => x.toFixed(digits);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

console.log('Roundtrip benchmark: one retry round of refund_order vs the bare XState cycle of the same machine');
console.log('');
console.log(`node ${process.version}, xstate ${versionOf('../packages/engine/node_modules/xstate/package.json')}, tweetnacl ${versionOf('../packages/engine/node_modules/tweetnacl/package.json')}, zod ${versionOf('../packages/engine/node_modules/zod/package.json')}`);
console.log(`cpu: ${cpu}, ${availableParallelism()} logical cores; global.gc ${gc ? 'called before every sample' : 'not available'}`);
console.log(`method: warm-up, then ${ROUNDS} rounds in alternating order; figure = median over rounds of µs/op; total ${fmt(elapsed)} s`);
console.log('');

const table = (rows: Case[]) => {
  console.log(`${pad('case', 84)} ${lpad('iters/round', 11)} ${lpad('µs/op', 9)} ${lpad('ops/s', 9)} ${lpad('min–max µs/op', 16)}`);
  for (const c of rows) {
    const lo = Math.min(...c.samples);
    const hi = Math.max(...c.samples);
    console.log(
      `${pad(c.label, 84)} ${lpad(String(c.iterations), 11)} ${lpad(fmt(us(c)), 9)} ${lpad(fmt(1e6 / us(c), 0), 9)} ${lpad(`${fmt(lo)}–${fmt(hi)}`, 16)}`,
    );
  }
};

console.log('== Throughput');
table(cases.slice(0, 5));
console.log('');

const GOAL_RATIO = 1.5;
console.log(`== Ratio: Roundtrip time / XState baseline time, median of per-round paired ratios (goal ≤ ${GOAL_RATIO})`);
const ratioLine = (label: string, rt: Case, base: Case) => {
  // paired: each round's Roundtrip sample against the baseline sample taken right next to it
  const paired = rt.samples.map((x, i) => x / base.samples[i]!);
  const ratio = median(paired);
  console.log(
    `${pad(label, 40)} ${lpad(fmt(ratio, 2), 6)}  (per-round ${fmt(Math.min(...paired), 2)}–${fmt(Math.max(...paired), 2)}; ratio of medians ${fmt(us(rt) / us(base), 2)})  goal ${ratio <= GOAL_RATIO ? 'MET' : 'MISSED'}`,
  );
};
ratioLine('invalid answer (re-ask, seal)', byName('rt-invalid'), byName('xs-invalid'));
ratioLine('decline (final result, no seal)', byName('rt-decline'), byName('xs-decline'));
console.log(`${pad('(info) invalid vs ignored-event baseline', 40)} ${lpad(fmt(us(byName('rt-invalid')) / us(byName('xs-ignored')), 2), 6)}`);
console.log('');

console.log('== Size of the requestState');
const raw = persistedJson.length;
const goal = 1.4 * raw + 120;
for (const [label, state] of [
  ['round-1 state', round1State],
  ['round-2 state (re-ask)', round2State],
] as const) {
  console.log(`${pad(label, 24)} ${lpad(String(state.length), 5)} chars; raw persisted snapshot JSON ${raw} chars; goal ≤ 1.4 × ${raw} + 120 = ${fmt(goal)}: ${state.length <= goal ? 'MET' : 'MISSED'} (${fmt(state.length / raw, 2)} × raw)`);
}
console.log(`compact snapshot inside the envelope: ${JSON.stringify(envelope.snapshot).length} chars of JSON`);
console.log('');

console.log('== Breakdown: each piece of a retry round timed alone (per call of the piece)');
table(cases.filter((c) => !c.name.startsWith('alt-')).slice(5));
const perRound = (name: string, times = 1) => us(byName(name)) * times;
// What one retry round runs, piece by piece (read off create-engine.ts): the three binding digests, open,
// decode + check, the arguments' zod parse, the question hash once per activeAsks() call (before the
// answer, and again after settling when the machine still asks), the answer, the XState work, the seal.
const breakdown = (title: string, rt: string, parts: Array<[string, number]>) => {
  const total = us(byName(rt));
  const sum = parts.reduce((n, [, t]) => n + t, 0);
  console.log('');
  console.log(`${title} (${fmt(total)} µs measured end to end):`);
  for (const [label, t] of parts) console.log(`  ${pad(label, 66)} ${lpad(fmt(t), 7)} µs  ${lpad(fmt((100 * t) / total, 0), 3)} %`);
  console.log(`  ${pad('rest: engine glue, GC, pieces running colder than alone', 66)} ${lpad(fmt(total - sum), 7)} µs  ${lpad(fmt((100 * (total - sum)) / total, 0), 3)} %`);
};
breakdown('Where one invalid-answer round goes', 'rt-invalid', [
  ['seal + open (secretbox, nonce, base64url, envelope JSON)', perRound('seal') + perRound('open')],
  ['decode + check envelope', perRound('check')],
  ['SHA-512 digests, tweetnacl (3 binding + 2 question hashes)', perRound('binding') + perRound('question', 2)],
  ['zod (arguments + failing answer)', perRound('zod-invalid')],
  ['XState cycle (the baseline itself)', perRound('xs-invalid')],
]);
breakdown('Where one decline round goes', 'rt-decline', [
  ['open (secretbox.open, base64url)', perRound('open')],
  ['decode + check envelope', perRound('check')],
  ['SHA-512 digests, tweetnacl (3 binding + 1 question hash)', perRound('binding') + perRound('question')],
  ['zod (arguments)', perRound('zod-decline')],
  ['XState cycle (the baseline itself, incl. persist + stringify)', perRound('xs-decline')],
]);

console.log('');
console.log('== Candidates for the suggestions in BENCHMARKS.md (info; each against what the engine does today)');
table(cases.filter((c) => c.name.startsWith('alt-')));
console.log('');
for (const [what, today, candidate] of [
  ['SHA-512 digest', 'alt-hash-nacl', 'alt-hash-node'],
  ['question text', 'alt-qtext-now', 'alt-qtext-pre'],
  ['cipher only', 'alt-box-nacl', 'alt-box-node'],
  ['nonce', 'alt-nonce-nacl', 'alt-nonce-pool'],
  ['base64url', 'alt-b64-engine', 'alt-b64-buffer'],
] as const) {
  const a = byName(today);
  const b = byName(candidate);
  console.log(`${pad(what, 16)} candidate / today = ${fmt(median(b.samples.map((x, i) => x / a.samples[i]!)), 2)}  (saves ${fmt(us(a) - us(b))} µs per call)`);
}

if (sink === -1) console.log(''); // keep the results alive
store.close();
rmSync(dir, { recursive: true, force: true });
