// A declared flow served to a host that declares no elicitation: every question goes through the model,
// which calls the tool again with the user's answers and the continuation token, until the flow ends.
import {
  type CallToolResult,
  createEngine,
  createKeyring,
  createMemoryLedger,
  type EngineLogEntry,
  generateKey,
  RoundtripDefinitionError,
  type StepOutcome,
  type ToolDefinition,
} from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, askAll, defineFlowTool, field, form, review, type StepFallback } from '../src/index.ts';

const keyring = createKeyring([generateKey()]);

function meetingTool(options: { fallback?: 'model'; confirmFallback?: StepFallback; destructive?: boolean; calls?: string[] } = {}) {
  return defineFlowTool({
    name: 'book_meeting',
    description: 'Books a meeting',
    input: z.object({ topic: z.string() }),
    annotations: options.destructive ? { destructiveHint: true } : { destructiveHint: false },
    ...(options.fallback ? { fallback: options.fallback } : {}),
    steps: {
      when: ask({
        message: 'When is "{{input.topic}}"?',
        fields: { date: field.text({ title: 'Date', format: 'date' }), attendees: field.integer({ title: 'Attendees', min: 1, max: 40 }) },
        check: ({ answer }) => (answer.date < '2026-01-01' ? 'that date is in the past' : undefined),
      }),
      extras: askAll({
        forms: {
          room: form({
            message: 'Which room?',
            fields: { room: field.select({ title: 'Room', options: { big: 'The big room', hall: 'The hall' } }) },
          }),
          food: form({ message: 'Any food?', fields: { food: field.boolean({ title: 'Food' }) } }),
        },
      }),
      confirm: review({
        message: 'Book "{{input.topic}}"?',
        labels: { confirm: 'Book it' },
        ...(options.confirmFallback !== undefined ? { fallback: options.confirmFallback } : {}),
      }),
    },
    final: ({ input, answers }) => {
      options.calls?.push(input.topic);
      return { text: `Booked "${input.topic}" on ${answers.when?.date} in ${answers.room?.room}, food: ${answers.food?.food}.` };
    },
  });
}

/** A host without elicitation, and the model that relays the user's answers. */
function hostWithoutElicitation(tool: ToolDefinition) {
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({ tools: [tool], keyring, audience: 'tools-test', ledger: createMemoryLedger(), log: (e) => logs.push(e) });
  const call = (args: Record<string, unknown>) => engine.callTool({ name: tool.name, arguments: args, principal: 'ada', capabilities: {} });
  return { call, logs };
}

function textOf(outcome: StepOutcome<CallToolResult>): string {
  expect(outcome.type, JSON.stringify(outcome)).toBe('complete');
  return (outcome as { result: CallToolResult }).result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

const continuationIn = (text: string) => /^- "continuation": "([^"]+)"$/m.exec(text)?.[1] ?? 'missing';
const questionsIn = (text: string) => [...text.matchAll(/^Question '([^']+)'/gm)].map((m) => m[1]);

