// What a server offers (tools, prompts, resources, resource templates), listed once, and found by
// the name a person types: a tool or prompt name, a resource's URI or name, a template's name.
import type { Client } from '@modelcontextprotocol/client';
import { displayLine } from './display-text.ts';

interface Described {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
}

export type Offering = Described &
  (
    | { readonly kind: 'tool'; readonly inputSchema: unknown }
    | { readonly kind: 'prompt'; readonly arguments: readonly { name: string; description?: string; required?: boolean }[] }
    | { readonly kind: 'resource'; readonly uri: string }
    | { readonly kind: 'template'; readonly uriTemplate: string }
  );

export type OfferingKind = Offering['kind'];

const described = (item: { name: string; title?: string; description?: string }): Described => ({
  name: item.name,
  ...(item.title !== undefined && { title: item.title }),
  ...(item.description !== undefined && { description: item.description }),
});

/** Every page of one list: the server may split it, and says where the next page starts. */
async function allPages<P extends { nextCursor?: string | undefined }, T>(
  list: (params: { cursor?: string }) => Promise<P>,
  items: (page: P) => T[],
): Promise<T[]> {
  const found: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor === undefined ? {} : { cursor });
    found.push(...items(page));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return found;
}

/** Everything the server lists (every page), tools first, in the server's order. */
export async function listOfferings(client: Client): Promise<Offering[]> {
  const capabilities = client.getServerCapabilities() ?? {};
  const found: Offering[] = [];
  if (capabilities.tools) {
    const tools = await allPages(
      (params) => client.listTools(params),
      (page) => page.tools,
    );
    for (const tool of tools) found.push({ kind: 'tool', ...described(tool), inputSchema: tool.inputSchema });
  }
  if (capabilities.prompts) {
    const prompts = await allPages(
      (params) => client.listPrompts(params),
      (page) => page.prompts,
    );
    for (const prompt of prompts) found.push({ kind: 'prompt', ...described(prompt), arguments: prompt.arguments ?? [] });
  }
  if (capabilities.resources) {
    const resources = await allPages(
      (params) => client.listResources(params),
      (page) => page.resources,
    );
    for (const resource of resources) found.push({ kind: 'resource', ...described(resource), uri: resource.uri });
    const templates = await allPages(
      (params) => client.listResourceTemplates(params),
      (page) => page.resourceTemplates,
    );
    for (const template of templates) found.push({ kind: 'template', ...described(template), uriTemplate: template.uriTemplate });
  }
  return found;
}

/** How an offering is named in lists and messages, escaped for the terminal: `tool refund_order`. */
export function offeringLabel(offering: Offering): string {
  if (offering.kind === 'resource') return `resource ${displayLine(offering.uri)}`;
  if (offering.kind === 'template') return `resource template ${displayLine(offering.name)} (${displayLine(offering.uriTemplate)})`;
  return `${offering.kind} ${displayLine(offering.name)}`;
}

/**
 * The offerings a typed name means: `tool:x`, `prompt:x`, `resource:x` or `template:x` pick the kind;
 * a plain name matches any tool, prompt, resource (by URI or name) or template of that name.
 */
export function findOfferings(offerings: readonly Offering[], typed: string): Offering[] {
  const prefix = /^(tool|prompt|resource|template):(.+)$/.exec(typed);
  const kind = prefix?.[1] as OfferingKind | undefined;
  const name = prefix ? prefix[2]! : typed;
  const exact = offerings.filter((o) => (o.kind === 'resource' && o.uri === typed) || (o.kind === 'template' && o.uriTemplate === typed));
  if (exact.length > 0) return exact;
  return offerings.filter((o) => (kind === undefined || o.kind === kind) && (o.name === name || (o.kind === 'resource' && o.uri === name)));
}
