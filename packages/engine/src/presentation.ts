// How a definition is shown to people, when the library that made it says: a view for diagrams and
// exports (`@roundtrip/visualize`), attached by the library (`@roundtrip/tools` for its declared flows)
// and read by anyone, so a drawing tool needs no import of the library that made the definition.
import { internalsOf } from './definition-internals.ts';

/**
 * What a library that builds definitions from data tells exporters and diagrams about one of them.
 * Every field is plain JSON; every call of {@link presentationOf} gives a fresh copy.
 */
export interface DefinitionPresentation {
  /** The machine config as plain JSON, ready for a file or Stately (the definition's machine was built from it). */
  readonly config: Record<string, unknown>;
  /**
   * The config as diagrams for people draw it by default: edges the machine takes by itself left out.
   * Absent: draw `config`.
   */
  readonly userView?: Record<string, unknown>;
  /** Question key → its message template, for questions whose message the machine renders from one. */
  readonly questionTemplates?: Readonly<Record<string, string>>;
  /** Question key → the titles of its form's fields. */
  readonly questionFields?: Readonly<Record<string, readonly string[]>>;
  /**
   * A guard's `condition` param (its JSON text, as `JSON.stringify` writes it from the config) → how
   * people read it: `{"when.attendees":{"gt":5}}` → `when.attendees > 5`.
   */
  readonly conditions?: Readonly<Record<string, string>>;
}

const presentations = new WeakMap<object, () => DefinitionPresentation>();

/**
 * Attaches how `definition` is presented: `present` is called on each {@link presentationOf}, so it
 * costs nothing until something draws. For libraries that make definitions (call it once, right after
 * defineTool, definePrompt or defineResource); throws a TypeError for an object no define function made.
 *
 * @example
 * const tool = defineTool({ ... });
 * setPresentation(tool, () => ({ config: structuredClone(myJsonConfig) }));
 */
export function setPresentation(definition: object, present: () => DefinitionPresentation): void {
  internalsOf(definition);
  presentations.set(definition, present);
}

/**
 * How `definition` is presented, as the library that made it said ({@link setPresentation}); undefined
 * for a definition written by hand (draw its machine) and for anything else.
 */
export function presentationOf(definition: object): DefinitionPresentation | undefined {
  return presentations.get(definition)?.();
}
