// The outcomes of a flow's invoked work, as events a walk can send where the engine would wait: each
// sample result of a load step and its failure (each a way through), an async check that accepts (a
// refusal asks again: a loop, not a way on), and an async show.
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import type { FlowEvent } from '../flow-context.ts';
import { workOf } from '../invoked-states.ts';
import type { AtomicTest } from './condition-tests.ts';

/** A load's outcome as the walk sends it; `step` and `loader` say whose. */
export interface LoadEvent extends FlowEvent {
  readonly step: string;
  readonly loader: string;
}

const DONE = 'xstate.done.actor.';
const ERROR = 'xstate.error.actor.';

/** The load step an event reports on, if it is a load's outcome. */
export const loadOf = (event: { type: string }): LoadEvent | undefined =>
  'step' in event && 'loader' in event ? (event as LoadEvent) : undefined;

/** An event that reports invoked work (not an answer). */
export const isWorkEvent = (event: { type: string }): boolean => event.type.startsWith(DONE) || event.type.startsWith(ERROR);

/**
 * The sample results of each load step: `loaded[step]` when given; else `null`, unless some condition
 * reads under the step, which then needs samples (it decides where the flow goes).
 */
export function loadSamples(loaded: Readonly<Record<string, readonly unknown[]>>, tests: readonly AtomicTest[]) {
  return (step: string): readonly unknown[] => {
    const given = loaded[step];
    if (given !== undefined) return given;
    const read = tests.filter((test) => test.path.startsWith(`${step}.`)).map((test) => test.path);
    if (read.length > 0)
      throw new Error(
        `conversationsOf: step '${step}' loads a value the flow's conditions read (${[...new Set(read)].join(', ')}); pass sample results for each way it can go: conversationsOf(definition, { loaded: { ${step}: [{ … }, { … }] } }).`,
      );
    return [null];
  };
}

/** The outcomes of the first invoked work still running in `snapshot`; none when nothing runs. */
export function workEvents(snapshot: AnyMachineSnapshot, samples: (step: string) => readonly unknown[]): FlowEvent[] {
  const running = Object.entries(snapshot.children as Record<string, AnyActorRef | undefined>).find(([, child]) => child !== undefined);
  if (!running) return [];
  const [id] = running;
  const work = workOf(id);
  if (work.kind === 'check') return [{ type: `${DONE}${id}`, output: null }];
  if (work.kind === 'show') return [{ type: `${DONE}${id}`, output: {} }];
  // a load step is a top-level state of its own, named after the step
  const step = String(snapshot.value);
  const loaded: LoadEvent[] = samples(step).map((output) => ({ type: `${DONE}${id}`, output, step, loader: work.name }));
  const failed: LoadEvent = { type: `${ERROR}${id}`, error: new Error(`a failed load (${work.name})`), step, loader: work.name };
  return [...loaded, failed];
}
