import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createMachine, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  defineQuestions,
  defineTool,
  type EffectSpec,
  type ToolDefinition,
  type ToolResultView,
} from '../src/index.ts';
import { definitionError, problemsOf } from './support.ts';

const okSchema = z.object({ ok: z.boolean() });
const questions = defineQuestions<unknown>()({ ok: { message: 'Go on?', schema: okSchema } });
type Q = typeof questions;
const types = { events: {} as AnswerEvents<Q>, meta: {} as AskMeta<Q> };

/**
 * defineTool with its type checks switched off, for machines whose mistakes the types would catch
 * (or cannot see): these tests are about the checks made when the definition runs.
 */
const defineUnchecked = defineTool as unknown as (config: {
  name: string;
  description: string;
  input: z.ZodObject;
  questions?: unknown;
  machine: AnyStateMachine;
  result: () => ToolResultView;
  effects?: Record<string, EffectSpec>;
}) => ToolDefinition;

const tool = (machine: AnyStateMachine, options: { questions?: unknown; effects?: Record<string, EffectSpec>; name?: string } = {}) =>
  defineUnchecked({
    name: options.name ?? 'tool_x',
    description: 'test tool',
    input: z.object({}),
    questions: options.questions ?? questions,
    machine,
    result: () => ({ text: 'done' }),
    ...(options.effects ? { effects: options.effects } : {}),
  });

/** An asking state for `ok` that handles every answer. */
const asksOk = { meta: { ask: ['ok'] }, on: { 'ok.*': '#m.done' } } as const;

describe('questions a machine asks', () => {
  it('refuses a state that asks a key the questions do not name', () => {
    const machine = setup({ types }).createMachine({
      id: 'm',
      initial: 'asking',
      states: {
        asking: { meta: { ask: ['ok', 'nope'] } as AskMeta<Q>, on: { 'ok.*': 'done' } },
        done: { type: 'final' },
      },
    });
    expect(
      problemsOf(() =>
        defineTool({ name: 'tool_x', description: 'd', input: z.object({}), questions, machine, result: () => ({ text: '' }) }),
      ),
    ).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.asking'", "ask 'nope'"],
        code: 'unknown_question',
        message: "'nope' is not one of the definition's questions ('ok').",
        fix: 'Name the question in defineQuestions, or fix the key.',
      },
    ]);
  });

  it('refuses meta.ask that is not a list of keys', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'asking',
      states: { asking: { meta: { ask: 'ok' }, on: { 'ok.*': 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine))).toEqual([
      expect.objectContaining({
        path: ["Tool 'tool_x'", "state 'm.asking'"],
        code: 'unknown_question',
        message: 'meta.ask is not a list of question keys.',
      }),
      expect.objectContaining({ path: ["Tool 'tool_x'", "question 'ok'"], code: 'unused_question' }),
    ]);
  });

  it('refuses a question that no state asks', () => {
    const two = defineQuestions<unknown>()({
      ok: { message: 'Go on?', schema: okSchema },
      why: { message: 'Why?', schema: z.object({ why: z.string() }) },
    });
    const machine = setup({ types }).createMachine({ id: 'm', initial: 'asking', states: { asking: asksOk, done: { type: 'final' } } });
    expect(problemsOf(() => tool(machine, { questions: two }))).toEqual([
      {
        path: ["Tool 'tool_x'", "question 'why'"],
        code: 'unused_question',
        message: 'no state asks it.',
        fix: "Ask it from a state (meta: { ask: ['why'] }) or remove it.",
      },
    ]);
  });

  it('refuses two parallel regions that ask the same key', () => {
    const region = {
      initial: 'asking',
      states: { asking: { meta: { ask: ['ok'] }, on: { 'ok.*': 'answered' } }, answered: { type: 'final' } },
    } as const;
    const machine = setup({ types }).createMachine({ id: 'm', type: 'parallel', states: { left: region, right: region } });
    expect(problemsOf(() => tool(machine))).toEqual([
      {
        path: ["Tool 'tool_x'", "ask 'ok'"],
        code: 'question_asked_twice',
        message:
          "states 'm.left.asking' and 'm.right.asking' can be active at the same time and both ask 'ok', so one answer could not tell them apart.",
        fix: 'Give the question of each parallel region its own key.',
      },
    ]);
  });

  it('refuses a state and its child that ask the same key', () => {
    const machine = setup({ types }).createMachine({
      id: 'm',
      initial: 'outer',
      states: {
        outer: { meta: { ask: ['ok'] }, on: { 'ok.*': 'done' }, initial: 'inner', states: { inner: { meta: { ask: ['ok'] } } } },
        done: { type: 'final' },
      },
    });
    expect(problemsOf(() => tool(machine))).toEqual([
      expect.objectContaining({
        code: 'question_asked_twice',
        message: expect.stringMatching(/^states 'm\.outer' and 'm\.outer\.inner' can be active at the same time and both ask 'ok'/),
      }),
    ]);
  });

  it('refuses a state that lists a key twice', () => {
    const machine = setup({ types }).createMachine({
      id: 'm',
      initial: 'asking',
      states: { asking: { meta: { ask: ['ok', 'ok'] }, on: { 'ok.*': 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine))).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.asking'", "ask 'ok'"],
        code: 'question_asked_twice',
        message: "the state lists 'ok' twice.",
        fix: 'List each key once.',
      },
    ]);
  });

  it('accepts the same key asked by states that are never active together', () => {
    const machine = setup({ types }).createMachine({
      id: 'm',
      initial: 'first',
      states: { first: { meta: { ask: ['ok'] }, on: { 'ok.*': 'second' } }, second: asksOk, done: { type: 'final' } },
    });
    expect(() => tool(machine)).not.toThrow();
  });

  it('refuses an asking state that handles none of accept, decline and cancel, one problem each', () => {
    const machine = setup({ types }).createMachine({
      id: 'm',
      initial: 'asking',
      states: { asking: { meta: { ask: ['ok'] } }, done: { type: 'final' } },
    });
    const problems = problemsOf(() => tool(machine));
    expect(problems.map((p) => [p.code, p.message])).toEqual(
      ['accept', 'decline', 'cancel'].map((action) => [
        'unhandled_answer',
        `no transition handles 'ok.${action}', so that answer would leave the user asked again forever.`,
      ]),
    );
    expect(problems[2]).toMatchObject({
      path: ["Tool 'tool_x'", "state 'm.asking'", "ask 'ok'"],
      fix: "Add on: { 'ok.cancel': … } to the state or an ancestor (or 'ok.*').",
    });
  });
});

