// Benchmark of one MRTR retry round of the demo's `refund_order` tool, against the bare XState cycle of
// the same machine, measured in the same process and the same run. Run from the repo root: `pnpm bench`.
//
// Every figure this prints is relative to a baseline measured in this run (ratios), or a size in
// characters; absolute µs/op depend on the machine and are printed only to make the ratios checkable.
//
// Method: warm-up, then ROUNDS rounds; each round runs every case for its own fixed iteration count
// (calibrated during warm-up to take about TARGET_MS × the case's weight), in alternating order (the
// order flips every round), and the figure reported per case is the median over the rounds of its µs/op.
// Ratios are the median of per-round paired ratios (each sample against the other case's sample of the
// same round), which cancels most of the drift a busy 2-core machine adds.
//
// Sections: throughput and ratio (the goal), size (the goal), the engine as it was before commit
// fddfa3e (its sources taken from git and run beside today's, when git is there), the breakdown of a
// round into the pieces the engine runs today, and "done": each piece the engine replaced, old code
// beside new code on the same input.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
// `xstate` is not a dependency of the workspace root, so a bare `import 'xstate'` does not resolve from
// bench/. Import the very file the engine's own `import 'xstate'` resolves to (the "import" condition of
// xstate's exports map, through the engine's node_modules link), so the bench, the engine and the demo
// share one xstate instance (checked below with instanceof). Cleaner: add xstate as a root devDependency.
import { createActor, StateMachine, waitFor, type AnyStateMachine } from '../packages/engine/node_modules/xstate/dist/xstate.cjs.mjs';
import { createEngine, createKeyring, generateKey, type Engine, type StepOutcome } from '../packages/engine/src/index.ts';
import { decodeBase64url, decodePortable, encodeBase64url, encodePortable } from '../packages/engine/src/base64url.ts';
import type { CompiledAsk } from '../packages/engine/src/compile-machine.ts';
import { canonicalJson, digestBytes } from '../packages/engine/src/digest.ts';
import { readAnswer } from '../packages/engine/src/read-answer.ts';
import { openState, sealState } from '../packages/engine/src/sealed-state.ts';
import { checkEnvelope, decodeEnvelope, encodeEnvelope, type StateBinding, type StateEnvelope, TAG_BYTES } from '../packages/engine/src/state-envelope.ts';
import { openOrdersStore } from '../apps/demo/src/orders-store.ts';
import { createRefundOrderTool } from '../apps/demo/src/refund-order-tool.ts';

const ROUNDS = 7;
/** Wall time a case of weight 1 takes per round; breakdown pieces have weight 1/3, "done" pairs 1/6. */
const TARGET_MS = 300;
const WARMUP_MS = 300;
/** The engine before the speed-ups of commit fddfa3e: the commit the first version of this bench measured. */
const BEFORE_REV = '1ffc74a0f003da5c806e0a2d876540d4bca1697f';

const gc = (globalThis as { gc?: () => void }).gc;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

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

/** Round 1 once (look the order up, ask, seal), then the two retry variants on that same state, checked once. */
async function retriesOf(e: Engine, who: string) {
  const first = await e.callTool({ name: 'refund_order', arguments: args, principal: PRINCIPAL, capabilities });
  if (first.type !== 'input_required') throw new Error(`${who}: round 1 did not ask: ${JSON.stringify(first)}`);
  const round1State = first.requestState;
  const retry = (inputResponses: unknown) => () =>
    e.callTool({ name: 'refund_order', arguments: args, inputResponses, requestState: round1State, principal: PRINCIPAL, capabilities });
  const retryInvalid = retry(invalidAnswer);
  const retryDecline = retry(declineAnswer);
  const invalidOutcome = await retryInvalid();
  if (invalidOutcome.type !== 'input_required' || !invalidOutcome.inputRequests.confirm?.params.message.includes('not accepted')) {
    throw new Error(`${who}: invalid-answer round did not re-ask: ${JSON.stringify(invalidOutcome)}`);
  }
  const declineOutcome = await retryDecline();
  if (declineOutcome.type !== 'complete' || (declineOutcome.result.structuredContent as { status?: string } | undefined)?.status !== 'kept') {
    throw new Error(`${who}: decline round did not finish as kept: ${JSON.stringify(declineOutcome)}`);
  }
  return { round1State, round2State: invalidOutcome.requestState, retryInvalid, retryDecline };
}
const now = await retriesOf(engine, 'engine');
const round1State = now.round1State;

