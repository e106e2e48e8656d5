// Phase 2 of a round: the machine's actor, fresh or restored from the opened state, with what it reports
// to (the engine's log, XState's inspection, progress) and the effect scope its effects read.
import type { Actor, AnyActorRef, AnyStateMachine, Observer } from 'xstate';
import { clearEffectScope, setEffectScope } from './effect-scope.ts';
import { progressText } from './progress-text.ts';
import { note } from './round-note.ts';
import type { Round } from './round-types.ts';
import { actorFor } from './snapshot-codec.ts';
import type { CompactSnapshot } from './state-envelope.ts';

// XState rethrows (from a timer) an error no observer handles; the snapshot keeps the error, so the
// observer only has to exist. One for every round.
const HANDLED: Observer<unknown> = { error: () => {} };
// a machine's log() actions go to the engine's log; without one, nowhere (never to stdout, which a
// stdio server keeps for the protocol)
const NO_LOG = () => {};

/** Creates the round's actor (not started) and gives its effects their scope; endRoundActor ends both. */
export function createRoundActor(round: Round<unknown>, snapshot: CompactSnapshot | undefined): Actor<AnyStateMachine> {
  const { ctx, target, request } = round;
  const actor = actorFor(target.definition.machine.machine, target.args, snapshot, {
    inspect: ctx.inspectActors,
    logger: ctx.log ? (...args) => note(round, { level: 'info', event: 'machine_log', code: 'machine_log', args }) : NO_LOG,
  });
  setEffectScope(actor.system, {
    run: round.run,
    ledger: ctx.ledger,
    inflight: ctx.inflight,
    now: ctx.now,
    orphanAfterMs: ctx.settleTimeoutMs * 2,
    log: ctx.log ? (event) => note(round, event) : NO_LOG,
  });
  actor.subscribe(HANDLED);
  if (request.onProgress) reportProgress(round, actor, request.onProgress);
  return actor;
}

/** Stops the round's actor (and what it invoked) and ends its effects' scope. */
export function endRoundActor(actor: Actor<AnyStateMachine>): void {
  actor.stop();
  clearEffectScope(actor.system);
}

/**
 * Reports each invoked child as it starts running, in the author's words for it (progress-text.ts),
 * never by its id (the log names it when reporting fails); children starting together with the same
 * words are reported once.
 */
function reportProgress(
  round: Round<unknown>,
  actor: Actor<AnyStateMachine>,
  report: NonNullable<Round<unknown>['request']['onProgress']>,
): void {
  const machine = round.target.definition.machine.machine;
  // by the child itself: work invoked again under the same id (a load the flow came back to) is said again
  const seen = new WeakSet<AnyActorRef>();
  let progress = 0;
  actor.subscribe({
    next: (snapshot) => {
      // a round gone on as a task has answered its request: its work's words go to the task's statusMessage
      if (round.detached) return;
      let said: Set<string> | undefined;
      for (const [id, child] of Object.entries(snapshot.children as Record<string, AnyActorRef | undefined>)) {
        if (child === undefined || seen.has(child) || child.getSnapshot().status !== 'active') continue;
        seen.add(child);
        const message = progressText(machine, snapshot, id);
        said ??= new Set();
        if (said.has(message)) continue;
        said.add(message);
        try {
          report({ progress: ++progress, message });
        } catch (error) {
          note(round, { level: 'warn', event: 'progress_failed', code: 'progress_threw', child: id, error });
        }
      }
    },
    // the HANDLED observer records nothing either: the snapshot holds the error
    error: () => {},
  });
}