describe('a declared flow through the model-mediated fallback', () => {
  it('completes a whole conversation (a form, two forms at once, a review) with answers relayed by the model', async () => {
    const calls: string[] = [];
    const { call, logs } = hostWithoutElicitation(meetingTool({ fallback: 'model', calls }));
    const topic = { topic: 'Plan' };
    let text = textOf(await call(topic));
    expect(questionsIn(text)).toEqual(['when']);
    expect(text).toContain('- date (required): a date (YYYY-MM-DD). Date');
    expect(text).toContain('- attendees (required): a whole number, from 1 to 40. Attendees');

    // the flow's own check re-asks through the model with its reason
    text = textOf(await call({ ...topic, answers: { when: { date: '2025-01-01', attendees: 3 } }, continuation: continuationIn(text) }));
    expect(questionsIn(text)).toEqual(['when']);
    expect(text).toContain('Your last answer was not accepted: that date is in the past. Please answer again.');

    text = textOf(await call({ ...topic, answers: { when: { date: '2026-12-10', attendees: 3 } }, continuation: continuationIn(text) }));
    expect(questionsIn(text)).toEqual(['room', 'food']);
    expect(text).toContain('- room (required): one of "big" (The big room), "hall" (The hall). Room');
    expect(text).toContain('- "answers": {"room": {"room": …}, "food": {"food": …}}');

    text = textOf(await call({ ...topic, answers: { room: { room: 'hall' }, food: { food: true } }, continuation: continuationIn(text) }));
    expect(questionsIn(text)).toEqual(['confirm']);
    expect(text).toContain('Question \'confirm\': Book "Plan"?\n\n- Date: 2026-12-10\n- Attendees: 3\n- Room: The hall\n- Food: yes');
    expect(text).toContain('- choice (required): one of "confirm" (Book it), "change_when" (Change: Date, Attendees)');

    const done = textOf(await call({ ...topic, answers: { confirm: { choice: 'confirm' } }, continuation: continuationIn(text) }));
    expect(done).toBe('Booked "Plan" on 2026-12-10 in hall, food: true.');
    expect(calls).toEqual(['Plan']);
    expect(logs.filter((e) => e.event === 'fallback_used')).toHaveLength(4);
  });

  it('ends the flow when the model passes "decline" for the user', async () => {
    const { call } = hostWithoutElicitation(meetingTool({ fallback: 'model' }));
    const text = textOf(await call({ topic: 'Plan' }));
    expect(textOf(await call({ topic: 'Plan', answers: { when: 'decline' }, continuation: continuationIn(text) }))).toBe(
      "book_meeting: nothing was done, because the question of step 'when' was declined.",
    );
  });

  it("answers -32021 at a step whose fallback is false, though the flow's is 'model'", async () => {
    const { call } = hostWithoutElicitation(meetingTool({ fallback: 'model', confirmFallback: false }));
    let text = textOf(await call({ topic: 'Plan' }));
    text = textOf(
      await call({ topic: 'Plan', answers: { when: { date: '2026-12-10', attendees: 3 } }, continuation: continuationIn(text) }),
    );
    const outcome = await call({
      topic: 'Plan',
      answers: { room: { room: 'big' }, food: { food: false } },
      continuation: continuationIn(text),
    });
    expect(outcome).toMatchObject({ type: 'error', error: { code: -32021 } });
  });

  it('advertises the fallback arguments only for a flow that falls back', () => {
    expect(Object.keys(meetingTool({ fallback: 'model' }).inputSchema.properties as object)).toEqual(['topic', 'answers', 'continuation']);
    expect(Object.keys(meetingTool().inputSchema.properties as object)).toEqual(['topic']);
  });

  it('needs the explicit opt-in on a destructive flow', async () => {
    let error: unknown;
    try {
      meetingTool({ fallback: 'model', destructive: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RoundtripDefinitionError);
    expect((error as RoundtripDefinitionError).problems.map((p) => p.path.join(' › '))).toEqual([
      "Tool 'book_meeting' › question 'when' › fallback",
      "Tool 'book_meeting' › question 'room' › fallback",
      "Tool 'book_meeting' › question 'food' › fallback",
      "Tool 'book_meeting' › question 'confirm' › fallback",
    ]);
    // opted in for the whole flow: it falls back
    const optedIn = defineFlowTool({
      name: 'wipe',
      description: 'Wipes a disk',
      input: z.object({}),
      annotations: { destructiveHint: true },
      fallback: { via: 'model', onDestructiveTool: true },
      steps: { sure: ask({ message: 'Wipe it?', fields: { sure: field.boolean() } }) },
      final: ({ answers }) => ({ text: answers.sure?.sure ? 'wiped' : 'kept' }),
    });
    const { call } = hostWithoutElicitation(optedIn);
    const text = textOf(await call({}));
    expect(textOf(await call({ answers: { sure: { sure: false } }, continuation: continuationIn(text) }))).toBe('kept');
  });
});

describe('fallback types of flows', () => {
  it('takes a fallback on the flow, a step, a form and a review', () => {
    const fields = { ok: field.boolean() };
    const steps = {
      one: ask({ message: 'One?', fields, fallback: false }),
      two: askAll({
        forms: { a: form({ message: 'A?', fields, fallback: 'model' }) },
        fallback: { via: 'model', onDestructiveTool: true },
      }),
      three: review({ message: 'Sure?', fallback: 'model' }),
    };
    // @ts-expect-error: not a fallback
    const wrong = ask({ message: 'One?', fields, fallback: 'user' });
    expect(wrong.kind).toBe('ask');
    expect(Object.keys(steps)).toEqual(['one', 'two', 'three']);
  });
});
