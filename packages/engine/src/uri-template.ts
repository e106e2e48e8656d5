// Resource URIs: a fixed URI, or an RFC 6570 level-1 template whose {variables} are the resource's arguments.

const VARIABLE = /\{([^{}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ParsedUri {
  /** The variable names, in order; empty for a fixed URI. */
  readonly variables: readonly string[];
  /** Matches a concrete URI against the template; the decoded variables, or undefined. */
  readonly match: (uri: string) => Record<string, string> | undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Parses a resource URI or URI template; `problem` says what is wrong with it, if anything. */
export function parseUriTemplate(template: string): ParsedUri | { problem: string; fix: string } {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template)) {
    return { problem: `'${template}' has no URI scheme.`, fix: "Start it with a scheme, e.g. 'statement://customers/{customer}'." };
  }
  const variables: string[] = [];
  let pattern = '';
  let last = 0;
  for (const match of template.matchAll(VARIABLE)) {
    const name = match[1]!;
    if (!NAME.test(name)) {
      return {
        problem: `'{${name}}' is not a simple variable.`,
        fix: 'Use level-1 variables only, such as {customer} (no operators like {+x} or {?x}).',
      };
    }
    if (variables.includes(name)) return { problem: `the variable {${name}} appears twice.`, fix: 'Name each variable once.' };
    variables.push(name);
    pattern += `${escapeRegExp(template.slice(last, match.index))}([^/?#]+)`;
    last = match.index + match[0].length;
  }
  const rest = template.slice(last);
  if (/[{}]/.test(rest) || /[{}]/.test(pattern.replace(/\\[{}]/g, '')))
    return { problem: `'${template}' has an unmatched brace.`, fix: 'Write variables as {name}.' };
  const regex = new RegExp(`^${pattern}${escapeRegExp(rest)}$`);
  return {
    variables,
    match: (uri) => {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      try {
        variables.forEach((name, i) => {
          values[name] = decodeURIComponent(found[i + 1]!);
        });
      } catch {
        return undefined;
      }
      return values;
    },
  };
}
