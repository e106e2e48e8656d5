// `resources/read` as an MRTR method entry: the resource whose URI or template matches, its variables read, the
// round's target; its result gets the resource's cache hint.
import { withCacheHint } from './cache-hint.ts';
import type { ResourceDefinition } from './define-resource.ts';
import { internalsOf } from './definition-internals.ts';
import { clip } from './issue-text.ts';
import type { MethodEntry } from './method-entry.ts';
import { readArguments } from './read-arguments.ts';
import type { RoundRequest } from './round-types.ts';
import { rpcError } from './rpc-error.ts';
import { ErrorCode } from './step-outcome.ts';
import type { ReadResourceResult } from './wire-shapes.ts';

/** One `resources/read` round. */
export interface ResourceReadRequest extends RoundRequest {
  uri: string;
}

export function resourceMethod(
  resources: ReadonlyMap<string, ResourceDefinition>,
  targetTag: (scope: string) => Uint8Array,
): MethodEntry<ResourceReadRequest, ReadResourceResult> {
  const fail = (text: string) => rpcError<ReadResourceResult>(ErrorCode.InternalError, text);
  return {
    resolve(request) {
      let resource: ResourceDefinition | undefined;
      let variables: Record<string, string> | undefined;
      for (const candidate of resources.values()) {
        variables = candidate.match(request.uri);
        if (variables) {
          resource = candidate;
          break;
        }
      }
      const notFound = (why = '') =>
        rpcError<ReadResourceResult>(ErrorCode.InvalidParams, `Resource not found: ${clip(request.uri)}${why}`, { uri: clip(request.uri) });
      if (!resource || !variables) return notFound();
      const definition = internalsOf(resource);
      const parsed = readArguments(definition.args, variables);
      if (!parsed.ok) return notFound(` (${parsed.problems})`);
      const scope = `resources/read\0${resource.uri ?? resource.uriTemplate}`;
      const target = {
        label: `resource ${clip(request.uri)}`,
        definition,
        targetTag: targetTag(scope),
        argsScope: scope,
        args: parsed.data,
        finishWith: { uri: request.uri },
        fail,
      };
      return { target, round: request };
    },
    after: (outcome, request, target) => withCacheHint(outcome, target.definition.cache, request),
  };
}