// The engine before fddfa3e, loaded from git into the temporary folder (its bare imports resolve through
// links to the engine's own node_modules, so it shares the xstate instance). Skipped without git.
const before = await (async () => {
  try {
    const src = join(dir, 'engine-before', 'src');
    mkdirSync(src, { recursive: true });
    const git = (...a: string[]) => execFileSync('git', ['-C', repoRoot, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    for (const path of git('ls-tree', '--name-only', BEFORE_REV, 'packages/engine/src/').split('\n').filter(Boolean)) {
      writeFileSync(join(src, path.slice(path.lastIndexOf('/') + 1)), git('show', `${BEFORE_REV}:${path}`));
    }
    writeFileSync(join(dir, 'engine-before', 'package.json'), '{"type":"module"}\n');
    mkdirSync(join(dir, 'engine-before', 'node_modules'));
    for (const dep of ['xstate', 'tweetnacl', 'zod']) {
      symlinkSync(realpathSync(join(repoRoot, 'packages/engine/node_modules', dep)), join(dir, 'engine-before', 'node_modules', dep));
    }
    const old = (await import(pathToFileURL(join(src, 'index.ts')).href)) as { createEngine: typeof createEngine };
    return await retriesOf(old.createEngine({ tools: [tool], keyring, audience: AUDIENCE }), `engine at ${BEFORE_REV.slice(0, 7)}`);
  } catch (error) {
    console.log(`(engine before fddfa3e not measured: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    return undefined;
  }
})();

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

// Breakdown: the pieces one retry round runs today (read off create-engine.ts), each with the engine's
// own functions on the same input.
const argsText = () => `tools/call\0refund_order\0${canonicalJson(args)}`;
const binding: StateBinding = {
  aud: digestBytes(`aud\0${AUDIENCE}`, TAG_BYTES.aud),
  sub: digestBytes(`sub\0${PRINCIPAL}`, TAG_BYTES.sub),
  target: digestBytes('tools/call\0refund_order', TAG_BYTES.target),
  args: digestBytes(argsText(), TAG_BYTES.args),
};
const opened = openState(keyring, round1State);
if (!opened.ok) throw new Error('round-1 state did not open');
const envelope = decodeEnvelope(opened.plaintext) as StateEnvelope;
if (!checkEnvelope(opened.plaintext, binding, tool._machine, Math.floor(Date.now() / 1000), 64).ok) throw new Error('the bench binding differs from the engine one');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const renderMessage = () => (typeof confirmAsk.message === 'string' ? confirmAsk.message : confirmAsk.message({ context: envelope.snapshot.c as never }));
const questionMessage = renderMessage();
const questionHashNow = () => digestBytes(`${questionMessage}\0${confirmAsk.schemaText}`, TAG_BYTES.question);
if (!Buffer.from(questionHashNow()).equals(envelope.questions.get('confirm')!)) throw new Error('the bench question hash differs from the one the engine sealed');
// the engine keeps the principal and target tags in maps built once (createEngine); the same two lookups
const principalTags = new Map([[PRINCIPAL, binding.sub]]);
const targetTags = new Map([['refund_order', binding.target]]);

// tweetnacl, through the engine's own dependency (the instance the engine uses)
const nacl = createRequire(new URL('../packages/engine/package.json', import.meta.url))('tweetnacl') as {
  hash: (message: Uint8Array) => Uint8Array;
  randomBytes: (n: number) => Uint8Array;
  secretbox: ((message: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array) & {
    open: (box: Uint8Array, nonce: Uint8Array, key: Uint8Array) => Uint8Array | null;
  };
};
const boxKey = keyring._keys.get(keyring.sealingKid)!;
// what secretbox works on in a seal: key-id copy + envelope (about 250 bytes)
const kidBytes = decodeBase64url(keyring.sealingKid)!;
const envelopeBytes = encodeEnvelope({ ...envelope, round: 2 });
const boxPlaintext = new Uint8Array(kidBytes.length + envelopeBytes.length);
boxPlaintext.set(kidBytes);
boxPlaintext.set(envelopeBytes, kidBytes.length);
const boxNonce = nacl.randomBytes(24);
const boxed = nacl.secretbox(boxPlaintext, boxNonce, boxKey);

const pieces = {
  open: () => {
    const r = openState(keyring, round1State);
    sink += r.ok ? r.plaintext.length : 0;
  },
  boxOpen: () => {
    sink += nacl.secretbox.open(boxed, boxNonce, boxKey)!.length;
  },
  seal: () => {
    sink += sealState(keyring, encodeEnvelope({ ...envelope, round: 2 })).length;
  },
  boxSeal: () => {
    sink += nacl.secretbox(boxPlaintext, boxNonce, boxKey).length;
  },
  check: () => {
    const r = checkEnvelope(opened.plaintext, binding, tool._machine, nowSeconds(), 64);
    sink += r.ok ? 1 : 0;
  },
  argsDigest: () => {
    sink += digestBytes(argsText(), TAG_BYTES.args)[0]!;
  },
  questionHash: () => {
    sink += questionHashNow()[0]!;
  },
  message: () => {
    sink += renderMessage().length;
  },
  tags: () => {
    sink += principalTags.get(PRINCIPAL)![0]! + targetTags.get('refund_order')![0]!;
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

// "Done": what the engine did before fddfa3e for the same piece, beside what it does now.
const encoder = new TextEncoder();
const naclDigest = (text: string, bytes: number) => nacl.hash(encoder.encode(text)).slice(0, bytes);
for (const text of [argsText(), `sub\0${PRINCIPAL}`, 'tools/call\0refund_order']) {
  if (!Buffer.from(naclDigest(text, 9)).equals(digestBytes(text, 9))) throw new Error('tweetnacl and native SHA-512 give other bytes');
}
const oldQuestionText = () => canonicalJson({ m: questionMessage, s: confirmAsk.requestedSchema });
// a copy of sealed-state.ts freshNonce (not exported): 24-byte slices of a 4080-byte nacl.randomBytes pool
let pool: Uint8Array = new Uint8Array(0);
let poolAt = 0;
const pooledNonce = () => {
  if (poolAt + 24 > pool.length) {
    pool = nacl.randomBytes(4080);
    poolAt = 0;
  }
  const nonce = pool.slice(poolAt, poolAt + 24);
  poolAt += 24;
  return nonce;
};
const stateBody = round1State.slice(round1State.lastIndexOf('.') + 1);
const sealedBytes = decodeBase64url(stateBody)!;
for (const [a, b] of [
  [encodePortable(sealedBytes), encodeBase64url(sealedBytes)],
  [encodePortable(decodePortable(stateBody)!), encodePortable(sealedBytes)],
]) {
  if (a !== b) throw new Error('portable and Buffer base64url disagree');
}
const done = {
  argsNacl: () => {
    sink += naclDigest(argsText(), TAG_BYTES.args)[0]!;
  },
  questionOld: () => {
    sink += naclDigest(oldQuestionText(), TAG_BYTES.question)[0]!;
  },
  tagsOld: () => {
    sink += naclDigest(`sub\0${PRINCIPAL}`, TAG_BYTES.sub)[0]! + naclDigest('tools/call\0refund_order', TAG_BYTES.target)[0]!;
  },
  nonceNacl: () => {
    sink += nacl.randomBytes(24)[0]!;
  },
  noncePool: () => {
    sink += pooledNonce()[0]!;
  },
  encPortable: () => {
    sink += encodePortable(sealedBytes).length;
  },
  encNow: () => {
    sink += encodeBase64url(sealedBytes).length;
  },
  decPortable: () => {
    sink += decodePortable(stateBody)!.length;
  },
  decNow: () => {
    sink += decodeBase64url(stateBody)!.length;
  },
  kidPortable: () => {
    sink += decodePortable(keyring.sealingKid)!.length;
  },
  kidNow: () => {
    sink += decodeBase64url(keyring.sealingKid)!.length;
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
const expectType = (type: StepOutcome['type']) => (call: () => Promise<StepOutcome>) => async () => {
  const o = await call();
  if (o.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(o)}`);
};
const checkInvalid = expectType('input_required');
const checkDecline = expectType('complete');

const mk = (name: string, label: string, run: () => unknown, weight: number, async = false): Case => ({ name, label, run, async, weight, iterations: 0, samples: [] });
const W_PIECE = 1 / 3;
const W_DONE = 1 / 6;
const mainCases = [
  mk('rt-invalid', 'Roundtrip retry, invalid answer (open, rehydrate, answer, settle, seal)', checkInvalid(now.retryInvalid), 1, true),
  mk('xs-invalid', 'XState baseline, no event (parse, restore, start, persist, stringify)', xstateCycle(undefined), 1),
  mk('rt-decline', 'Roundtrip retry, decline (open, rehydrate, answer, settle, result)', checkDecline(now.retryDecline), 1, true),
  mk('xs-decline', 'XState baseline, decline event (parse, restore, start, send, persist, stringify)', xstateCycle(declineEvent), 1),
  mk('xs-ignored', 'XState, an event the machine ignores (info only)', xstateCycle(ignoredEvent), W_PIECE),
];
const beforeCases = before
  ? [
      mk('old-invalid', `engine at ${BEFORE_REV.slice(0, 7)} (before fddfa3e): retry, invalid answer`, checkInvalid(before.retryInvalid), 1 / 2, true),
      mk('old-decline', `engine at ${BEFORE_REV.slice(0, 7)} (before fddfa3e): retry, decline`, checkDecline(before.retryDecline), 1 / 2, true),
    ]
  : [];
const pieceCases = [
  mk('open', 'openState: base64url decode (Buffer, strict) + secretbox.open + key-id check', pieces.open, W_PIECE),
  mk('box-open', '  of which nacl.secretbox.open alone', pieces.boxOpen, W_PIECE),
  mk('seal', 'encodeEnvelope + sealState: binary envelope, pooled nonce, secretbox, Buffer base64url', pieces.seal, W_PIECE),
  mk('box-seal', '  of which nacl.secretbox alone', pieces.boxSeal, W_PIECE),
  mk('check', 'decodeEnvelope + checkEnvelope (JSON.parse of snapshot, tag compares)', pieces.check, W_PIECE),
  mk('args', 'args tag: canonicalJson(args) + SHA-512 (digestBytes, node:crypto)', pieces.argsDigest, W_PIECE),
  mk('question', 'question hash: `${message}\\0${schemaText}` + SHA-512 (digestBytes)', pieces.questionHash, W_PIECE),
  mk('message', "render the question message (the demo's function, formatCents)", pieces.message, W_PIECE),
  mk('tags', 'principal + target tags: 2 Map lookups (cached in createEngine)', pieces.tags, W_DONE),
  mk('zod-invalid', 'zod: arguments + invalid answer (failing safeParse)', pieces.zodInvalid, W_PIECE),
  mk('zod-decline', 'zod: arguments + decline answer (no content to parse)', pieces.zodDecline, W_DONE),
];
const doneCases = [
  mk('was-args', 'before: args tag with tweetnacl nacl.hash', done.argsNacl, W_DONE),
  mk('was-question', 'before: question hash, canonicalJson({ m, s }) + nacl.hash', done.questionOld, W_DONE),
  mk('was-tags', 'before: principal + target tags, 2 × nacl.hash', done.tagsOld, W_DONE),
  mk('was-nonce', 'before: nonce, nacl.randomBytes(24) per seal', done.nonceNacl, W_DONE),
  mk('now-nonce', 'now: nonce, 24-byte slice of a 4080-byte pool (copy of freshNonce)', done.noncePool, W_DONE),
  mk('was-enc', 'before: base64url encode of the sealed bytes, encodePortable', done.encPortable, W_DONE),
  mk('now-enc', 'now: base64url encode, encodeBase64url (Buffer)', done.encNow, W_DONE),
  mk('was-dec', 'before: base64url decode of the state body, decodePortable', done.decPortable, W_DONE),
  mk('now-dec', 'now: base64url decode, decodeBase64url (Buffer + alphabet test + re-encode)', done.decNow, W_DONE),
  mk('was-kid', 'before: key id (8 chars) decoded in sealState and openState, decodePortable', done.kidPortable, W_DONE),
  mk('now-kid', 'now: the same with decodeBase64url (Buffer + alphabet test + re-encode)', done.kidNow, W_DONE),
];
const cases = [...mainCases, ...beforeCases, ...pieceCases, ...doneCases];
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

// warm-up and calibration: run each case twice (to let the JIT settle), then size its iteration count
for (const pass of [0, 1]) {
  for (const c of cases) {
    let n = 16;
    let spent = 0;
    let count = 0;
    while (spent < WARMUP_MS * (pass === 0 ? 0.5 : 1) * Math.max(c.weight, 0.25)) {
      spent += await timeIt(c, n);
      count += n;
      n *= 2;
    }
    if (pass === 1) c.iterations = Math.max(50, Math.round(((TARGET_MS * c.weight) / spent) * count));
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

const us = (name: string) => median(byName(name).samples);
/** median over rounds of a's sample / b's sample of the same round */
const paired = (a: string, b: string) => {
  const xs = byName(a).samples.map((x, i) => x / byName(b).samples[i]!);
  return { ratio: median(xs), lo: Math.min(...xs), hi: Math.max(...xs) };
};
const fmt = (x: number, digits = 1) => x.toFixed(digits);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

console.log('Roundtrip benchmark: one retry round of refund_order vs the bare XState cycle of the same machine');
console.log('');
console.log(`node ${process.version}, xstate ${versionOf('../packages/engine/node_modules/xstate/package.json')}, tweetnacl ${versionOf('../packages/engine/node_modules/tweetnacl/package.json')}, zod ${versionOf('../packages/engine/node_modules/zod/package.json')}`);
console.log(`cpu: ${cpu}, ${availableParallelism()} logical cores; global.gc ${gc ? 'called before every sample' : 'not available'}`);
const hasBuiltin = typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule === 'function';
console.log(`engine paths in this runtime: SHA-512 ${hasBuiltin ? 'node:crypto (process.getBuiltinModule)' : 'tweetnacl (no process.getBuiltinModule)'}, base64url ${typeof Buffer === 'function' ? 'Buffer' : 'portable'}`);
console.log(`method: warm-up, then ${ROUNDS} rounds in alternating order; figure = median over rounds of µs/op; total ${fmt(elapsed)} s`);
console.log('');

const table = (rows: Case[]) => {
  console.log(`${pad('case', 86)} ${lpad('iters/round', 11)} ${lpad('µs/op', 8)} ${lpad('ops/s', 9)} ${lpad('min–max µs/op', 14)}`);
  for (const c of rows) {
    const m = median(c.samples);
    console.log(
      `${pad(c.label, 86)} ${lpad(String(c.iterations), 11)} ${lpad(fmt(m, m < 1 ? 2 : 1), 8)} ${lpad(fmt(1e6 / m, 0), 9)} ${lpad(`${fmt(Math.min(...c.samples))}–${fmt(Math.max(...c.samples))}`, 14)}`,
    );
  }
};

console.log('== Throughput');
table(mainCases);
console.log('');

const GOAL_RATIO = 1.5;
console.log(`== Ratio: Roundtrip time / XState baseline time, median of per-round paired ratios (goal ≤ ${GOAL_RATIO})`);
const ratioLine = (label: string, rt: string, base: string) => {
  const p = paired(rt, base);
  const overhead = us(rt) - us(base);
  console.log(
    `${pad(label, 34)} ${lpad(fmt(p.ratio, 2), 5)}  (per-round ${fmt(p.lo, 2)}–${fmt(p.hi, 2)}; ratio of medians ${fmt(us(rt) / us(base), 2)})  goal ${p.ratio <= GOAL_RATIO ? 'MET' : 'MISSED'}; engine adds ${fmt(overhead)} µs, the goal allows ${fmt((GOAL_RATIO - 1) * us(base))} µs`,
  );
};
ratioLine('invalid answer (re-ask, seal)', 'rt-invalid', 'xs-invalid');
ratioLine('decline (final result, no seal)', 'rt-decline', 'xs-decline');
console.log(`${pad('(info) invalid vs ignored-event baseline', 34)} ${lpad(fmt(paired('rt-invalid', 'xs-ignored').ratio, 2), 5)}`);
console.log('');

console.log('== Size of the requestState');
const raw = persistedJson.length;
const goal = 1.4 * raw + 120;
for (const [label, state] of [
  ['round-1 state', now.round1State],
  ['round-2 state (re-ask)', now.round2State],
] as const) {
  console.log(`${pad(label, 24)} ${lpad(String(state.length), 5)} chars; raw persisted snapshot JSON ${raw} chars; goal ≤ 1.4 × ${raw} + 120 = ${fmt(goal)}: ${state.length <= goal ? 'MET' : 'MISSED'} (${fmt(state.length / raw, 2)} × raw, ${fmt(goal - state.length, 0)} chars to spare)`);
}
console.log(`compact snapshot inside the envelope: ${JSON.stringify(envelope.snapshot).length} chars of JSON`);
console.log('');

if (before) {
  console.log(`== Before → now: the engine at ${BEFORE_REV.slice(0, 7)} (sources from git, before fddfa3e) against today's, same run`);
  table(beforeCases);
  for (const [label, rt, old, base] of [
    ['invalid answer', 'rt-invalid', 'old-invalid', 'xs-invalid'],
    ['decline', 'rt-decline', 'old-decline', 'xs-decline'],
  ] as const) {
    const p = paired(rt, old);
    console.log(
      `${pad(label, 16)} ${fmt(us(old))} → ${fmt(us(rt))} µs; now / before ${fmt(p.ratio, 2)} (per-round ${fmt(p.lo, 2)}–${fmt(p.hi, 2)}); ratio to the baseline ${fmt(paired(old, base).ratio, 2)} → ${fmt(paired(rt, base).ratio, 2)}`,
    );
  }
  console.log('');
}

console.log('== Breakdown: each piece of a retry round timed alone (per call of the piece)');
table(pieceCases);
// What one retry round runs today, piece by piece (read off create-engine.ts). Both variants: zod on the
// arguments, two cached tags, the args tag, open, decode + check, the answer. The question message is
// rendered at each activeAsks() call (in the answer loop, and again after settling when the machine
// still asks); its hash is computed once per request (the `rendered` map). The invalid variant then seals.
const breakdown = (title: string, rt: string, parts: Array<[string, number]>) => {
  const total = us(rt);
  const sum = parts.reduce((n, [, t]) => n + t, 0);
  console.log('');
  console.log(`${title} (${fmt(total)} µs measured end to end):`);
  for (const [label, t] of parts) console.log(`  ${pad(label, 70)} ${lpad(fmt(t), 6)} µs  ${lpad(fmt((100 * t) / total, 0), 3)} %`);
  console.log(`  ${pad('rest: glue (actor, subscribe, settle, outcome), GC, colder pieces', 70)} ${lpad(fmt(total - sum), 6)} µs  ${lpad(fmt((100 * (total - sum)) / total, 0), 3)} %`);
};
breakdown('Where one invalid-answer round goes', 'rt-invalid', [
  ['XState cycle (the baseline itself)', us('xs-invalid')],
  [`seal (incl. secretbox ${fmt(us('box-seal'))})`, us('seal')],
  [`open (incl. secretbox.open ${fmt(us('box-open'))})`, us('open')],
  ['decode + check envelope', us('check')],
  ['args tag (1 SHA-512, native)', us('args')],
  ['question hash (1 SHA-512, native)', us('question')],
  ['question message rendered 2×', 2 * us('message')],
  ['principal + target tags (cached)', us('tags')],
  ['zod (arguments + failing answer)', us('zod-invalid')],
]);
breakdown('Where one decline round goes', 'rt-decline', [
  ['XState cycle (the baseline itself, incl. persist + stringify)', us('xs-decline')],
  [`open (incl. secretbox.open ${fmt(us('box-open'))})`, us('open')],
  ['decode + check envelope', us('check')],
  ['args tag (1 SHA-512, native)', us('args')],
  ['question hash (1 SHA-512, native)', us('question')],
  ['question message rendered 1×', us('message')],
  ['principal + target tags (cached)', us('tags')],
  ['zod (arguments)', us('zod-decline')],
]);
const cipher = us('box-seal') + us('box-open');
console.log('');
console.log(
  `cipher floor of a re-ask round: secretbox ${fmt(us('box-seal'))} + secretbox.open ${fmt(us('box-open'))} = ${fmt(cipher)} µs; ratio ${GOAL_RATIO} allows ${fmt((GOAL_RATIO - 1) * us('xs-invalid'))} µs over the ${fmt(us('xs-invalid'))} µs baseline, so the cipher alone gives ratio ≥ ${fmt(1 + cipher / us('xs-invalid'), 2)}`,
);

console.log('');
console.log('== Done (fddfa3e): each replaced piece, the old code beside the new one on the same input');
table(doneCases);
console.log('');
// per round: [what, before case, now case, calls per invalid round before → now, per decline round before → now]
const doneRows: Array<[string, string, string, [number, number], [number, number]]> = [
  ['args tag: nacl.hash → native', 'was-args', 'args', [1, 1], [1, 1]],
  ['question hash: canonicalJson + nacl.hash → concat + native', 'was-question', 'question', [2, 1], [1, 1]],
  ['principal + target tags: 2 nacl.hash → cached', 'was-tags', 'tags', [1, 1], [1, 1]],
  ['nonce: randomBytes(24) → pooled', 'was-nonce', 'now-nonce', [1, 1], [0, 0]],
  ['base64url encode: portable → Buffer', 'was-enc', 'now-enc', [1, 1], [0, 0]],
  ['base64url decode: portable → Buffer + checks', 'was-dec', 'now-dec', [1, 1], [1, 1]],
  ['key-id decode (open, seal): portable → Buffer + checks', 'was-kid', 'now-kid', [2, 2], [1, 1]],
];
let savedInvalid = 0;
let savedDecline = 0;
for (const [what, was, is, [ib, ia], [db, da]] of doneRows) {
  const p = paired(is, was);
  const si = us(was) * ib - us(is) * ia;
  const sd = us(was) * db - us(is) * da;
  savedInvalid += si;
  savedDecline += sd;
  console.log(`${pad(what, 60)} ${lpad(fmt(us(was), 2), 6)} → ${lpad(fmt(us(is), 2), 5)} µs per call (now / before ${fmt(p.ratio, 2)}); saves ${fmt(si)} µs per invalid round, ${fmt(sd)} per decline round`);
}
console.log(`${pad('sum of the savings above', 60)} ${fmt(savedInvalid)} µs per invalid round, ${fmt(savedDecline)} µs per decline round${before ? ` (measured whole-round difference: ${fmt(us('old-invalid') - us('rt-invalid'))} and ${fmt(us('old-decline') - us('rt-decline'))} µs)` : ''}`);

if (sink === -1) console.log(''); // keep the results alive
store.close();
rmSync(dir, { recursive: true, force: true });
