// Tasks (MCP SEP-2663) in declared flows: a tool's `task` option and the work its steps mark long (a
// `load` step's `long`, the tool's `finalLong`) only mean something together, so they are checked together.
// The marks themselves are written into the config as `meta.long` (invoked-states.ts, final-action.ts).
import { ProblemList } from '@roundtrip/engine';
import type { CompiledFlow } from './compiled-flow.ts';
import { kindOf } from './step-kinds.ts';

/** What has effect only with the other. */
const LONG_NEEDS_TASK = "long: true has effect only when the tool declares task: 'optional' or 'required'.";

/** Where the flow's long work is: the problem path of each step marked long (a load's), and `finalLong`. */
function longPlaces(flow: CompiledFlow, finalLong: boolean): string[][] {
  const loads = [...flow.steps.values()].filter(({ spec }) => kindOf(spec).long?.(spec)).map(({ name }) => [`step '${name}'`, 'long']);
  return finalLong ? [...loads, ['finalLong']] : loads;
}

/**
 * A flow tool's `task` against its long work: long work without `task` would never be a task (its mark
 * silently ignored), and `task` without long work would never let go of the request, so both are problems.
 */
export function checkFlowTask(owner: string, flow: CompiledFlow, task: unknown, finalLong: boolean): void {
  const p = new ProblemList<'invalid_step' | 'invalid_option'>().at(owner);
  const places = longPlaces(flow, finalLong);
  if (task === undefined)
    for (const where of places)
      p.add(
        where,
        'invalid_step',
        LONG_NEEDS_TASK,
        "Declare task: 'optional' on the tool (a task for clients that accept tasks, inside the request for others), or remove long.",
      );
  else if (places.length === 0)
    p.add(
      ['task'],
      'invalid_option',
      `the tool declares task: ${JSON.stringify(task)}, but no step is marked long, so no call would ever go on as a task.`,
      'Mark the step that may take long: long: true on its load step, or finalLong: true for the final action; or remove task.',
    );
  p.throwIfAny();
}

/** A prompt's or a resource's load steps marked long: they never become tasks (only tools do), so the mark is refused. */
export function refuseLong(owner: string, flow: CompiledFlow, kind: 'prompt' | 'resource'): void {
  const p = new ProblemList<'invalid_step'>().at(owner);
  for (const where of longPlaces(flow, false))
    p.add(
      where,
      'invalid_step',
      `long: true has effect only in a tool that declares task: 'optional' or 'required'; a ${kind} never becomes a task.`,
      `Remove long from the step, or declare the flow as a tool (defineFlowTool) with task: 'optional'.`,
    );
  p.throwIfAny();
}