describe('machines that cannot be served', () => {
  const noQuestions = defineQuestions<unknown>()({});
  const work = fromPromise(async () => 1);

  it('refuses an invoke without an id', () => {
    const machine = setup({ actors: { work } }).createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { src: 'work', onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions }))).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.working'"],
        code: 'unnamed_invoke',
        message: `it invokes "work" without an 'id'.`,
        fix: 'Give every invoke an id, so sealed snapshots stay valid and effects can be recorded by it.',
      },
    ]);
  });

  it('refuses an invoke of inline actor logic, even with an id', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { id: 'job', src: work, onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions }))).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.working'"],
        code: 'unnamed_invoke',
        message: "it invokes inline actor logic 'job'.",
        fix: 'Name the logic in setup({ actors: { … } }) and invoke it by name.',
      },
    ]);
  });

  it('refuses an invoke of inline actor logic without an id, as unnamed', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { src: work, onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions }))).toMatchObject([
      { code: 'unnamed_invoke', message: `it invokes "inline" without an 'id'.` },
    ]);
  });

  it("refuses an 'after' delay, saying to keep the deadline in context", () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'waiting',
      states: { waiting: { after: { 1000: 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions }))).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.waiting'"],
        code: 'delayed_transition',
        message: "it uses 'after', but XState does not persist delays, so the timer would be lost between rounds.",
        fix: 'Keep the deadline in context and check it with a guard on the next answer instead.',
      },
    ]);
  });

  it('refuses a function inside a state’s meta', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'done',
      states: { done: { type: 'final', meta: { label: () => 'Done' } } },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions }))).toEqual([
      {
        path: ["Tool 'tool_x'", "state 'm.done'"],
        code: 'not_json',
        message: 'meta.label is a function; a machine config holds plain JSON only, so it can be hashed and exported to Stately.',
        fix: "Name questions with defineQuestions and ask them by name: meta: { ask: ['confirm'] }.",
      },
    ]);
  });

  it('refuses a question written inside meta the old way (a zod schema is not JSON)', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'asking',
      states: {
        asking: { meta: { ask: { ok: { message: 'Go on?', schema: okSchema } } }, on: { 'ok.*': 'done' } },
        done: { type: 'final' },
      },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions }))).toMatchObject([
      {
        code: 'not_json',
        message:
          'meta.ask.ok.schema is an instance of ZodObject; a machine config holds plain JSON only, so it can be hashed and exported to Stately.',
      },
    ]);
  });

  it('refuses an effect named after an actor the machine does not have', () => {
    const machine = setup({ actors: { work } }).createMachine({
      id: 'm',
      initial: 'working',
      states: { working: { invoke: { id: 'w', src: 'work', onDone: 'done' } }, done: { type: 'final' } },
    });
    expect(problemsOf(() => tool(machine, { questions: noQuestions, effects: { refund: { once: true } } }))).toEqual([
      {
        path: ["Tool 'tool_x'", 'effects', "'refund'"],
        code: 'unknown_effect',
        message: "the machine has no actor named 'refund' (it has 'work').",
        fix: 'Name the effect after an actor in setup({ actors }).',
      },
    ]);
  });
});

