// The snapshot of a task parked on questions, sealed with the engine's keyring (it holds the answers so far)
// in the same envelope as a requestState, bound to the task's principal, tool, arguments, machine and run;
// and the round a task's answers are fed in, as its creator would send it.
import type { Actor, AnyStateMachine } from 'xstate';
import { decodeBase64url } from './base64url.ts';
import type { Round, StepContext, StepTarget } from './round-types.ts';
import { openState, sealState } from './sealed-state.ts';
import { compactSnapshot } from './snapshot-codec.ts';
import { type CompactSnapshot, decodeEnvelope, encodeEnvelope, sameBytes } from './state-envelope.ts';
import type { TaskRequest } from './task-shapes.ts';
import type { TaskRecord } from './task-store.ts';
import type { CallToolResult } from './wire-shapes.ts';

/** Seals the actor's settled snapshot for a task living until `expiresAt` (ms). */
export function sealTaskSnapshot(round: Round<unknown>, actor: Actor<AnyStateMachine>, expiresAt: number): string {
  const { ctx, target, binding } = round;
  const nowMs = ctx.now();
  const envelope = encodeEnvelope({
    iat: Math.floor(nowMs / 1000),
    exp: Math.ceil(expiresAt / 1000),
    ...binding,
    machine: target.definition.machine.hash,
    round: Math.min(round.number, 0xffff),
    run: decodeBase64url(round.run)!,
    questions: new Map(),
    snapshot: compactSnapshot(actor),
  });
  return sealState(ctx.keyring, envelope);
}

/** The snapshot sealed by sealTaskSnapshot for this round's binding and machine; undefined if it does not open or fit. */
export function openTaskSnapshot(ctx: StepContext, round: Round<unknown>, sealed: string): CompactSnapshot | undefined {
  const opened = openState(ctx.keyring, sealed);
  if (!opened.ok) return undefined;
  const envelope = decodeEnvelope(opened.plaintext);
  if (!envelope || !('snapshot' in envelope)) return undefined;
  const { binding, target } = round;
  const fits =
    sameBytes(envelope.aud, binding.aud) &&
    sameBytes(envelope.sub, binding.sub) &&
    sameBytes(envelope.target, binding.target) &&
    sameBytes(envelope.args, binding.args) &&
    sameBytes(envelope.machine, target.definition.machine.hash);
  return fits ? envelope.snapshot : undefined;
}

/** A round of the task's tool, as the task's creator sends it. */
export function taskRound(
  ctx: StepContext,
  record: TaskRecord,
  target: StepTarget<CallToolResult>,
  request: TaskRequest,
  inputResponses: unknown,
): Round<CallToolResult> {
  return {
    ctx,
    target,
    request: { principal: request.principal, capabilities: record.capabilities, inputResponses, tasks: true },
    trace: undefined,
    binding: {
      aud: ctx.audienceTag,
      sub: record.principalTag,
      target: target.targetTag,
      args: ctx.argsTag(target.argsScope, target.args),
    },
    run: record.run,
    number: 1,
  };
}
