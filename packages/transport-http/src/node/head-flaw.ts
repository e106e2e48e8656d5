import type { IncomingMessage } from 'node:http';
import { clipped } from '../client-echo.ts';
import type { HeadFlaw } from '../http-pipeline.ts';
import { jsonRpcErrorResponse, repeatedHeaderResponse } from '../http-responses.ts';

/** The headers a request carries once, that node:http keeps the first of and drops the rest. */
const ONCE = { host: 'Host', authorization: 'Authorization' } as const;

/**
 * What is wrong with a request's head that node:http's parsed message hides, refused before anything
 * else looks at it: a Host or Authorization header sent more than once (node:http keeps the first line
 * and drops the others, so which one counts would be a guess), read off the raw lines; or a request
 * target that is not a path (`POST http://other.example/mcp`, `//other.example/mcp`), which names a host
 * of its own beside the checked Host header. `undefined` when there is nothing wrong.
 */
export function headFlawOf(request: IncomingMessage): HeadFlaw | undefined {
  const seen = new Set<string>();
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name !== 'host' && name !== 'authorization') continue;
    if (seen.has(name)) {
      return {
        response: repeatedHeaderResponse(ONCE[name]),
        reason: `request refused: the ${ONCE[name]} header was sent more than once; which one counts would be a guess`,
      };
    }
    seen.add(name);
  }
  const target = request.url ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) {
    return {
      response: jsonRpcErrorResponse(400, -32000, 'Bad Request: the request target must be a path, such as /mcp, not a whole URL.'),
      reason: `request refused: its target ${JSON.stringify(clipped(target))} is not a path (a proxy's form, naming a host of its own)`,
    };
  }
  return undefined;
}
