// Machine versions: the migrations a definition declares (checked once, when it is defined), and the
// migration of a sealed snapshot from the version it was sealed under to the machine's current one,
// checked against the current machine before anything of it runs.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { ProblemList } from './definition-error.ts';
import { canonicalJson } from './digest.ts';
import { firstNonJson } from './json-value.ts';
import type { CompactSnapshot } from './state-envelope.ts';
import type { JsonObject, JsonValue } from './wire-shapes.ts';

/** A state value as sealed: a state's key, or for compound and parallel states, each region's value. */
export type SnapshotValue = string | { readonly [region: string]: SnapshotValue };

/** A sealed snapshot as a migration sees it: plain JSON, with the parts of XState's persisted snapshot. */
export interface MigrationSnapshot {
  /** The active state: `'confirming'`, or `{ checkout: 'paying' }` for nested and parallel states. */
  readonly value: SnapshotValue;
  readonly context: JsonValue;
  /**
   * Persisted invoked actors that were still in the snapshot (done ones whose state stays active), by
   * invoke id: `{ price: { src: 'price', snapshot: {…}, syncSnapshot: false } }`. Rename the key when an
   * invoke's id changed, and `src` when its actor's name in setup({ actors }) changed.
   */
  readonly children?: JsonObject;
  /** What history states remember, by history state id: `{ 'wizard.form.resume': [{ id: 'wizard.form.second' }] }`. */
  readonly history?: JsonObject;
}

/** One step from a machine version to the next: `migrate` is a pure function of the older snapshot. */
export interface MachineMigration {
  /** The version the migrated snapshot belongs to: the machine's current version, or one that migrates on. */
  readonly to: string;
  readonly migrate: (snapshot: MigrationSnapshot) => MigrationSnapshot;
}

/**
 * Migrations keyed by the version a state was sealed under, each leading one step on, so an old
 * migration never needs rewriting: `{ '1': { to: '2', migrate }, '2': { to: '3', migrate } }`.
 */
export type MachineMigrations = Readonly<Record<string, MachineMigration>>;

/** Checked migrations: for each version a path leads from, the steps to the current version. */
export interface MigrationPlan {
  readonly paths: ReadonlyMap<string, readonly (MachineMigration & { readonly from: string })[]>;
}

const describeVersion = (v: string) => `'${v}'`;

/**
 * Checks a definition's migrations against its machine's current version: each entry has a `to` and a
 * `migrate` function, no entry starts at the current version, and every chain reaches the current one.
 */
export function planMigrations(owner: string, current: string, declared: unknown, problems: ProblemList): MigrationPlan | undefined {
  if (declared === undefined) return undefined;
  const where = [owner, 'migrations'];
  const example = `migrations: { '1': { to: '${current}', migrate: (s) => ({ ...s, value: … }) } }`;
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) {
    problems.add(
      where,
      'invalid_migration',
      'migrations is not an object keyed by the version a state was sealed under.',
      `Write ${example}.`,
    );
    return undefined;
  }
  const steps = new Map<string, MachineMigration>();
  for (const [from, step] of Object.entries(declared as Record<string, unknown>)) {
    const at = [...where, `'${from}'`];
    const s = step as Partial<MachineMigration> | null;
    if (typeof s !== 'object' || s === null || typeof s.to !== 'string' || typeof s.migrate !== 'function') {
      problems.add(at, 'invalid_migration', 'a migration is { to, migrate }: the version it leads to and a function.', `Write ${example}.`);
      continue;
    }
    if (from === current) {
      problems.add(
        at,
        'invalid_migration',
        `it migrates from ${describeVersion(current)}, the machine's current version, so it would never run.`,
        "Bump the machine's version (createMachine({ version }), or version on a declared flow) when you add a migration from the version before.",
      );
      continue;
    }
    if (s.to === from) {
      problems.add(
        at,
        'invalid_migration',
        'it leads to the version it starts from.',
        `Set 'to' to the next version (the current one is ${describeVersion(current)}).`,
      );
      continue;
    }
    steps.set(from, { to: s.to, migrate: s.migrate });
  }
  const paths = new Map<string, (MachineMigration & { from: string })[]>();
  for (const start of steps.keys()) {
    const path: (MachineMigration & { from: string })[] = [];
    let at = start;
    while (at !== current) {
      const step = steps.get(at);
      if (!step || path.some((p) => p.from === at)) {
        const chain = [...path.map((p) => p.from), at].map(describeVersion).join(' → ');
        problems.add(
          [...where, `'${start}'`],
          'invalid_migration',
          step
            ? `the migrations from ${describeVersion(start)} go round in a circle (${chain}).`
            : `the migrations from ${describeVersion(start)} end at ${describeVersion(at)} (${chain}), which is not the current version ${describeVersion(current)} and has no migration.`,
          `Make every chain end at the machine's current version ${describeVersion(current)}.`,
        );
        break;
      }
      path.push({ from: at, ...step });
      at = step.to;
    }
    if (at === current) paths.set(start, path);
  }
  return { paths };
}

