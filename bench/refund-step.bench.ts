// Benchmark of one MRTR retry round of the `refund_order` tool, against the bare XState cycle of the same
// machine measured in the same process and run, with the engine before b0938e8 (from git) beside today's,
// and each round kind against its floor (round-guard.ts). `pnpm bench` from the repo root (NODE_OPTIONS=
// --expose-gc collects before every sample); `pnpm bench --guard` times the guard only.
// Every figure is a ratio to a baseline of this run, or a size in characters; absolute µs/op depend on the
// machine and are printed only to make the ratios checkable.
// Method (bench/harness.ts): warm-up and calibration, then 11 rounds, each case a fixed iteration count per
// round, the order flipped every round, each case timed next to the one it is compared with; a figure is
// the median over the rounds of µs/op, and a ratio the median of per-round paired ratios (each sample over
// the other case's sample of the same round), which cancels most of the drift a busy 2-core machine adds.
// GC pauses of the main thread are charged to the sample they fall in, so the before/after figures are also
// printed without them (how much GC a round causes depends on the heap it runs in as much as on the round).
// Files: refund-tool.ts (the tool in the engine's second shape), engine-before.ts (the old engine and the
// demo's tool at 8ad16d2, from git), pieces.ts (the breakdown; old pieces beside new), round-guard.ts and
// flow-tool.ts (round/floor), harness.ts. Today's engine is used through its public API and
// `@roundtrip/engine/internal` only, both by path (bench/ is no workspace package).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createActor, StateMachine, waitFor } from '../packages/engine/node_modules/xstate/dist/xstate.cjs.mjs';
import {
  type ClientCapabilities,
  createEngine,
  createKeyring,
  generateKey,
  type InputRequest,
  type StepOutcome,
} from '../packages/engine/src/index.ts';
import { internalsOf } from '../packages/engine/src/internal.ts';
import { type EngineBefore, loadEngineBefore } from './engine-before.ts';
import { type Case, fmt, gc, lpad, mk, pad, ROUNDS, results, runCases, table } from './harness.ts';
import { buildPieces } from './pieces.ts';
import { createRefundOrderTool, memoryOrdersStore } from './refund-tool.ts';
import { buildGuard, GUARD_ROUNDS, guardLines } from './round-guard.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** `pnpm bench --guard`: only the round/floor guard (15 – 30 s), as .ci/run runs it. */
const GUARD_ONLY = process.argv.includes('--guard');
const dir = mkdtempSync(join(tmpdir(), 'roundtrip-bench-'));
const AUDIENCE = 'bench';
const PRINCIPAL = 'bench-principal';
const KEY = generateKey();
const capabilities: ClientCapabilities = { elicitation: {} };
const args = { order_id: 'ord_51' };
const invalidAnswer = { confirm: { action: 'accept', content: { confirm: 'maybe' } } };
const declineAnswer = { confirm: { action: 'decline' } };

// ─── setup: today's engine, as a server builds it (one-key keyring, fixed principal) ────────────────

const tool = createRefundOrderTool(memoryOrdersStore());
const keyring = createKeyring([KEY]);
const engine = createEngine({ tools: [tool], keyring, audience: AUDIENCE });
const machine = internalsOf(tool).machine.machine;
if (!(machine instanceof StateMachine)) throw new Error('the bench and the engine load different xstate instances');

type CallTool = (request: {
  name: string;
  arguments?: unknown;
  inputResponses?: unknown;
  requestState?: unknown;
  principal: string;
  capabilities: ClientCapabilities;
}) => Promise<StepOutcome>;

/** Round 1 once (look the order up, ask, seal), then the two retry variants on that state, each checked once. */
async function retriesOf(callTool: CallTool, who: string) {
  const call = (extra: object) => callTool({ name: 'refund_order', arguments: args, principal: PRINCIPAL, capabilities, ...extra });
  const first = await call({});
  if (first.type !== 'input_required') throw new Error(`${who}: round 1 did not ask: ${JSON.stringify(first)}`);
  const round1State = first.requestState;
  const retryInvalid = () => call({ inputResponses: invalidAnswer, requestState: round1State });
  const retryDecline = () => call({ inputResponses: declineAnswer, requestState: round1State });
  const invalidOutcome = await retryInvalid();
  const messageOf = (request: InputRequest | undefined) => (request?.method === 'elicitation/create' ? request.params.message : '');
  if (invalidOutcome.type !== 'input_required' || !messageOf(invalidOutcome.inputRequests.confirm).includes('not accepted')) {
    throw new Error(`${who}: the invalid-answer round did not re-ask: ${JSON.stringify(invalidOutcome)}`);
  }
  const declineOutcome = await retryDecline();
  if (
    declineOutcome.type !== 'complete' ||
    (declineOutcome.result.structuredContent as { status?: string } | undefined)?.status !== 'kept'
  ) {
    throw new Error(`${who}: the decline round did not finish as kept: ${JSON.stringify(declineOutcome)}`);
  }
  return {
    question: messageOf(first.inputRequests.confirm),
    round1State,
    round2State: invalidOutcome.requestState,
    declineOutcome,
    retryInvalid,
    retryDecline,
  };
}
const now = await retriesOf(engine.callTool, 'engine');

