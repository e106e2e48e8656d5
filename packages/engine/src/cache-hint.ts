// Caching hints (MCP 2026-07-28, SEP-2549) a resource may declare: how long a client may keep what it read,
// and whether shared caches may too. Sent only on reads that took no questions: a read that carried answers
// or a requestState is the user's own and must not be cached (clients are told so by the spec as well).
import type { ProblemList } from './definition-error.ts';
import type { RoundRequest } from './round-types.ts';
import type { StepOutcome } from './step-outcome.ts';
import type { CacheHint, ReadResourceResult } from './wire-shapes.ts';

/** Checks a resource's `cache` option; undefined (with problems added) when it is not one. */
export function checkCacheHint(owner: string, hint: unknown, problems: ProblemList): CacheHint | undefined {
  if (hint === undefined) return undefined;
  const { ttlMs, cacheScope, ...rest } = (typeof hint === 'object' && hint !== null ? hint : {}) as Record<string, unknown>;
  const ok =
    typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs >= 0 && (cacheScope === 'public' || cacheScope === 'private');
  if (ok && Object.keys(rest).length === 0) return Object.freeze({ ttlMs, cacheScope });
  problems.add(
    [owner, 'cache'],
    'invalid_option',
    `the cache hint ${JSON.stringify(hint)} is not { ttlMs, cacheScope }.`,
    "Give { ttlMs: a whole number of milliseconds ≥ 0, cacheScope: 'public' or 'private' }, or leave it out.",
  );
  return undefined;
}

/** The outcome of a read, with the resource's hint when the read finished without asking anything. */
export function withCacheHint(
  outcome: StepOutcome<ReadResourceResult>,
  hint: CacheHint | undefined,
  request: Pick<RoundRequest, 'requestState' | 'inputResponses'>,
): StepOutcome<ReadResourceResult> {
  if (!hint || outcome.type !== 'complete' || request.requestState !== undefined || request.inputResponses !== undefined) return outcome;
  return { type: 'complete', result: { ...outcome.result, ...hint } };
}
