// One round of each MRTR method, printed as it goes: the demo hands every input_required result back
// to the script instead of answering it automatically.
import type { Client } from '@modelcontextprotocol/client';
import { printRequest, printResult, type Retry, type RoundResult, type RoundTarget } from './demo-transcript.ts';

const ROUND_TIMEOUT_MS = 20_000;
const manual = { allowInputRequired: true, timeout: ROUND_TIMEOUT_MS } as const;

/** Sends one round of `target` (a retry when `retry` is given) and prints both ways. */
export async function round(
  client: Client,
  target: RoundTarget,
  retry?: Retry,
  options: { stateNote?: string; quiet?: boolean } = {},
): Promise<RoundResult> {
  if (!options.quiet) printRequest(target, retry, options.stateNote);
  const result = (await send(client, target, retry)) as RoundResult;
  if (!options.quiet) printResult(result);
  return result;
}

function send(client: Client, { method, name, args }: RoundTarget, retry?: Retry): Promise<unknown> {
  switch (method) {
    case 'tools/call':
      return client.callTool({ name, arguments: args ?? {}, ...retry }, manual);
    case 'prompts/get':
      return client.getPrompt({ name, arguments: (args ?? {}) as Record<string, string>, ...retry } as never, manual);
    case 'resources/read':
      return client.readResource({ uri: name, ...retry } as never, { ...manual, cacheMode: 'bypass' });
  }
}

/** A tools/call target. */
export const tool = (name: string, args: Record<string, unknown>): RoundTarget => ({ method: 'tools/call', name, args });