describe('several problems in one definition', () => {
  it('reports them all at once, each with path, code, message and fix', () => {
    const two = defineQuestions<unknown>()({ ok: { message: 'Go on?', schema: okSchema }, spare: { message: 'Spare?', schema: okSchema } });
    const machine = setup({ types, actors: { work: fromPromise(async () => 1) } }).createMachine({
      id: 'm',
      initial: 'asking',
      states: {
        asking: { meta: { ask: ['ok', 'ghost'] } as AskMeta<Q>, on: { 'ok.accept': 'working' } },
        working: { invoke: { src: 'work', onDone: 'waiting' } },
        waiting: { after: { 5000: 'done' } },
        done: { type: 'final' },
      },
    });
    const error = definitionError(() => tool(machine, { name: 'bad name', questions: two, effects: { charge: { once: true } } }));
    expect(error.problems.map((p) => [p.code, p.path])).toEqual([
      ['invalid_name', ["Tool 'bad name'"]],
      ['unknown_effect', ["Tool 'bad name'", 'effects', "'charge'"]],
      ['unhandled_answer', ["Tool 'bad name'", "state 'm.asking'", "ask 'ok'"]],
      ['unhandled_answer', ["Tool 'bad name'", "state 'm.asking'", "ask 'ok'"]],
      ['unknown_question', ["Tool 'bad name'", "state 'm.asking'", "ask 'ghost'"]],
      ['unnamed_invoke', ["Tool 'bad name'", "state 'm.working'"]],
      ['delayed_transition', ["Tool 'bad name'", "state 'm.waiting'"]],
      ['unused_question', ["Tool 'bad name'", "question 'spare'"]],
    ]);
    for (const problem of error.problems) {
      expect(Object.keys(problem).sort()).toEqual(['code', 'fix', 'message', 'path']);
      expect(problem.message.length).toBeGreaterThan(0);
      expect(problem.fix.length).toBeGreaterThan(0);
    }
    expect(error.code).toBe('invalid_name');
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('8 problems:');
    expect(lines.slice(1)).toEqual(error.problems.map((p) => `  - ${p.path.join(' › ')}: ${p.message} Fix: ${p.fix}`));
    expect(lines[3]).toBe(
      "  - Tool 'bad name' › state 'm.asking' › ask 'ok': no transition handles 'ok.decline', so that answer would leave the user asked again forever. Fix: Add on: { 'ok.decline': … } to the state or an ancestor (or 'ok.*').",
    );
  });
});
