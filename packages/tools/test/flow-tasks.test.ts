// Tasks (SEP-2663) in declared flows: a load step marked `long`, or a final action marked `finalLong`, of a
// tool declaring `task` becomes a task for a client that accepts tasks, and runs inside the request for one
// that does not; the author writes no task code. Through the real engine (real keys, the memory ledger);
// work is held open by promises the test settles, and tasks/get is polled one event-loop turn at a time.
import {
  type ClientCapabilities,
  createEngine,
  createKeyring,
  createMemoryLedger,
  describeDefinition,
  type Engine,
  generateKey,
  RoundtripDefinitionError,
  type StepOutcome,
  TASKS_EXTENSION,
  type TaskStatus,
  type TaskView,
  type ToolDefinition,
} from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowPrompt, defineFlowTool, field, load } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';

/** A client that accepts tasks and can be asked forms; one that can only be asked forms. */
const TASKS: ClientCapabilities = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const FORMS: ClientCapabilities = { elicitation: {} };
const keyring = createKeyring([generateKey()]);

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

function serve(tool: ToolDefinition) {
  const engine = createEngine({ tools: [tool], keyring, audience: 'flow-tasks', ledger: createMemoryLedger() });
  const call = (capabilities: ClientCapabilities, extra: { requestState?: string; inputResponses?: Record<string, unknown> } = {}) =>
    engine.callTool({ principal: 'ada', capabilities, name: tool.name, arguments: { orderId: 'A1' }, ...extra });
  return { engine, call };
}

