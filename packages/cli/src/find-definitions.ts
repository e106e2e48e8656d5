// The tools, prompts and resources a module exports: directly, in arrays, or in { tools, prompts, resources }.
import { describeDefinition, type PromptDefinition, type ResourceDefinition, type ToolDefinition } from '@roundtrip/engine';

export type Definition = ToolDefinition | PromptDefinition | ResourceDefinition;

function isDefinition(value: unknown): value is Definition {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  if (kind !== 'tool' && kind !== 'prompt' && kind !== 'resource') return false;
  try {
    describeDefinition(value);
    return true;
  } catch {
    return false;
  }
}

/** Every definition among a module's exports, in the order found, each once. */
export function findDefinitions(exports: Record<string, unknown>): Definition[] {
  const found = new Set<Definition>();
  const visit = (value: unknown, depth: number) => {
    if (isDefinition(value)) found.add(value);
    else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (depth === 0 && typeof value === 'object' && value !== null) {
      for (const key of ['tools', 'prompts', 'resources']) visit((value as Record<string, unknown>)[key], depth + 1);
    }
  };
  for (const value of Object.values(exports)) visit(value, 0);
  return [...found];
}
