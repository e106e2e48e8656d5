// The arguments given with `call --args`, checked against what the offering takes before anything is
// sent: a name it does not take is said with the name it most likely meant (`organizer` given,
// `organiser` expected), since a server that drops unknown names would otherwise answer only that
// `organiser` is missing.
import { UriTemplate } from '@modelcontextprotocol/client';
import { closestChoice } from '@roundtrip/mcp/internal';
import { displayLine } from './display-text.ts';
import { type Offering, offeringLabel } from './offerings.ts';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names the offering takes, and whether it refuses any other (a tool only when its schema says so). */
function expectedNames(offering: Offering): { names: string[]; closed: boolean } {
  switch (offering.kind) {
    case 'tool': {
      const schema = isNode(offering.inputSchema) ? offering.inputSchema : {};
      return { names: isNode(schema.properties) ? Object.keys(schema.properties) : [], closed: schema.additionalProperties === false };
    }
    case 'prompt':
      return { names: offering.arguments.map((argument) => argument.name), closed: true };
    case 'template':
      return { names: new UriTemplate(offering.uriTemplate).variableNames, closed: true };
    case 'resource':
      return { names: [], closed: true };
  }
}

/** Why `given` does not fit the offering's names, for a usage error; undefined when it fits. */
export function checkArgumentNames(offering: Offering, given: Record<string, unknown>): string | undefined {
  const { names, closed } = expectedNames(offering);
  const unused = names.filter((name) => !Object.hasOwn(given, name));
  const problems: string[] = [];
  for (const key of Object.keys(given)) {
    if (names.includes(key)) continue;
    const meant = closestChoice(key, unused);
    if (meant !== undefined) problems.push(`'${displayLine(key)}' (did you mean '${displayLine(meant)}'?)`);
    else if (closed) problems.push(`'${displayLine(key)}'`);
  }
  if (problems.length === 0) return undefined;
  const takes = names.length === 0 ? 'it takes no arguments' : `it takes ${names.map((name) => `'${displayLine(name)}'`).join(', ')}`;
  return `--args names ${problems.join(', ')}, which ${offeringLabel(offering)} does not take: ${takes}. Correct the name in --args.`;
}