// the engine at 8ad16d2 with the demo's tool at 8ad16d2, same key, same kind of store
const loaded = GUARD_ONLY ? 'not measured with --guard' : await loadEngineBefore(repoRoot, dir);
let beforeSkipped: string | undefined;
let before:
  | (Awaited<ReturnType<typeof retriesOf>> & {
      engine: EngineBefore;
      keyring: ReturnType<EngineBefore['createKeyring']>;
      tool: ReturnType<EngineBefore['createRefundOrderTool']>;
    })
  | undefined;
if (typeof loaded === 'string') {
  beforeSkipped = loaded;
} else {
  const oldKeyring = loaded.createKeyring([KEY]);
  const oldTool = loaded.createRefundOrderTool(memoryOrdersStore());
  const oldEngine = loaded.createEngine({ tools: [oldTool], keyring: oldKeyring, audience: AUDIENCE });
  const retries = await retriesOf((request) => oldEngine.callTool(request), `engine at ${loaded.rev.slice(0, 7)}`);
  if (retries.question !== now.question)
    throw new Error(`the two tools ask differently: ${JSON.stringify(retries.question)} vs ${JSON.stringify(now.question)}`);
  before = { ...retries, engine: loaded, keyring: oldKeyring, tool: oldTool };
}

// ─── the baseline: the bare XState cycle of the same machine from the raw persisted snapshot ────────
// No crypto, no binding, no validation. Invalid answer: the engine sends no event (zod rejects the answer,
// it re-asks), so restore → start → persist with no event. An ignored event is timed for information.

const seed = createActor(machine, { input: args });
seed.start();
await waitFor(seed, (s) => s.matches('confirming'));
const persistedJson = JSON.stringify(seed.getPersistedSnapshot());
seed.stop();
const declineEvent = { type: 'confirm.decline', key: 'confirm' } as const;
const ignoredEvent = { type: 'confirm.ignored', key: 'confirm' } as const;
let sink = 0;
const xstateCycle = (event: { type: string } | undefined) => () => {
  const actor = createActor(machine, { snapshot: JSON.parse(persistedJson), input: args });
  actor.start();
  if (event) actor.send(event as never);
  sink += JSON.stringify(actor.getPersistedSnapshot()).length;
  actor.stop();
};
{
  const a = createActor(machine, { snapshot: JSON.parse(persistedJson), input: args });
  a.start();
  a.send(declineEvent as never);
  if (a.getSnapshot().status !== 'done') throw new Error('the baseline decline did not finish');
  a.stop();
}

// the guard: each round kind next to its floor (round-guard.ts), last in the output
const guard = await buildGuard({
  engineFor: (tools) => createEngine({ tools: tools as Parameters<typeof createEngine>[0]['tools'], keyring, audience: AUDIENCE }),
  keyring,
  capabilities,
  principal: PRINCIPAL,
  refund: { machine, args, ...now, declineEvent },
});
if (GUARD_ONLY) {
  const seconds = await runCases(guard.cases, GUARD_ROUNDS);
  console.log(`Roundtrip round/floor guard: each round kind against its floor, ${GUARD_ROUNDS} rounds, ${fmt(seconds)} s`);
  table(guard.cases);
  for (const line of guardLines(results(guard.cases))) console.log(line);
  rmSync(dir, { recursive: true, force: true });
  process.exit(guard.sinkOf() === -1 ? 1 : 0); // stdout to a pipe is synchronous on Linux: nothing is cut
}

