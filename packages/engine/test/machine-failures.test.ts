import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { type AnswerEvents, type AskMeta, defineQuestions, defineTool, type ToolResultView } from '../src/index.ts';
import { makeConfirmTool } from './machines.ts';
import { accept, complete, failedText, inputRequired, makeEngine, textIn } from './support.ts';

const FAILED_TEXT = failedText("Tool 'broken'");

const tool = (machine: AnyStateMachine, result: (output: unknown) => ToolResultView = () => ({ text: 'done' })) =>
  defineTool({ name: 'broken', description: 'A tool whose machine goes wrong', input: z.object({}), machine, result });

/** The one question `ok` ('Go on?', or the message given), and a machine setup typed for it. */
function okQuestion(message: string | (() => string) = 'Go on?') {
  const questions = defineQuestions<unknown>()({ ok: { message, schema: z.object({ ok: z.boolean() }) } });
  return { questions, types: { events: {} as AnswerEvents<typeof questions>, meta: {} as AskMeta<typeof questions> } };
}

describe('machines that go wrong', () => {
  it('fails with an isError result and an error log when the machine settles in a non-final state that asks nothing', async () => {
    const machine = setup({}).createMachine({ id: 'stuck', initial: 'idle', states: { idle: {} } });
    const { call, logs } = makeEngine([tool(machine)]);
    expect(complete(await call({ name: 'broken', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: FAILED_TEXT }],
      isError: true,
    });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'machine_stuck',
        code: 'asks_nothing',
        target: 'tool broken',
        machine: 'stuck',
        value: 'idle',
      }),
    );
  });

  it('fails with an isError result when an entry action throws on the first call, logging the error', async () => {
    const machine = setup({
      actions: {
        explode: () => {
          throw new Error('boom at entry');
        },
      },
    }).createMachine({ id: 'entry_throws', initial: 'start', states: { start: { entry: 'explode' } } });
    const { call, logs } = makeEngine([tool(machine)]);
    expect(complete(await call({ name: 'broken', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: FAILED_TEXT }],
      isError: true,
    });
    const entry = logs.find((e) => e.event === 'machine_error');
    expect(entry).toMatchObject({ level: 'error', message: "machine 'entry_throws' failed in round 1: Error: boom at entry" });
    expect(entry?.error).toBeInstanceOf(Error);
    expect((entry?.error as Error | undefined)?.message).toBe('boom at entry');
  });

  it('fails with an isError result, and throws nothing out of band, when the machine fails while progress is being reported', async () => {
    const machine = setup({
      actors: {
        failing: fromPromise(async () => {
          throw new Error('failed while reporting progress');
        }),
      },
    }).createMachine({
      id: 'rejects_with_progress',
      initial: 'working',
      states: { working: { invoke: { id: 'work', src: 'failing', onDone: 'done' } }, done: { type: 'final' } },
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const { call, logs } = makeEngine([tool(machine)]);
      const updates: unknown[] = [];
      expect(complete(await call({ name: 'broken', arguments: {}, onProgress: (u) => updates.push(u) })).result.isError).toBe(true);
      expect(updates).toEqual([{ progress: 1, message: 'Working…' }]);
      expect(logs).toContainEqual(expect.objectContaining({ level: 'error', event: 'machine_error' }));
      // XState reports an error that some observer does not handle by throwing it from a zero-delay timer:
      // let the timers already queued run
      await new Promise((resolve) => setTimeout(resolve, 0));
    } finally {
      process.removeListener('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it('fails with an isError result when a transition action throws after an answer', async () => {
    const { questions, types } = okQuestion();
    const machine = setup({
      types,
      actions: {
        explode: () => {
          throw new Error('boom on answer');
        },
      },
    }).createMachine({
      id: 'answer_throws',
      initial: 'asking',
      states: {
        asking: { meta: { ask: ['ok'] }, on: { 'ok.accept': { target: 'done', actions: 'explode' }, 'ok.*': 'done' } },
        done: { type: 'final' },
      },
    });
    const { call, logs } = makeEngine([
      defineTool({
        name: 'broken',
        description: 'Throws on answer',
        input: z.object({}),
        questions,
        machine,
        result: () => ({ text: 'done' }),
      }),
    ]);
    const first = inputRequired(await call({ name: 'broken', arguments: {} }));
    const outcome = complete(
      await call({ name: 'broken', arguments: {}, requestState: first.requestState, inputResponses: { ok: accept({ ok: true }) } }),
    );
    expect(outcome.result.isError).toBe(true);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        event: 'machine_error',
        code: 'machine_failed',
        machine: 'answer_throws',
        round: 2,
        error: new Error('boom on answer'),
      }),
    );
  });

  it('fails with an isError result when an invoked promise rejects and nothing handles its error', async () => {
    const machine = setup({
      actors: {
        failing: fromPromise(async () => {
          throw new Error('payment provider down');
        }),
      },
    }).createMachine({
      id: 'rejects',
      initial: 'working',
      states: { working: { invoke: { id: 'work', src: 'failing', onDone: 'done' } }, done: { type: 'final' } },
    });
    const { call, logs } = makeEngine([tool(machine)]);
    expect(complete(await call({ name: 'broken', arguments: {} })).result.isError).toBe(true);
    const entry = logs.find((e) => e.level === 'error');
    expect(entry).toMatchObject({ event: 'machine_error' });
    expect((entry?.error as Error | undefined)?.message).toBe('payment provider down');
  });

  it('fails with an isError result when the result mapping throws', async () => {
    const machine = setup({}).createMachine({ id: 'instant', initial: 'done', states: { done: { type: 'final' } } });
    const { call, logs } = makeEngine([
      tool(machine, () => {
        throw new Error('bad mapping');
      }),
    ]);
    expect(complete(await call({ name: 'broken', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: FAILED_TEXT }],
      isError: true,
    });
    const entry = logs.find((e) => e.event === 'result_error');
    expect(entry).toMatchObject({
      level: 'error',
      target: 'tool broken',
      message: "Tool 'broken': turning the machine's output into the result failed: bad mapping",
    });
    expect((entry?.error as Error | undefined)?.message).toBe('bad mapping');
  });

  it('marks the result isError when the result view says so (a tool error, not a server failure)', async () => {
    const machine = setup({}).createMachine({ id: 'instant', initial: 'done', states: { done: { type: 'final' } } });
    const { call, logs } = makeEngine([tool(machine, () => ({ text: 'No such order', isError: true }))]);
    expect(complete(await call({ name: 'broken', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: 'No such order' }],
      isError: true,
    });
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'info', event: 'run_complete', code: 'finished', target: 'tool broken', round: 1 }),
    );
  });

  it('fails with an isError result when a question’s message function returns no text', async () => {
    const { questions, types } = okQuestion(() => '');
    const machine = setup({ types }).createMachine({
      id: 'silent',
      initial: 'asking',
      states: { asking: { meta: { ask: ['ok'] }, on: { 'ok.*': 'done' } }, done: { type: 'final' } },
    });
    const { call, logs } = makeEngine([
      defineTool({
        name: 'broken',
        description: 'Asks in silence',
        input: z.object({}),
        questions,
        machine,
        result: () => ({ text: 'done' }),
      }),
    ]);
    expect(complete(await call({ name: 'broken', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: FAILED_TEXT }],
      isError: true,
    });
    const entry = logs.find((e) => e.level === 'error');
    expect(entry).toMatchObject({
      event: 'engine_error',
      code: 'threw',
      target: 'tool broken',
      round: 1,
      error: new Error(`the message of question 'ok' rendered "", not text`),
    });
  });
});

