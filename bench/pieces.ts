// The pieces one retry round of refund_order runs, each timed alone on the same input the round has:
// today's through `@roundtrip/engine/internal` (read off run-step.ts), and for the pieces that changed in
// b0938e8 the old code beside the new (the old engine's own modules, loaded from git by engine-before.ts).

import { createRequire } from 'node:module';
import { canonicalJson, createMemoryLedger, firstNonJson, type Keyring, parseKey, type StepOutcome } from '../packages/engine/src/index.ts';
import {
  type CompiledMachine,
  checkEnvelope,
  digestBytes,
  encodeEnvelope,
  internalsOf,
  openState,
  readAnswer,
  type StateEnvelope,
  sealState,
  setEffectScope,
  TAG_BYTES,
} from '../packages/engine/src/internal.ts';
import type { EngineBefore } from './engine-before.ts';
import { type Case, mk } from './harness.ts';

/** The weights of the piece cases: a breakdown piece takes a third of a whole-round case per round. */
const W_PIECE = 1 / 3;
const W_SMALL = 1 / 6;
/** The size of sealState's output buffer for the bench's state, which the nonce is drawn into. */
const NONCE_SLOT_BYTES = 320;

/** The last result object of the finish pieces, kept so the optimiser cannot drop its construction. */
let escaped: unknown;
const noop = () => {};
/** What run-step.ts gives a round's effects; the bench sets and releases it as a round does. */
const scopeValue: Parameters<typeof setEffectScope>[1] = {
  run: 'AAAAAAAAAAAA',
  ledger: createMemoryLedger(),
  inflight: new Map(),
  now: Date.now,
  orphanAfterMs: 20_000,
  log: noop,
};

// ─── the pieces ─────────────────────────────────────────────────────────────────────────────────────

interface PieceInput {
  tool: object;
  keyring: Keyring;
  keyText: string;
  audience: string;
  principal: string;
  args: Record<string, unknown>;
  invalidAnswer: unknown;
  declineAnswer: unknown;
  round1State: string;
  declineOutcome: StepOutcome;
  before:
    | {
        engine: EngineBefore;
        keyring: Parameters<EngineBefore['sealState']>[0];
        tool: ReturnType<EngineBefore['createRefundOrderTool']>;
        round1State: string;
      }
    | undefined;
}

