// A declared flow served by a real engine (real keys, the memory ledger), and a conversation with it
// one round at a time: what was asked, what the user answers, what came back.
import {
  createEngine,
  createKeyring,
  createMemoryLedger,
  type ElicitInputRequest,
  type EngineLogEntry,
  generateKey,
  type PromptDefinition,
  type ResourceDefinition,
  type StepOutcome,
  type ToolDefinition,
} from '@roundtrip/engine';
import { expect } from 'vitest';

const keyring = createKeyring([generateKey()]);

export type Reply = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };
export const accept = (content: Record<string, unknown>): Reply => ({ action: 'accept', content });
export const decline: Reply = { action: 'decline' };
export const cancel: Reply = { action: 'cancel' };

export interface Conversation {
  /** The questions asked in the last round, by key; empty once the flow finished. */
  readonly asked: Record<string, ElicitInputRequest['params']>;
  readonly last: StepOutcome<unknown>;
  readonly logs: EngineLogEntry[];
  /** The state of the last input_required round, to replay it. */
  readonly state: string | undefined;
  /** Answers the questions of the last round (and keeps the round's state for a replay). */
  answer(replies: Record<string, Reply>): Promise<Conversation>;
  /** Sends these replies with an earlier state again, as a retrying client would. */
  replay(state: string, replies: Record<string, Reply>): Promise<Conversation>;
  /** The final result's text (tool content, resource text or the prompt's messages joined). */
  text(): string;
}

type Definition = ToolDefinition | PromptDefinition | ResourceDefinition;

/** Starts a conversation with a declared tool, prompt or resource (`target`: its arguments or URI). */
export async function converse(definition: Definition, target: Record<string, unknown> | string = {}): Promise<Conversation> {
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({
    tools: definition.kind === 'tool' ? [definition] : [],
    prompts: definition.kind === 'prompt' ? [definition] : [],
    resources: definition.kind === 'resource' ? [definition] : [],
    keyring,
    audience: 'tools-test',
    ledger: createMemoryLedger(),
    log: (entry) => logs.push(entry),
  });
  const base = { principal: 'ada', capabilities: { elicitation: {} } };
  const step = (extra: { requestState?: string; inputResponses?: Record<string, Reply> }): Promise<StepOutcome<unknown>> => {
    if (definition.kind === 'tool') return engine.callTool({ ...base, ...extra, name: definition.name, arguments: target });
    if (definition.kind === 'prompt') return engine.getPrompt({ ...base, ...extra, name: definition.name, arguments: target });
    return engine.readResource({ ...base, ...extra, uri: String(target) });
  };
  const wrap = (last: StepOutcome<unknown>): Conversation => {
    const state = last.type === 'input_required' ? last.requestState : undefined;
    const asked =
      last.type === 'input_required'
        ? Object.fromEntries(
            Object.entries(last.inputRequests).flatMap(([k, r]) => (r.method === 'elicitation/create' ? [[k, r.params]] : [])),
          )
        : {};
    return {
      asked,
      last,
      logs,
      state,
      answer: async (replies) => {
        expect(last.type, `answering, but the last round was ${JSON.stringify(last)}`).toBe('input_required');
        return wrap(await step({ requestState: state, inputResponses: replies }));
      },
      replay: async (earlier, replies) => wrap(await step({ requestState: earlier, inputResponses: replies })),
      text: () => {
        expect(last.type, `expected a final result, got ${JSON.stringify(last)}`).toBe('complete');
        const result = (last as Extract<StepOutcome<unknown>, { type: 'complete' }>).result as {
          content?: Array<{ text: string }>;
          messages?: Array<{ content: { text: string } }>;
          contents?: Array<{ text: string }>;
        };
        if (result.content) return result.content.map((c) => c.text).join('\n');
        if (result.messages) return result.messages.map((m) => m.content.text).join('\n');
        return (result.contents ?? []).map((c) => c.text).join('\n');
      },
    };
  };
  return wrap(await step({}));
}