describe('tool arguments', () => {
  it('answers invalid arguments with an isError result naming the field, without running the machine', async () => {
    const { call, logs } = makeEngine([makeConfirmTool()]);
    const outcome = complete(await call({ name: 'refund_order', arguments: { order_id: 42 } }));
    expect(outcome.result).toEqual({
      content: [
        {
          type: 'text',
          text: "Invalid arguments for tool 'refund_order': order_id: Invalid input: expected string, received number. Call it again with arguments matching its input schema.",
        },
      ],
      isError: true,
    });
    expect(logs).toEqual([]);
  });

  it('treats missing arguments as an empty object and names the missing field', async () => {
    const { call } = makeEngine([makeConfirmTool()]);
    const outcome = complete(await call({ name: 'refund_order' }));
    expect(outcome.result.isError).toBe(true);
    expect(textIn(outcome.result.content[0])).toMatch(
      /^Invalid arguments for tool 'refund_order': order_id: Invalid input: expected string, received undefined\./,
    );
  });

  it('answers arguments that are not an object with an isError result', async () => {
    const { call } = makeEngine([makeConfirmTool()]);
    const outcome = complete(await call({ name: 'refund_order', arguments: 'ord_1' }));
    expect(textIn(outcome.result.content[0])).toMatch(
      /^Invalid arguments for tool 'refund_order': \(arguments\): Invalid input: expected object, received string\./,
    );
  });
});
