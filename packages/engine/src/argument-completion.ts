// Argument completion (`completion/complete`): values offered for a prompt argument or a resource template's
// variable as the user types it. Declared beside the definition, checked once, answered by the engine.
import type { ProblemList } from './definition-error.ts';
import { logEngineEvent } from './engine-events.ts';
import { clip } from './issue-text.ts';
import { type EngineLogEntry, ErrorCode, type StepError } from './step-outcome.ts';
import type { CompleteResult } from './wire-shapes.ts';

/** What a completion function knows besides the text typed so far. */
export interface CompletionContext {
  /** The other arguments (or variables) the client has filled in already, as it sent them. */
  readonly arguments: Readonly<Record<string, string>>;
  /** Who is asking, as for a request. */
  readonly principal: string;
}

/**
 * The values offered for one argument: a fixed list (the engine keeps those that start with what was typed,
 * ignoring case), or a function of what was typed that returns them (it may be async, and filters itself).
 * At most 100 are sent; the total says how many there were.
 */
export type ArgumentCompleter =
  | readonly string[]
  | ((value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>);

/** A completer per argument name; arguments without one offer nothing (or their enum values). */
export type Completers<TNames extends string> = { readonly [K in TNames]?: ArgumentCompleter };

/** One `completion/complete` request as the engine sees it, whatever the transport. */
export interface CompletionRequest {
  /** A prompt by name, or a resource template by its URI template (`test://template/{id}/data`). */
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  /** The argument being completed and what was typed so far. */
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
  principal: string;
}

/** The values offered, or a JSON-RPC error (an unknown prompt, template or argument; a completer that failed). */
export type CompletionOutcome = { type: 'complete'; result: CompleteResult } | { type: 'error'; error: StepError };

/** What the engine keeps of a definition's completion: its argument names and their completers. */
export interface DefinitionCompletion {
  readonly names: readonly string[];
  readonly completers: ReadonlyMap<string, ArgumentCompleter>;
}

/** The spec's cap on the values of one completion. */
const MAX_VALUES = 100;

/**
 * Checks the `complete` option of a definition against its argument names; an argument without a completer
 * whose schema is an enum of strings offers its values. Problems go to `problems`.
 */
export function compileCompletion(
  owner: string,
  complete: unknown,
  names: readonly string[],
  enums: Readonly<Record<string, readonly string[]>>,
  problems: ProblemList,
): DefinitionCompletion {
  const completers = new Map<string, ArgumentCompleter>();
  for (const [name, values] of Object.entries(enums)) completers.set(name, Object.freeze([...values]));
  if (complete === undefined) return { names, completers };
  if (typeof complete !== 'object' || complete === null) {
    problems.add(
      [owner, 'complete'],
      'invalid_option',
      "'complete' is not an object.",
      'Give { argumentName: [values] or (value) => values }.',
    );
    return { names, completers };
  }
  for (const [name, completer] of Object.entries(complete)) {
    const where = [owner, 'complete', `'${name}'`];
    if (!names.includes(name)) {
      const known = names.length ? names.map((n) => `'${n}'`).join(', ') : 'none';
      problems.add(where, 'invalid_option', `'${name}' is not one of the arguments (${known}).`, 'Name an argument the definition has.');
    } else if (typeof completer === 'function') {
      completers.set(name, completer as ArgumentCompleter);
    } else if (Array.isArray(completer) && completer.every((v) => typeof v === 'string')) {
      completers.set(name, Object.freeze([...completer]));
    } else if (completer !== undefined) {
      problems.add(
        where,
        'invalid_option',
        'it is neither a list of strings nor a function.',
        'Give [values] or (value, context) => values.',
      );
    }
  }
  return { names, completers };
}

const error = (code: number, message: string): CompletionOutcome => ({ type: 'error', error: { code, message } });

/**
 * Answers one completion of an argument of `owner` (`Prompt 'x'`): the completer's values, at most 100, with
 * the total; nothing for an argument without a completer; -32602 for an argument the definition does not have.
 */
async function completeArgument(
  of: { owner: string; label: string; completion: DefinitionCompletion },
  request: CompletionRequest,
  log: ((entry: EngineLogEntry) => void) | undefined,
): Promise<CompletionOutcome> {
  const { owner, completion } = of;
  const { name, value } = request.argument;
  if (!completion.names.includes(name)) {
    const known = completion.names.length ? completion.names.join(', ') : 'none';
    return error(ErrorCode.InvalidParams, `${owner} has no argument '${clip(name, 64)}' (its arguments: ${known}).`);
  }
  const completer = completion.completers.get(name);
  let values: readonly unknown[] = [];
  if (Array.isArray(completer)) {
    const typed = String(value).toLowerCase();
    values = completer.filter((v) => v.toLowerCase().startsWith(typed));
  } else if (typeof completer === 'function') {
    const given = request.context?.arguments;
    const context: CompletionContext = {
      arguments: Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => typeof v === 'string')),
      principal: request.principal,
    };
    try {
      const found: unknown = await completer(String(value), context);
      if (!Array.isArray(found) || !found.every((v) => typeof v === 'string'))
        throw new Error(
          `it returned ${Array.isArray(found) ? 'a list that holds more than strings' : typeof found}; return a list of strings`,
        );
      values = found;
    } catch (cause) {
      const event = { level: 'error', event: 'completion_failed', code: 'completer_threw', name, owner, error: cause } as const;
      if (log) logEngineEvent(log, of.label, undefined, event);
      return error(ErrorCode.InternalError, `Completing '${name}' of ${owner} failed on the server; the details are in the server's log.`);
    }
  }
  const strings = values as string[];
  return {
    type: 'complete',
    result: { completion: { values: strings.slice(0, MAX_VALUES), total: strings.length, hasMore: strings.length > MAX_VALUES } },
  };
}

