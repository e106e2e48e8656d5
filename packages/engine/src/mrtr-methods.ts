// The engine's MRTR methods as one table: `tools/call`, `prompts/get` and `resources/read` are each an entry
// (tool-method.ts, prompt-method.ts, resource-method.ts) that finds the definition a request names, reads its
// arguments and gives the round's target, or the error that answers instead; serving one runs the round.
import type { PromptDefinition } from './define-prompt.ts';
import type { ResourceDefinition } from './define-resource.ts';
import type { ToolDefinition } from './define-tool.ts';
import type { TaskOptions } from './engine-tasks.ts';
import type { MethodEntry } from './method-entry.ts';
import { promptMethod } from './prompt-method.ts';
import { resourceMethod } from './resource-method.ts';
import type { StepContext } from './round-types.ts';
import { runStep } from './run-step.ts';
import type { StepOutcome } from './step-outcome.ts';
import { toolMethod } from './tool-method.ts';

/** The definitions an engine serves, by name (resources by URI or template). */
export interface ServedDefinitions {
  tools: ReadonlyMap<string, ToolDefinition>;
  prompts: ReadonlyMap<string, PromptDefinition>;
  resources: ReadonlyMap<string, ResourceDefinition>;
}

/** Turns an entry into the method a binding calls (the round's own outcome when the entry does nothing after it). */
function served<TRequest, TResult>(
  ctx: StepContext,
  entry: MethodEntry<TRequest, TResult>,
): (request: TRequest) => Promise<StepOutcome<TResult>> {
  const { after } = entry;
  if (!after) {
    return async (request) => {
      const resolved = entry.resolve(request);
      return 'type' in resolved ? resolved : runStep(ctx, resolved.target, resolved.round);
    };
  }
  return async (request) => {
    const resolved = entry.resolve(request);
    if ('type' in resolved) return resolved;
    return after(await runStep(ctx, resolved.target, resolved.round), request, resolved.target);
  };
}

/** The MRTR methods (and the tasks' methods, which the tools' entry owns) over the served definitions. */
export function mrtrMethods(
  ctx: StepContext,
  definitions: ServedDefinitions,
  targetTag: (scope: string) => Uint8Array,
  tasks: TaskOptions | undefined,
) {
  const tool = toolMethod(ctx, definitions.tools, targetTag, tasks);
  return {
    callTool: served(ctx, tool.entry),
    getPrompt: served(ctx, promptMethod(definitions.prompts, targetTag)),
    readResource: served(ctx, resourceMethod(definitions.resources, targetTag)),
    ...tool.taskMethods,
  };
}
