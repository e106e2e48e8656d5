// A machine config as a Mermaid `stateDiagram-v2`: every state (nested ones as composite states, the
// regions of a parallel state separated by `--`), initial and final markers, every transition labelled
// `event [guard]`, and a note on each state that asks questions.
import { isRecord, listOf, type MachineJson, transitionsOf } from './machine-code-walk.ts';
import { escapeLabel, noteLines, transitionLabel } from './mermaid-labels.ts';
import { type DiagramState, idIndex, initialChild, readTree, resolveTarget } from './mermaid-tree.ts';

export interface MermaidOptions {
  /** Question key → message, shown in the note of each state that asks the question. */
  readonly questions?: Readonly<Record<string, string>>;
  /** Question key → the titles of its form's fields, listed in the note of each state that asks it. */
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  /**
   * A guard's `condition` param (its JSON text) → the condition in words, shown in its place
   * (`MachineExport.conditions`); a condition not listed is shown as its JSON.
   */
  readonly conditions?: Readonly<Record<string, string>>;
}

const isParallel = (state: DiagramState) => state.json.type === 'parallel';

/** A state's name in the diagram: its key, with `H` or `H*` for a history state. */
function labelOf(state: DiagramState): string {
  if (state.json.type !== 'history') return state.key;
  return `${state.key} (${state.json.history === 'deep' ? 'H*' : 'H'})`;
}

/**
 * The diagram's edge lines, by the state whose block holds them (`null`: the top level). Mermaid moves
 * a state into the block of any edge that names it inside a composite state, so an edge goes inside
 * only when its ends are children of that (not parallel) state; every other edge goes at the top level.
 */
function edgeLines(
  root: DiagramState,
  states: readonly DiagramState[],
  wrapped: boolean,
  conditions: Readonly<Record<string, string>>,
): Map<DiagramState | null, string[]> {
  const byId = idIndex({ root, states });
  const out = new Map<DiagramState | null, string[]>();
  const push = (block: DiagramState | null, line: string) => out.set(block, [...(out.get(block) ?? []), line]);
  const blockOf = (a: DiagramState, b: DiagramState): DiagramState | null =>
    a.parent && a.parent === b.parent && !isParallel(a.parent) ? a.parent : wrapped ? null : root;
  for (const state of wrapped ? [root, ...states] : states) {
    for (const transition of transitionsOf(state.json)) {
      const label = transitionLabel(transition, conditions) || 'event';
      // a target-less transition is drawn as a self-loop when it guards or acts; otherwise it changes nothing
      const selfLoop = transition.targets.length === 0 && (transition.guard !== undefined || transition.actions.length > 0);
      if (selfLoop) push(blockOf(state, state), `${state.id} --> ${state.id} : ${label}`);
      for (const target of transition.targets) {
        const to = resolveTarget(state, target, byId);
        if (to) push(blockOf(state, to), `${state.id} --> ${to.id} : ${label}`);
        else push(blockOf(state, state), `%% ${state.id} --> ? : ${label} (target '${target.replace(/\s+/g, ' ')}' names no state)`);
      }
    }
  }
  return out;
}

/**
 * Draws `config` (an XState v5 machine config as JSON) as a Mermaid `stateDiagram-v2`. State ids are
 * word characters only, unique across the diagram (`report_details_asking`, shown as `asking`); labels
 * escape what Mermaid reads as syntax. The same config gives the same text.
 *
 * @example
 * toMermaid({ id: 'm', initial: 'a', states: { a: { on: { GO: 'b' } }, b: { type: 'final' } } });
 * // stateDiagram-v2
 * //   [*] --> a
 * //   a
 * //   b
 * //   a --> b : GO
 * //   b --> [*]
 */
export function toMermaid(config: MachineJson, options: MermaidOptions = {}): string {
  const questions = options.questions ?? {};
  const { root, states } = readTree(config);
  // the machine itself is drawn as a state only when it has to be: parallel at the top, or with transitions of its own
  const wrapped = isParallel(root) || transitionsOf(config).length > 0;
  const edges = edgeLines(root, states, wrapped, options.conditions ?? {});
  const lines = ['stateDiagram-v2'];
  const emit = (depth: number, text: string) => lines.push(`${'  '.repeat(depth)}${text}`);

  const emitNote = (state: DiagramState, depth: number) => {
    const meta = state.json.meta;
    const ask = listOf(isRecord(meta) ? meta.ask : undefined).filter((k): k is string => typeof k === 'string');
    if (ask.length === 0) return;
    const note = noteLines(ask, questions, options.fields);
    if (note.length === 1) return emit(depth, `note right of ${state.id} : ${note[0]}`);
    emit(depth, `note right of ${state.id}`);
    for (const line of note) emit(depth + 1, line);
    emit(depth, 'end note');
  };

  const emitState = (state: DiagramState, depth: number) => {
    const label = labelOf(state);
    // `[[fork]]`, `[[join]]` and `[[choice]]` anywhere in a `state` line make it a pseudostate
    if (label !== state.id) emit(depth, `state "${escapeLabel(label).replaceAll('[', '#91;')}" as ${state.id}`);
    if (state.children.length === 0) {
      if (label === state.id) emit(depth, state.id);
      return;
    }
    emit(depth, `state ${state.id} {`);
    emitContents(state, depth + 1);
    emit(depth, '}');
  };

  function emitContents(state: DiagramState, depth: number): void {
    const parallel = isParallel(state);
    const initial = parallel ? undefined : initialChild(state);
    if (initial) emit(depth, `[*] --> ${initial.id}`);
    state.children.forEach((child, i) => {
      if (parallel && i > 0) emit(depth, '--');
      emitState(child, depth);
      // in a parallel state a line belongs to the region above it: each region's note goes with it
      if (parallel) emitNote(child, depth);
    });
    for (const line of edges.get(state) ?? []) emit(depth, line);
    for (const child of state.children) if (child.json.type === 'final') emit(depth, `${child.id} --> [*]`);
    if (!parallel) for (const child of state.children) emitNote(child, depth);
  }

  if (wrapped) {
    emit(1, `[*] --> ${root.id}`);
    emitState(root, 1);
    for (const line of edges.get(null) ?? []) emit(1, line);
  } else emitContents(root, 1);
  return `${lines.join('\n')}\n`;
}