/** The definitions completion reads: prompts by name, resources by URI or URI template. */
interface Completable {
  readonly kind: 'prompt' | 'resource';
  readonly name: string;
  readonly uri?: string | undefined;
  readonly uriTemplate?: string | undefined;
}

/** The engine's completion: `complete` answers one request, `offersCompletions` says whether any argument has values to offer. */
export function engineCompletion(
  prompts: ReadonlyMap<string, Completable>,
  resources: ReadonlyMap<string, Completable>,
  completionOf: (definition: Completable) => { owner: string; completion?: DefinitionCompletion | undefined },
  log: ((entry: EngineLogEntry) => void) | undefined,
) {
  const templates = () => [...resources.values()].flatMap((r) => (r.uriTemplate === undefined ? [] : [r.uriTemplate]));
  return {
    complete: async (request: CompletionRequest): Promise<CompletionOutcome> => {
      const ref = request.ref as { type?: unknown; name?: unknown; uri?: unknown };
      let found: Completable | undefined;
      if (ref.type === 'ref/prompt') {
        found = prompts.get(String(ref.name));
        if (!found)
          return error(
            ErrorCode.InvalidParams,
            `Unknown prompt: ${clip(ref.name)}. The prompts are: ${[...prompts.keys()].join(', ') || 'none'}.`,
          );
      } else if (ref.type === 'ref/resource') {
        found = [...resources.values()].find((r) => (r.uriTemplate ?? r.uri) === ref.uri);
        if (!found)
          return error(
            ErrorCode.InvalidParams,
            `Unknown resource template: ${clip(ref.uri)}. The templates are: ${templates().join(', ') || 'none'}.`,
          );
      } else {
        return error(
          ErrorCode.InvalidParams,
          `Unknown reference type ${clip(JSON.stringify(ref.type))}: complete 'ref/prompt' or 'ref/resource'.`,
        );
      }
      const { owner, completion } = completionOf(found);
      const label = found.kind === 'prompt' ? `prompt ${found.name}` : `resource ${found.uriTemplate ?? found.uri}`;
      return completeArgument({ owner, label, completion: completion ?? { names: [], completers: new Map() } }, request, log);
    },
    offersCompletions: () =>
      [...prompts.values(), ...resources.values()].some((d) => (completionOf(d).completion?.completers.size ?? 0) > 0),
  };
}
