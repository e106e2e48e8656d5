// The one module that knows how XState persists a snapshot, so a move to XState v6
// (restoreActor, snapshot migrations) changes this file only.
import { type Actor, type AnyStateMachine, createActor, type InspectionEvent } from 'xstate';
import type { CompactSnapshot } from './state-envelope.ts';
import type { JsonObject, JsonValue } from './wire-shapes.ts';

/**
 * A settled snapshot without the parts that are always the same when sealed, stamped with the version
 * of the machine that took it (XState does not persist it).
 */
export function compactSnapshot(actor: Actor<AnyStateMachine>): CompactSnapshot {
  const persisted = actor.getPersistedSnapshot() as Record<string, unknown>;
  const version = actor.logic.version ?? '0';
  const out: CompactSnapshot = { version, v: persisted.value as JsonValue, c: (persisted.context ?? null) as JsonValue };
  const history = persisted.historyValue as JsonObject | undefined;
  if (hasKeys(history)) out.h = history;
  const children = persisted.children as JsonObject | undefined;
  if (hasKeys(children)) out.ch = children;
  return out;
}

/** Whether an object has an own enumerable key (without listing them all). */
function hasKeys(value: JsonObject | undefined): value is JsonObject {
  if (!value) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/** What an actor's run reports to: XState's inspection events, and what the machine's log() actions say. */
export interface ActorReporting {
  inspect?: ((event: InspectionEvent) => void) | undefined;
  /** Receives log() actions of the machine and of its children (XState's default is console.log). */
  logger: (...args: unknown[]) => void;
}

/** A new actor for the machine: fresh from its input, or restored from a sealed snapshot. */
export function actorFor(
  machine: AnyStateMachine,
  input: unknown,
  snapshot: CompactSnapshot | undefined,
  reporting: ActorReporting,
): Actor<AnyStateMachine> {
  if (!snapshot) return createActor(machine, { input, logger: reporting.logger, ...(reporting.inspect && { inspect: reporting.inspect }) });
  const restored = {
    status: 'active',
    value: snapshot.v,
    context: snapshot.c,
    historyValue: snapshot.h ?? {},
    children: snapshot.ch ?? {},
  };
  return createActor(machine, {
    input,
    logger: reporting.logger,
    snapshot: restored as never,
    ...(reporting.inspect && { inspect: reporting.inspect }),
  });
}