/** Polls tasks/get, one event-loop turn apart, until the task has `status` (at most 1000 turns). */
async function untilStatus(engine: Engine, taskId: string, status: TaskStatus): Promise<TaskView> {
  let last: TaskView | undefined;
  for (let turn = 0; turn < 1000; turn++) {
    const got = await engine.getTask({ taskId, principal: 'ada', capabilities: TASKS });
    if (got.type === 'error') throw new Error(`tasks/get failed: ${JSON.stringify(got.error)}`);
    last = got.task;
    if (last.status === status) return last;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  expect(last?.status, JSON.stringify(last)).toBe(status);
  return last!;
}

const textOf = (result: { content: Array<{ type: string; text?: string }> } | undefined) => result?.content.map((c) => c.text).join('\n');

function taskIdOf(outcome: StepOutcome<unknown>): string {
  expect(outcome.type, JSON.stringify(outcome)).toBe('task');
  return (outcome as Extract<StepOutcome<unknown>, { type: 'task' }>).task.taskId;
}

function completedText(outcome: StepOutcome<unknown>): string | undefined {
  expect(outcome.type, JSON.stringify(outcome)).toBe('complete');
  return textOf((outcome as Extract<StepOutcome<unknown>, { type: 'complete' }>).result as never);
}

/** A refund whose order lookup may take long: held open until the test lets it go. */
function slowLookup(task: 'optional' | 'required' = 'optional') {
  const lookup = deferred<{ amount: number }>();
  let lookups = 0;
  const tool = defineFlowTool({
    name: 'refund_order',
    description: 'Refunds an order',
    input: z.object({ orderId: z.string() }),
    task,
    loaders: {
      findOrder: () => {
        lookups++;
        return lookup.promise;
      },
    },
    steps: (flow) =>
      flow
        .load('order', { run: 'findOrder', long: true, progress: 'Looking up the order in the archive…' })
        .ask('confirm', { message: 'Refund {{order.amount}}?', fields: { ok: field.boolean() } }),
    final: ({ loaded, answers }) => ({ text: answers.confirm.ok ? `Refunded ${loaded.order?.amount}.` : 'Kept.' }),
  });
  return { tool, lookup, lookups: () => lookups };
}

describe('a long load step of a flow tool with task', () => {
  it('becomes a task for a client that accepts tasks; its question is the task’s, and its answer completes it', async () => {
    const { tool, lookup, lookups } = slowLookup();
    const { engine, call } = serve(tool);
    expect(engine.offersTasks()).toBe(true);
    const first = await call(TASKS);
    const taskId = taskIdOf(first);
    expect(first).toMatchObject({ task: { status: 'working', statusMessage: 'Looking up the order in the archive…' } });
    lookup.resolve({ amount: 30 });
    const asking = await untilStatus(engine, taskId, 'input_required');
    const [key, request] = Object.entries(asking.inputRequests ?? {})[0]!;
    expect(key).toBe('confirm.1');
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Refund 30?' } });
    const update = await engine.updateTask({
      taskId,
      principal: 'ada',
      capabilities: TASKS,
      inputResponses: { [key]: { action: 'accept', content: { ok: true } } },
    });
    expect(update).toEqual({ type: 'complete' });
    const done = await untilStatus(engine, taskId, 'completed');
    expect(textOf(done.result)).toBe('Refunded 30.');
    expect(lookups()).toBe(1);
  });

  it('runs inside the request, as without tasks, for a client that does not accept tasks', async () => {
    const { tool, lookup } = slowLookup();
    const { call } = serve(tool);
    lookup.resolve({ amount: 12 });
    const first = await call(FORMS);
    expect(first.type).toBe('input_required');
    const { requestState, inputRequests } = first as Extract<StepOutcome<unknown>, { type: 'input_required' }>;
    expect(Object.keys(inputRequests)).toEqual(['confirm']);
    const last = await call(FORMS, { requestState, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
    expect(completedText(last)).toBe('Refunded 12.');
  });

  it("with task: 'required', refuses a client that does not accept tasks (-32021, the extension it needs)", async () => {
    const { tool } = slowLookup('required');
    const refused = await serve(tool).call(FORMS);
    expect(refused).toMatchObject({
      type: 'error',
      error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
    });
  });
});

/** A booking whose final action may take long: held open until the test lets it go; counts its runs. */
function slowBooking() {
  const booking = deferred<string>();
  let runs = 0;
  const tool = defineFlowTool({
    name: 'book_room',
    description: 'Books a room',
    input: z.object({ orderId: z.string() }),
    task: 'optional',
    finalLong: true,
    finalProgress: 'Booking the room with the hotel…',
    steps: { room: ask({ message: 'Which room?', fields: { room: field.select({ options: ['atlas', 'orion'] }) } }) },
    final: async ({ answers }) => {
      runs++;
      return { text: `Booked ${answers.room?.room} (${await booking.promise}).` };
    },
  });
  return { tool, booking, runs: () => runs };
}

describe('a long final action of a flow tool with task', () => {
  it('becomes a task when the answer that starts it comes from a client that accepts tasks, completed with its result, run once', async () => {
    const { tool, booking, runs } = slowBooking();
    const { engine, call } = serve(tool);
    const first = await call(TASKS);
    expect(first.type).toBe('input_required');
    const { requestState } = first as Extract<StepOutcome<unknown>, { type: 'input_required' }>;
    const answer = { requestState, inputResponses: { room: { action: 'accept', content: { room: 'orion' } } } };
    const started = await call(TASKS, answer);
    const taskId = taskIdOf(started);
    expect(started).toMatchObject({ task: { status: 'working', statusMessage: 'Booking the room with the hotel…' } });
    booking.resolve('confirmation 77');
    const done = await untilStatus(engine, taskId, 'completed');
    expect(textOf(done.result)).toBe('Booked orion (confirmation 77).');
    expect(runs()).toBe(1);
    // the same answer sent again (a retrying client) gets the recorded result: the final action does not run again
    const again = await call(TASKS, answer);
    const replayed = again.type === 'task' ? (await untilStatus(engine, taskIdOf(again), 'completed')).result : undefined;
    expect(replayed ? textOf(replayed) : completedText(again)).toBe('Booked orion (confirmation 77).');
    expect(runs()).toBe(1);
  });

  it('runs inside the request for a client that does not accept tasks', async () => {
    const { tool, booking, runs } = slowBooking();
    const { call } = serve(tool);
    booking.resolve('confirmation 5');
    const first = await call(FORMS);
    const { requestState } = first as Extract<StepOutcome<unknown>, { type: 'input_required' }>;
    const last = await call(FORMS, { requestState, inputResponses: { room: { action: 'accept', content: { room: 'atlas' } } } });
    expect(completedText(last)).toBe('Booked atlas (confirmation 5).');
    expect(runs()).toBe(1);
  });
});

describe('long work in the machine config', () => {
  it('is meta.long on the state that runs it, and not structure: marking work long keeps the structure hash', () => {
    const booking = (marked: boolean) =>
      defineFlowTool({
        name: 'book_room',
        description: 'Books a room',
        input: z.object({}),
        ...(marked && { task: 'optional' as const, finalLong: true }),
        loaders: { readCalendar: async () => ({ free: 2 }) },
        steps: { calendar: load({ run: 'readCalendar', long: marked }) },
        final: () => ({ text: 'Booked.' }),
      });
    const states = flowMachineConfig(booking(true)).states as Record<string, { meta?: Record<string, unknown> }>;
    expect(states.calendar?.meta).toEqual({ progress: 'Loading…', long: true });
    expect(states.finishing?.meta).toEqual({ progress: 'Finishing…', long: true });
    const plain = flowMachineConfig(booking(false)).states as Record<string, { meta?: Record<string, unknown> }>;
    expect(plain.calendar?.meta).toEqual({ progress: 'Loading…' });
    expect(describeDefinition(booking(true)).structureHash).toBe(describeDefinition(booking(false)).structureHash);
  });
});

describe('long work and the task option, checked when the flow is defined', () => {
  const problemsOf = (define: () => unknown) => {
    try {
      define();
    } catch (error) {
      expect(error).toBeInstanceOf(RoundtripDefinitionError);
      return (error as RoundtripDefinitionError).problems.map(({ path, code, message, fix }) => ({
        path: path.join(' › '),
        code,
        message,
        fix,
      }));
    }
    throw new Error('the declaration was accepted');
  };
  const loaders = { readCalendar: async () => ({ free: 2 }) };
  const base = { name: 'book_room', description: 'Books a room', input: z.object({}), loaders, final: () => ({ text: 'Booked.' }) };

  it('refuses long work in a tool without task, at each place it is marked, with the fix', () => {
    const problems = problemsOf(() =>
      defineFlowTool({ ...base, finalLong: true, steps: { calendar: load({ run: 'readCalendar', long: true }) } }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        path: "tool 'book_room' › step 'calendar' › long",
        code: 'invalid_step',
        message: "long: true has effect only when the tool declares task: 'optional' or 'required'.",
      }),
      expect.objectContaining({ path: "tool 'book_room' › finalLong", code: 'invalid_step' }),
    ]);
    expect(problems[0]?.fix).toMatch(/^Declare task: 'optional' on the tool/);
  });

  it('refuses task in a tool with no long work: no call would ever go on as a task', () => {
    const problems = problemsOf(() => defineFlowTool({ ...base, task: 'required', steps: { calendar: load({ run: 'readCalendar' }) } }));
    expect(problems).toEqual([
      expect.objectContaining({
        path: "tool 'book_room' › task",
        code: 'invalid_option',
        message: 'the tool declares task: "required", but no step is marked long, so no call would ever go on as a task.',
      }),
    ]);
    expect(problems[0]?.fix).toMatch(/long: true on its load step, or finalLong: true/);
  });

  it('refuses a long mark that is not true or false, and long load steps in a prompt (never a task)', () => {
    expect(
      problemsOf(() =>
        defineFlowTool({ ...base, task: 'optional', steps: { calendar: load({ run: 'readCalendar', long: 'yes' as never }) } }),
      ),
    ).toContainEqual(
      expect.objectContaining({ path: "tool 'book_room' › step 'calendar' › long", message: 'long is "yes", not true or false.' }),
    );
    const prompt = problemsOf(() =>
      defineFlowPrompt({
        name: 'plan',
        description: 'Plans',
        loaders,
        steps: { calendar: load({ run: 'readCalendar', long: true }) },
        final: () => [{ role: 'user', text: 'Plan.' }],
      }),
    );
    expect(prompt).toEqual([
      expect.objectContaining({
        path: "prompt 'plan' › step 'calendar' › long",
        message: expect.stringMatching(/a prompt never becomes a task\.$/),
      }),
    ]);
  });
});