const pieces = buildPieces({
  tool,
  keyring,
  keyText: KEY,
  audience: AUDIENCE,
  principal: PRINCIPAL,
  args,
  invalidAnswer: invalidAnswer.confirm,
  declineAnswer: declineAnswer.confirm,
  round1State: now.round1State,
  declineOutcome: now.declineOutcome,
  before: before && { engine: before.engine, keyring: before.keyring, tool: before.tool, round1State: before.round1State },
});

// ─── cases ──────────────────────────────────────────────────────────────────────────────────────────

// every timed engine call is checked (a string compare), so a broken round cannot pass as a fast one
const expect = (type: StepOutcome['type'], call: () => Promise<StepOutcome>) => async () => {
  const o = await call();
  if (o.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(o)}`);
};
const mainCases = [
  mk(
    'rt-invalid',
    'after: retry, invalid answer (open, rehydrate, answer, settle, seal)',
    expect('input_required', now.retryInvalid),
    1,
    true,
  ),
  mk('xs-invalid', 'XState baseline, no event (parse, restore, start, persist, stringify)', xstateCycle(undefined), 1),
  mk('rt-decline', 'after: retry, decline (open, rehydrate, answer, settle, result)', expect('complete', now.retryDecline), 1, true),
  mk('xs-decline', 'XState baseline, decline event (parse, restore, start, send, persist, stringify)', xstateCycle(declineEvent), 1),
  mk('xs-ignored', 'XState, an event the machine ignores (info only)', xstateCycle(ignoredEvent), 1 / 3),
];
const beforeCases = before
  ? [
      mk(
        'old-invalid',
        `before (${before.engine.rev.slice(0, 7)}): retry, invalid answer`,
        expect('input_required', before.retryInvalid),
        1,
        true,
      ),
      mk('old-decline', `before (${before.engine.rev.slice(0, 7)}): retry, decline`, expect('complete', before.retryDecline), 1, true),
      // the old round plus the one thing issue 5 requires of every seal: a nonce fresh from the CSPRNG (a syscall)
      mk(
        'old-invalid-nonce',
        `before (${before.engine.rev.slice(0, 7)}) + one CSPRNG draw: retry, invalid answer`,
        async () => {
          sink += globalThis.crypto.getRandomValues(new Uint8Array(24))[0]!;
          await expect('input_required', before.retryInvalid)();
        },
        1,
        true,
      ),
    ]
  : [];
// order: each case next to the one it is paired with (the order flips every round, so neighbours stay neighbours)
const caseNamed = (name: string) => [...mainCases, ...beforeCases].find((c) => c.name === name);
const cases: Case[] = [
  'rt-invalid',
  'xs-invalid',
  'old-invalid',
  'old-invalid-nonce',
  'rt-decline',
  'xs-decline',
  'old-decline',
  'xs-ignored',
].flatMap((n) => caseNamed(n) ?? []);
cases.push(...guard.cases);
for (const c of pieces.pieceCases) {
  cases.push(c);
  for (const changed of pieces.changedCases) if (changed.partner === c.name) cases.push(changed.case);
}
const elapsed = await runCases(cases);
const measured = results(cases);
const { byName, us, gcUs, paired, pairedDiff, pairedNoGc, pairedDiffNoGc } = measured;

// ─── report ─────────────────────────────────────────────────────────────────────────────────────────

const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(new URL(`../packages/engine/node_modules/${pkg}/package.json`, import.meta.url), 'utf8')) as { version: string })
    .version;
const cpu = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();
const GOAL_RATIO = 1.5;
const sign = (x: number) => `${x >= 0 ? '+' : ''}${fmt(x)}`;
const goalWord = (ratio: number) => (ratio <= GOAL_RATIO ? 'MET' : 'MISSED');

console.log('Roundtrip benchmark: one retry round of refund_order vs the bare XState cycle of the same machine');
console.log('');
console.log(
  `node ${process.version} (OpenSSL ${process.versions.openssl}), xstate ${versionOf('xstate')}, tweetnacl ${versionOf('tweetnacl')}, zod ${versionOf('zod')}`,
);
console.log(`cpu: ${cpu}, ${availableParallelism()} logical cores; global.gc ${gc ? 'called before every sample' : 'not available'}`);
console.log(`method: warm-up, then ${ROUNDS} rounds in alternating order; figure = median over rounds of µs/op; total ${fmt(elapsed)} s`);
console.log(
  `after = working tree (engine second shape, b0938e8 and later); before = ${before ? `${before.engine.rev.slice(0, 7)} from git` : `not measured (${beforeSkipped})`}`,
);

console.log('\n== Throughput');
table([...mainCases, ...beforeCases]);
console.log('');

console.log(`== Ratio to the XState baseline of the same run: median of per-round paired ratios (goal ≤ ${GOAL_RATIO})`);
for (const [label, rt, old, base] of [
  ['invalid answer (re-ask, seal)', 'rt-invalid', 'old-invalid', 'xs-invalid'],
  ['decline (final result, no seal)', 'rt-decline', 'old-decline', 'xs-decline'],
] as const) {
  const after = paired(rt, base);
  console.log(
    `${pad(label, 32)} after ${lpad(fmt(after.ratio, 2), 5)} (per-round ${fmt(after.lo, 2)}–${fmt(after.hi, 2)}), goal ${goalWord(after.ratio)}; engine adds ${fmt(pairedDiff(rt, base))} µs, the goal allows ${fmt((GOAL_RATIO - 1) * us(base))} µs`,
  );
  if (before) {
    const was = paired(old, base);
    const change = paired(rt, old);
    console.log(
      `${pad('', 32)} before ${lpad(fmt(was.ratio, 2), 4)} (per-round ${fmt(was.lo, 2)}–${fmt(was.hi, 2)}); after / before ${fmt(change.ratio, 2)} (per-round ${fmt(change.lo, 2)}–${fmt(change.hi, 2)}), ${sign(pairedDiff(rt, old))} µs per round`,
    );
    // GC pauses depend on the heap's state as much as on the round, so the same without them
    console.log(
      `${pad('', 32)} without GC pauses: after ${fmt(pairedNoGc(rt, base).ratio, 2)}, before ${fmt(pairedNoGc(old, base).ratio, 2)}; after / before ${fmt(pairedNoGc(rt, old).ratio, 2)}, ${sign(pairedDiffNoGc(rt, old))} µs per round; GC ${fmt(gcUs(old))} → ${fmt(gcUs(rt))} µs per round`,
    );
  }
}
if (before) {
  const fair = paired('rt-invalid', 'old-invalid-nonce');
  console.log(
    `${pad('invalid, against before + nonce', 32)} after / (before + one CSPRNG draw) ${fmt(fair.ratio, 2)} (per-round ${fmt(fair.lo, 2)}–${fmt(fair.hi, 2)}), ${sign(pairedDiff('rt-invalid', 'old-invalid-nonce'))} µs per round; the draw alone costs the old round ${sign(pairedDiff('old-invalid-nonce', 'old-invalid'))} µs`,
  );
}
console.log(`${pad('(info) invalid vs ignored-event baseline', 32)} after ${fmt(paired('rt-invalid', 'xs-ignored').ratio, 2)}`);
console.log('');

console.log('== Size of the requestState');
const raw = persistedJson.length;
const goal = 1.4 * raw + 120;
const sizeLine = (label: string, state: string) =>
  console.log(
    `${pad(label, 32)} ${lpad(String(state.length), 5)} chars; raw snapshot ${raw}; goal ≤ 1.4 × ${raw} + 120 = ${fmt(goal)}: ${state.length <= goal ? 'MET' : 'MISSED'} (${fmt(state.length / raw, 2)} × raw, ${fmt(goal - state.length, 0)} to spare)`,
  );
sizeLine('after: round-1 state', now.round1State);
sizeLine('after: round-2 state (re-ask)', now.round2State);
if (before) {
  sizeLine('before: round-1 state', before.round1State);
  sizeLine('before: round-2 state (re-ask)', before.round2State);
}
console.log(`compact snapshot inside the envelope: ${JSON.stringify(pieces.envelope.snapshot).length} chars of JSON`);
console.log('');

console.log('== Breakdown (after): each piece of a retry round timed alone, µs per call');
table(pieces.pieceCases);
const breakdown = (title: string, rt: string, parts: Array<[string, number]>) => {
  const total = us(rt);
  const sum = parts.reduce((n, [, t]) => n + t, 0);
  console.log('');
  console.log(`${title} (${fmt(total)} µs end to end):`);
  for (const [label, t] of [
    ...parts,
    ['rest: actor, subscribe, settle, answer loop, outcome objects, colder pieces', total - sum] as [string, number],
  ]) {
    console.log(`  ${pad(label, 84)} ${lpad(fmt(t, t < 1 ? 2 : 1), 6)} µs  ${lpad(fmt((100 * t) / total, 0), 3)} %`);
  }
};
breakdown('Where one invalid-answer round goes', 'rt-invalid', [
  ['XState cycle (the baseline itself)', us('xs-invalid')],
  [`seal: envelope + sealState (secretbox ${fmt(us('box-seal'))}, fresh nonce ${fmt(us('nonce'))})`, us('seal')],
  [`open (secretbox.open ${fmt(us('box-open'))})`, us('open')],
  ['decode + check envelope', us('check')],
  ['args tag (SHA-512)', us('args')],
  ['question: rendered and hashed once, rendered once more', us('question') + us('message')],
  ['zod: arguments + failing answer', us('zod-invalid')],
  ['JSON-context check (new)', us('json-context')],
  ['effect scope (new)', us('scope')],
  ['GC pauses inside the round samples', gcUs('rt-invalid')],
]);
breakdown('Where one decline round goes', 'rt-decline', [
  ['XState cycle (the baseline itself, incl. persist + stringify the engine does not do)', us('xs-decline')],
  [`open (secretbox.open ${fmt(us('box-open'))})`, us('open')],
  ['decode + check envelope', us('check')],
  ['args tag (SHA-512)', us('args')],
  ['question: rendered and hashed once', us('question')],
  ['zod: arguments', us('zod-decline')],
  ['finish: result() + structuredContent JSON check (new)', us('finish')],
  ['effect scope (new)', us('scope')],
  ['GC pauses inside the round samples', gcUs('rt-decline')],
]);
const cipher = us('box-seal') + us('box-open');
console.log('');
console.log(
  `cipher floor of a re-ask round: ${fmt(cipher)} µs (secretbox + open) against ${fmt((GOAL_RATIO - 1) * us('xs-invalid'))} µs allowed: ratio ≥ ${fmt(1 + cipher / us('xs-invalid'), 2)} from the cipher alone`,
);
console.log('');

if (before) {
  console.log(`== What b0938e8 changed in a round: old code (${before.engine.rev.slice(0, 7)}) beside new, same input, µs per call`);
  table(pieces.changedCases.map((c) => c.case));
  console.log('');
  // [what, before case (or none), after case, calls per invalid round, per decline round]
  const rows: Array<[string, string | undefined, string, number, number]> = [
    ['seal: pooled nonce → fresh nonce, two buffers instead of five', 'was-seal', 'seal-only', 1, 0],
    ['open: private key map, one buffer instead of two', 'was-open', 'open', 1, 1],
    ['decode + check envelope', 'was-check', 'check', 1, 1],
    ['final result: + structuredContent JSON check (finish)', 'was-finish', 'finish', 0, 1],
    ['JSON-context check before sealing (new)', undefined, 'json-context', 1, 0],
    ['effect scope for the ledger (new)', undefined, 'scope', 1, 1],
  ];
  let addInvalid = 0;
  let addDecline = 0;
  for (const [what, was, is, ni, nd] of rows) {
    const delta = was ? pairedDiff(is, was) : us(is);
    addInvalid += delta * ni;
    addDecline += delta * nd;
    const change = was
      ? `${lpad(fmt(us(was), 2), 5)} → ${lpad(fmt(us(is), 2), 5)} (after / before ${fmt(paired(is, was).ratio, 2)})`
      : `${lpad('—', 5)} → ${lpad(fmt(us(is), 2), 5)}`;
    console.log(
      `${pad(what, 60)} ${change}; ${delta >= 0 ? '+' : ''}${fmt(delta, 2)} µs × ${ni} per invalid round, × ${nd} per decline round`,
    );
  }
  console.log(
    `${pad('sum of the pieces above, each timed alone', 60)} ${addInvalid >= 0 ? '+' : ''}${fmt(addInvalid)} µs per invalid round, ${addDecline >= 0 ? '+' : ''}${fmt(addDecline)} per decline round; measured whole-round difference ${fmt(pairedDiff('rt-invalid', 'old-invalid'))} and ${fmt(pairedDiff('rt-decline', 'old-decline'))} µs (without GC pauses ${fmt(pairedDiffNoGc('rt-invalid', 'old-invalid'))} and ${fmt(pairedDiffNoGc('rt-decline', 'old-decline'))})`,
  );
}

if (sink + pieces.sinkOf() + guard.sinkOf() === -1) console.log(byName('rt-invalid').label); // keep the results alive
rmSync(dir, { recursive: true, force: true });

console.log('\n== Each round kind against its floor (bench/round-guard.ts): median of per-round paired ratios');
table(guard.cases);
for (const line of guardLines(measured)) console.log(line);
