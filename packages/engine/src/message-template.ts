// Question messages written as data: `Refund {{amount}} for order {{order.id}}?`, filled from context.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*|\.\d+)*$/;

/** The context paths a template reads, in order; `bad` lists placeholders that are not paths. */
export function placeholdersOf(template: string): { paths: string[]; bad: string[] } {
  const paths: string[] = [];
  const bad: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const path = match[1]!;
    (PATH.test(path) ? paths : bad).push(path);
  }
  return { paths, bad };
}

/** Fills a template from context. Throws an Error naming the path when a value is missing or not text-like. */
export function renderTemplate(template: string, context: unknown): string {
  return template.replace(PLACEHOLDER, (_, path: string) => {
    let value: unknown = context;
    for (const part of path.split('.')) {
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    }
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new Error(
      `the message placeholder {{${path}}} reads context.${path}, which is ${value === null ? 'null' : typeof value}: give it a string, number or boolean before asking`,
    );
  });
}

// ─── type-level checks of templates against the context type ────────────────────────────────────

type Prev = [never, 0, 1, 2, 3];

/** Every dotted path into T, up to four levels (`order`, `order.amount`). */
type ContextPaths<T, TDepth extends number = 4> = [TDepth] extends [never]
  ? never
  : T extends readonly (infer E)[]
    ? `${number}` | (NonNullable<E> extends object ? `${number}.${ContextPaths<NonNullable<E>, Prev[TDepth]>}` : never)
    : T extends object
      ? {
          [K in keyof T & string]: K | (NonNullable<T[K]> extends object ? `${K}.${ContextPaths<NonNullable<T[K]>, Prev[TDepth]>}` : never);
        }[keyof T & string]
      : never;

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

/** The placeholders of a literal template type. */
type TemplatePlaceholders<S extends string> = S extends `${string}{{${infer P}}}${infer R}` ? Trim<P> | TemplatePlaceholders<R> : never;

/** Never when every placeholder of a literal template is a path of TContext; otherwise a text naming the unknown one. */
export type TemplateError<S, TContext> = S extends string
  ? string extends S
    ? never
    : [Exclude<TemplatePlaceholders<S>, ContextPaths<TContext>>] extends [never]
      ? never
      : `Unknown placeholder {{${Exclude<TemplatePlaceholders<S>, ContextPaths<TContext>>}}}: not a path of the context`
  : never;