/** The state nodes a state value makes active (ancestors included), or the first key that names no state. */
function activeNodes(root: AnyStateNode, value: SnapshotValue): AnyStateNode[] {
  const out: AnyStateNode[] = [root];
  const visit = (node: AnyStateNode, v: SnapshotValue) => {
    const entries = typeof v === 'string' ? [[v, undefined] as const] : Object.entries(v);
    for (const [key, inner] of entries) {
      const child = (node.states as Record<string, AnyStateNode>)[key];
      if (!child) continue; // resolveState has already refused unknown keys
      out.push(child);
      if (inner !== undefined) visit(child, inner);
    }
  };
  visit(root, value);
  return out;
}

/** Why a migrated snapshot cannot be restored into `machine`, or undefined when it can. */
function unfit(machine: AnyStateMachine, s: MigrationSnapshot): string | undefined {
  if (typeof s !== 'object' || s === null || !('value' in s) || !('context' in s))
    return 'the migration returned no { value, context } snapshot';
  const nonJson =
    firstNonJson(s.value, 'value') ??
    firstNonJson(s.context, 'context') ??
    (s.children === undefined ? undefined : firstNonJson(s.children, 'children', { undefinedMembers: 'absent' })) ??
    (s.history === undefined ? undefined : firstNonJson(s.history, 'history'));
  if (nonJson) return `${nonJson.path} is ${nonJson.what}`;
  let resolved: { value: unknown; status: string };
  try {
    resolved = machine.resolveState({ value: s.value as never, context: s.context as never });
  } catch (error) {
    return `state value ${JSON.stringify(s.value)} does not exist in the machine (${(error as Error).message})`;
  }
  if (canonicalJson(resolved.value) !== canonicalJson(s.value))
    return `state value ${JSON.stringify(s.value)} is not a complete state (it resolves to ${JSON.stringify(resolved.value)})`;
  if (resolved.status !== 'active') return `state value ${JSON.stringify(s.value)} is a final state`;
  const actors = machine.implementations.actors as Record<string, unknown>;
  const invokeIds = new Set(activeNodes(machine.root, s.value).flatMap((n) => n.invoke.map((i: { id: string }) => i.id)));
  for (const [id, child] of Object.entries(s.children ?? {})) {
    const src = (child as { src?: unknown } | null)?.src;
    if (typeof src !== 'string' || !Object.hasOwn(actors, src))
      return `child '${id}' runs actor ${JSON.stringify(src)}, which the machine does not name`;
    if (!invokeIds.has(id)) return `child '${id}' is not invoked by any state of ${JSON.stringify(s.value)}`;
  }
  for (const [historyId, remembered] of Object.entries(s.history ?? {})) {
    const ids = [historyId, ...(Array.isArray(remembered) ? remembered : [null]).map((r) => (r as { id?: unknown } | null)?.id)];
    for (const id of ids) {
      try {
        if (typeof id !== 'string') throw new Error('not a state id');
        machine.getStateNodeById(id);
      } catch {
        return `history ${JSON.stringify(historyId)} names ${JSON.stringify(id)}, which is not a state of the machine`;
      }
    }
  }
  return undefined;
}

export type MigrationResult = { ok: true; snapshot: CompactSnapshot; path: readonly string[] } | { ok: false; detail: string };

/**
 * Migrates a sealed snapshot from its version along the plan to `current`, then checks that the current
 * machine has what the result names (state, invoked children, history). A migration that throws or
 * returns something the machine cannot restore is a bug in the migration: the detail says which.
 */
export function migrateSnapshot(machine: AnyStateMachine, current: string, plan: MigrationPlan, sealed: CompactSnapshot): MigrationResult {
  const path = plan.paths.get(sealed.version);
  if (!path) return { ok: false, detail: `no migration leads from version '${sealed.version}' to '${current}'` };
  let s: MigrationSnapshot = {
    value: sealed.v as SnapshotValue,
    context: sealed.c,
    ...(sealed.ch ? { children: sealed.ch } : {}),
    ...(sealed.h ? { history: sealed.h } : {}),
  };
  const bug = (step: { from: string; to: string }, what: string) => ({
    ok: false as const,
    detail: `migration bug: the migration of machine '${machine.id}' from version '${step.from}' to '${step.to}' ${what}`,
  });
  for (const step of path) {
    try {
      s = step.migrate(structuredClone(s));
    } catch (error) {
      return bug(step, `threw: ${(error as Error)?.message ?? String(error)}`);
    }
    if (typeof s !== 'object' || s === null || !('value' in s) || !('context' in s))
      return bug(step, 'returned no { value, context } snapshot');
  }
  const problem = unfit(machine, s);
  if (problem) return bug(path[path.length - 1]!, `gave a snapshot version '${current}' cannot restore: ${problem}`);
  const snapshot: CompactSnapshot = { version: current, v: s.value as JsonValue, c: s.context };
  if (s.history && Object.keys(s.history).length > 0) snapshot.h = s.history;
  if (s.children && Object.keys(s.children).length > 0) snapshot.ch = s.children;
  return { ok: true, snapshot, path: [sealed.version, ...path.map((p) => p.to)] };
}