export function buildPieces(input: PieceInput) {
  const { tool, keyring, round1State } = input;
  const internals = internalsOf(tool);
  const compiled: CompiledMachine = internals.machine;
  const question = compiled.asksByState.get('refund_order.confirming')?.[0];
  if (!question) throw new Error("the bench tool's confirming state asks nothing");
  let sink = 0;

  const argsText = () => `tools/call\0refund_order\0${canonicalJson(input.args)}`;
  const binding = {
    aud: digestBytes(`aud\0${input.audience}`, TAG_BYTES.aud),
    sub: digestBytes(`sub\0${input.principal}`, TAG_BYTES.sub),
    target: digestBytes('tools/call\0refund_order', TAG_BYTES.target),
    args: digestBytes(argsText(), TAG_BYTES.args),
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const opened = openState(keyring, round1State);
  if (!opened.ok) throw new Error('the round-1 state did not open');
  const checked = checkEnvelope(opened.plaintext, binding, compiled, { nowSeconds: nowSeconds(), maxRounds: 64, expiry: 'checked' });
  if (!checked.ok) throw new Error(`the bench binding differs from the engine's: ${checked.rejection.detail}`);
  const envelope: StateEnvelope = checked.envelope;
  const context = envelope.snapshot.c;
  const render = () => (typeof question.message === 'string' ? question.message : question.message({ context }));
  const questionHash = () => digestBytes(`${render()}\0${question.schemaText}`, TAG_BYTES.question);
  if (!Buffer.from(questionHash()).equals(envelope.questions.get('confirm') ?? new Uint8Array()))
    throw new Error('the bench question hash differs from the sealed one');
  if (firstNonJson(context, 'context') !== undefined) throw new Error('the context is not plain JSON');
  const payload = encodeEnvelope({ ...envelope, round: 2 });

  // tweetnacl, through the engine's own dependency (the instance the engine uses); the key from its text
  const nacl = createRequire(new URL('../packages/engine/package.json', import.meta.url))('tweetnacl') as {
    randomBytes: (n: number) => Uint8Array;
    secretbox: ((m: Uint8Array, n: Uint8Array, k: Uint8Array) => Uint8Array) & {
      open: (b: Uint8Array, n: Uint8Array, k: Uint8Array) => Uint8Array | null;
    };
  };
  const key = parseKey(input.keyText);
  const boxPlain = new Uint8Array(6 + payload.length); // key-id copy + envelope, as sealState boxes it
  boxPlain.set(payload, 6);
  const boxNonce = nacl.randomBytes(24);
  const nonceSlot = new Uint8Array(NONCE_SLOT_BYTES); // as sealState draws it: into the output buffer
  const boxed = nacl.secretbox(boxPlain, boxNonce, key);

  const output = input.declineOutcome.type === 'complete' ? input.declineOutcome.result.structuredContent : undefined;
  if (!output) throw new Error('the decline round gave no structured content');

  const now = {
    open: () => {
      const r = openState(keyring, round1State);
      sink += r.ok ? r.plaintext.length : 0;
    },
    boxOpen: () => {
      sink += nacl.secretbox.open(boxed, boxNonce, key)!.length;
    },
    seal: () => {
      sink += sealState(keyring, encodeEnvelope({ ...envelope, round: 2 })).length;
    },
    sealOnly: () => {
      sink += sealState(keyring, payload).length;
    },
    boxSeal: () => {
      sink += nacl.secretbox(boxPlain, boxNonce, key).length;
    },
    nonce: () => {
      sink += globalThis.crypto.getRandomValues(nonceSlot.subarray(0, 24))[0]!;
    },
    check: () => {
      sink += checkEnvelope(opened.plaintext, binding, compiled, { nowSeconds: nowSeconds(), maxRounds: 64, expiry: 'checked' }).ok ? 1 : 0;
    },
    args: () => {
      sink += digestBytes(argsText(), TAG_BYTES.args)[0]!;
    },
    question: () => {
      sink += questionHash()[0]!;
    },
    message: () => {
      sink += render().length;
    },
    zodInvalid: () => {
      sink += internals.args.safeParse(input.args).success ? 1 : 0;
      sink += readAnswer(input.invalidAnswer, question).kind.length;
    },
    zodDecline: () => {
      sink += internals.args.safeParse(input.args).success ? 1 : 0;
      sink += readAnswer(input.declineAnswer, question).kind.length;
    },
    jsonContext: () => {
      sink += firstNonJson(context, 'context') === undefined ? 1 : 0;
    },
    // async since a tool's result() may be: the await is part of what a final round costs now
    finish: async () => {
      escaped = await internals.finish(output, {});
      sink += (escaped as { content: unknown[] }).content.length;
    },
    scope: () => {
      const release = setEffectScope({}, scopeValue);
      release();
      sink += 1;
    },
  };

  const pieceCases: Case[] = [
    mk('open', 'openState: base64url decode, secretbox.open, key-id check', now.open, W_PIECE),
    mk('box-open', '  of which nacl.secretbox.open alone', now.boxOpen, W_PIECE),
    mk('seal', 'encodeEnvelope + sealState: envelope, fresh nonce, secretbox, base64url', now.seal, W_PIECE),
    mk('seal-only', '  of which sealState alone', now.sealOnly, W_PIECE),
    mk('box-seal', '  of which nacl.secretbox alone', now.boxSeal, W_PIECE),
    mk('nonce', '  of which the nonce: crypto.getRandomValues, 24 bytes in place', now.nonce, W_PIECE),
    mk('check', 'decodeEnvelope + checkEnvelope (snapshot JSON.parse, tag compares)', now.check, W_PIECE),
    mk('args', 'args tag: canonicalJson(args) + SHA-512', now.args, W_PIECE),
    mk('question', 'question hash: render, then SHA-512 of message, NUL, schema text', now.question, W_PIECE),
    mk('message', "question message rendered (the tool's function, formatCents)", now.message, W_SMALL),
    mk('zod-invalid', 'zod: arguments + invalid answer (readAnswer, failing safeParse)', now.zodInvalid, W_PIECE),
    mk('zod-decline', 'zod: arguments + decline answer (no content to parse)', now.zodDecline, W_SMALL),
    mk('json-context', 'JSON-context check before sealing (firstNonJson)', now.jsonContext, W_PIECE),
    mk('finish', 'definition finish: result() + structuredContent JSON check (awaited)', now.finish, W_PIECE, true),
    mk('scope', 'effect scope for the ledger (setEffectScope and its release)', now.scope, W_SMALL),
  ];

  // the pieces b0938e8 changed: the old engine's code on the same input (its own keyring, same key),
  // each timed right after its new counterpart (`partner`)
  const changedCases: Array<{ case: Case; partner: string }> = [];
  const before = input.before;
  if (before) {
    const old = before.engine;
    const oldOpened = old.openState(before.keyring, before.round1State);
    if (!oldOpened.ok) throw new Error('the old round-1 state did not open with the old engine');
    if (!old.checkEnvelope(oldOpened.plaintext, binding, before.tool._machine, nowSeconds(), 64).ok)
      throw new Error('the old check refused its own state');
    // the old envelope (format 1) ends with the snapshot's JSON; format 2 moved the machine's version to the header
    const { version: _version, ...snapshotJson } = envelope.snapshot;
    if (!new TextDecoder().decode(oldOpened.plaintext).endsWith(JSON.stringify(snapshotJson)))
      throw new Error('the old and new tools seal different snapshots');
    if (!old.openState(before.keyring, round1State).ok) throw new Error('the old openState cannot open a new state');
    const was = {
      seal: () => {
        sink += old.sealState(before.keyring, payload).length;
      },
      open: () => {
        const r = old.openState(before.keyring, round1State);
        sink += r.ok ? r.plaintext.length : 0;
      },
      check: () => {
        sink += old.checkEnvelope(oldOpened.plaintext, binding, before.tool._machine, nowSeconds(), 64).ok ? 1 : 0;
      },
      // what create-engine.ts did with a final output at 8ad16d2
      finish: () => {
        const view = before.tool._result(output);
        const result: { content: unknown[]; structuredContent?: unknown; isError?: boolean } = {
          content: [{ type: 'text', text: view.text }],
        };
        if (view.structured !== undefined) result.structuredContent = view.structured;
        if (view.isError) result.isError = true;
        escaped = result; // kept reachable, so the optimiser cannot drop the object the engine returned
        sink += result.content.length;
      },
    };
    changedCases.push(
      { case: mk('was-seal', 'before: sealState, nonce a 24-byte slice of a 4080-byte pool', was.seal, W_PIECE), partner: 'seal-only' },
      { case: mk('was-open', 'before: openState, key from keyring._keys', was.open, W_PIECE), partner: 'open' },
      { case: mk('was-check', 'before: decodeEnvelope + checkEnvelope', was.check, W_PIECE), partner: 'check' },
      { case: mk('was-finish', 'before: result() and the result object, no JSON check', was.finish, W_PIECE), partner: 'finish' },
    );
  }
  return { pieceCases, changedCases, envelope, sinkOf: () => sink };
}
