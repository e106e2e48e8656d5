// `tools/call` as an MRTR method entry: the tool by name, consent to tasks, the model-mediated fallback's extra
// arguments, its arguments read, the round's target (one literal, the shape V8 keeps per call site); and the
// tasks' methods, whose rounds are the same tool's.
import type { ToolDefinition } from './define-tool.ts';
import { internalsOf } from './definition-internals.ts';
import { type EngineTaskMethods, engineTasks, type TaskOptions, taskRequired } from './engine-tasks.ts';
import { fallbackCall } from './fallback-arguments.ts';
import { clip } from './issue-text.ts';
import type { MethodEntry } from './method-entry.ts';
import { readArguments } from './read-arguments.ts';
import type { ModelFallback, RoundRequest, StepContext, StepTarget } from './round-types.ts';
import { rpcError } from './rpc-error.ts';
import { ErrorCode, type StepOutcome } from './step-outcome.ts';
import { declaresTasks } from './task-shapes.ts';
import type { CallToolResult, JsonObject } from './wire-shapes.ts';

/** One `tools/call` round as the engine sees it, whatever the transport. */
export interface ToolCallRequest extends RoundRequest {
  name: string;
  arguments?: unknown;
}

/** A tool's failure as the client sees it: an error result the model reads. */
const toolError = (text: string): StepOutcome<CallToolResult> => ({
  type: 'complete',
  result: { content: [{ type: 'text', text }], isError: true },
});

export function toolMethod(
  ctx: StepContext,
  tools: ReadonlyMap<string, ToolDefinition>,
  targetTag: (scope: string) => Uint8Array,
  taskOptions: TaskOptions | undefined,
): { entry: MethodEntry<ToolCallRequest, CallToolResult>; taskMethods: EngineTaskMethods } {
  const continuationTagOf = (tool: string) => targetTag(`tools/call\0${tool}\0continuation`);
  // what a tool's rounds are bound to and logged as, the same every call
  const toolTargets = new Map(
    [...tools.keys()].map((name) => {
      const scope = `tools/call\0${name}`;
      return [name, { label: `tool ${name}`, scope, tag: targetTag(scope) }] as const;
    }),
  );

  /** A round's target for the tool with these (validated) arguments: one literal, the shape V8 keeps per call site. */
  function toolTarget(tool: ToolDefinition, args: JsonObject, modelFallback?: ModelFallback<CallToolResult>): StepTarget<CallToolResult> {
    const { label, scope: argsScope, tag: targetTag } = toolTargets.get(tool.name)!;
    const task = tool.task === undefined ? undefined : tasks.targetFor(tool);
    return {
      label,
      definition: internalsOf(tool),
      targetTag,
      argsScope,
      args,
      finishWith: {},
      fail: toolError,
      ...(task && { task }),
      ...(modelFallback && { modelFallback }),
    };
  }
  const tasks = engineTasks(ctx, tools, taskOptions, (name: string, args: JsonObject) =>
    tools.has(name) ? toolTarget(tools.get(name)!, args) : undefined,
  );

  const entry: MethodEntry<ToolCallRequest, CallToolResult> = {
    resolve(request) {
      const tool = tools.get(request.name);
      if (!tool) return rpcError(ErrorCode.InvalidParams, `Unknown tool: ${clip(request.name)}`, { tools: [...tools.keys()] });
      // consent to tasks matters only to a tool that can answer one
      const consents = tool.task !== undefined && (request.tasks ?? declaresTasks(request.capabilities));
      if (tool.task === 'required' && !consents) return taskRequired(tool.name);
      const definition = internalsOf(tool);
      // a tool with fallback questions takes the model's answers and continuation token beside its own arguments
      const call = fallbackCall(tool, definition.machine, request, continuationTagOf);
      if (!call.ok) return toolError(call.text);
      const parsed = readArguments(definition.args, call.args ?? {});
      const again = 'Call it again with arguments matching its input schema.';
      if (!parsed.ok) return toolError(`Invalid arguments for tool '${tool.name}': ${parsed.problems}. ${again}`);
      const target = toolTarget(tool, parsed.data as JsonObject, call.modelFallback);
      return { target, round: tool.task === undefined ? call.round : { ...call.round, tasks: consents } };
    },
  };
  return { entry, taskMethods: tasks.methods };
}
