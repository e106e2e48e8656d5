// `prompts/get` as an MRTR method entry: the prompt by name, its arguments read, the round's target.
import type { PromptDefinition } from './define-prompt.ts';
import { internalsOf } from './definition-internals.ts';
import { clip } from './issue-text.ts';
import type { MethodEntry } from './method-entry.ts';
import { readArguments } from './read-arguments.ts';
import type { RoundRequest } from './round-types.ts';
import { rpcError } from './rpc-error.ts';
import { ErrorCode } from './step-outcome.ts';
import type { GetPromptResult } from './wire-shapes.ts';

/** One `prompts/get` round. */
export interface PromptGetRequest extends RoundRequest {
  name: string;
  arguments?: unknown;
}

export function promptMethod(
  prompts: ReadonlyMap<string, PromptDefinition>,
  targetTag: (scope: string) => Uint8Array,
): MethodEntry<PromptGetRequest, GetPromptResult> {
  const fail = (text: string) => rpcError<GetPromptResult>(ErrorCode.InternalError, text);
  return {
    resolve(request) {
      const prompt = prompts.get(request.name);
      if (!prompt) return rpcError(ErrorCode.InvalidParams, `Unknown prompt: ${clip(request.name)}`, { prompts: [...prompts.keys()] });
      const definition = internalsOf(prompt);
      const parsed = readArguments(definition.args, request.arguments ?? {});
      if (!parsed.ok) {
        return rpcError(
          ErrorCode.InvalidParams,
          `Invalid arguments for prompt '${prompt.name}': ${parsed.problems}. Ask for it again with arguments matching its list entry.`,
        );
      }
      const scope = `prompts/get\0${prompt.name}`;
      const target = {
        label: `prompt ${prompt.name}`,
        definition,
        targetTag: targetTag(scope),
        argsScope: scope,
        args: parsed.data,
        finishWith: {},
        fail,
      };
      return { target, round: request };
    },
  };
}
