// The machine behind a tool, prompt or resource as plain JSON, with every part that is code (not data)
// named: mappers left out on purpose, and inline functions that make a machine impossible to export.
import { describeDefinition, type PromptDefinition, presentationOf, type ResourceDefinition, type ToolDefinition } from '@roundtrip/engine';

export type Definition = ToolDefinition | PromptDefinition | ResourceDefinition;

/** A part of a machine config that is a function: where it is, and what it is. */
export interface MachinePart {
  /** `states.confirming.on["confirm.accept"][0].actions[0]` */
  readonly path: string;
  readonly what: string;
}

export interface MachineExport {
  /** The file name stem: the tool or prompt name, or the resource's name. */
  readonly name: string;
  readonly kind: Definition['kind'];
  /** The machine config: plain JSON, importable into Stately. */
  readonly config: Record<string, unknown>;
  /**
   * The config as diagrams draw it by default, for people: the definition's presentation view when it
   * has one (a declared flow without the engine's internal edges: passing answered steps through while
   * reviewing, dropping kept answers that fail now); any other machine as it is. Draw `config` for every edge.
   */
  readonly userView: Record<string, unknown>;
  /** Question key → the titles of its form's fields (declared flows' forms only). */
  readonly fields: Readonly<Record<string, readonly string[]>>;
  /** A guard's `condition` param (its JSON text) → the condition in words (declared flows' only). */
  readonly conditions: Readonly<Record<string, string>>;
  /** Question key → message template (`undefined` when the message is written as a function). */
  readonly questions: Readonly<Record<string, string | undefined>>;
  /** The engine's structure hash of the machine the server runs. */
  readonly structureHash: string;
  /** Functions that map data (context, output, invoke input, params): left out; the diagram does not need them. */
  readonly omitted: readonly MachinePart[];
  /** Inline guards, actions or actors: the structure itself is code, so the machine cannot be exported. */
  readonly inline: readonly MachinePart[];
}

const MAPPERS = new Set(['context', 'output', 'input', 'params']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const step = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : IDENTIFIER.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;

/** Copies `value` as JSON, recording each function it meets as omitted (a mapper) or inline (structure). */
function jsonOf(value: unknown, path: string, key: string | number, parts: { omitted: MachinePart[]; inline: MachinePart[] }): unknown {
  if (typeof value === 'function') {
    const name = (value as { name?: string }).name;
    const what = `a function${name ? ` (${name})` : ''}`;
    if (typeof key === 'string' && MAPPERS.has(key)) parts.omitted.push({ path, what });
    else parts.inline.push({ path, what });
    return undefined;
  }
  if (Array.isArray(value)) return value.map((item, i) => jsonOf(item, step(path, i), i, parts)).filter((item) => item !== undefined);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const copied = jsonOf(v, step(path, k), k, parts);
      if (copied !== undefined) out[k] = copied;
    }
    return out;
  }
  return value;
}

/** The machine of a definition as JSON, with what could not be written as JSON named. */
export function exportMachine(definition: Definition): MachineExport {
  const view = describeDefinition(definition);
  const parts = { omitted: [] as MachinePart[], inline: [] as MachinePart[] };
  // a definition its library presents (a declared flow: its config is JSON by construction, its one output
  // mapper shared, not its own), or a hand-written machine, walked for code
  const presented = presentationOf(definition);
  const config = presented?.config ?? (jsonOf(view.machine.config, '', '', parts) as Record<string, unknown>);
  const templates = presented?.questionTemplates ?? {};
  return {
    name: definition.name,
    kind: definition.kind,
    config,
    userView: presented?.userView ?? config,
    fields: presented?.questionFields ?? {},
    conditions: presented?.conditions ?? {},
    questions: Object.fromEntries(view.questions.map((q) => [q.key, q.message ?? templates[q.key]])),
    structureHash: view.structureHash,
    omitted: parts.omitted,
    inline: parts.inline,
  };
}
