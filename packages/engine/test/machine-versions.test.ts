// Machine versions: a state sealed by one version of a tool continues after a deploy of the next
// version through the tool's migrations, or is refused with a start-again hint and a log line that says
// why. Each deploy is simulated by two engines with the same keyring serving definitions of one name.
import { beforeEach, describe, expect, it } from 'vitest';
import { type AnyStateMachine, assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import {
  type AnswerEvents,
  type AskMeta,
  defineQuestions,
  defineTool,
  type JsonObject,
  type MachineMigrations,
  OUTDATED_STATE_HINT,
  ProblemList,
} from '../src/index.ts';
import { compileMachine, internalsOf } from '../src/internal.ts';
import { accept, complete, failed, inputRequired, makeEngine, problemsOf } from './support.ts';

type Ctx = { orderId: string; channel?: string };
type Out = { outcome: 'refunded' | 'kept'; orderId: string; channel: string | null };
const args = { order_id: 'A-1' };
const yes = { confirm: accept({ confirm: true }) };
const confirmSchema = z.object({ confirm: z.boolean() });
const questions = defineQuestions<Ctx>()({ confirm: { message: 'Refund order {{orderId}}?', schema: confirmSchema } });

/** The order machine as each version has it: the asking state's name, and (from v3) a `channel` in context. */
function orderMachine(o: { version?: string; asking?: string; channel?: string; entry?: ('audit' | 'notify')[] }) {
  const asking = o.asking ?? 'asking';
  const outcome = (value: Out['outcome']) => ({
    type: 'final' as const,
    output: ({ context }: { context: Ctx }) => ({ outcome: value, orderId: context.orderId, channel: context.channel ?? null }),
  });
  return setup({
    types: {
      context: {} as Ctx,
      input: {} as { order_id: string },
      events: {} as AnswerEvents<typeof questions>,
      meta: {} as AskMeta<typeof questions>,
      output: {} as Out,
    },
    actions: { audit: () => {}, notify: () => {} },
  }).createMachine({
    id: 'order',
    ...(o.version === undefined ? {} : { version: o.version }),
    context: ({ input }) => (o.channel ? { orderId: input.order_id, channel: o.channel } : { orderId: input.order_id }),
    initial: asking,
    states: {
      [asking]: { entry: o.entry ?? [], meta: { ask: ['confirm'] }, on: { 'confirm.accept': 'refunded', 'confirm.*': 'kept' } },
      refunded: outcome('refunded'),
      kept: outcome('kept'),
    },
    output: ({ event }) => event.output as Out,
  });
}

function orderTool(machine: AnyStateMachine, migrations?: MachineMigrations, qs: typeof questions = questions) {
  return defineTool({
    name: 'refund_order',
    description: 'Refund an order once the user confirms',
    input: z.object({ order_id: z.string() }),
    questions: qs,
    machine: machine as ReturnType<typeof orderMachine>,
    result: (output) => ({ text: output.outcome, structured: output }),
    ...(migrations ? { migrations } : {}),
  });
}

/** v1 → v2 renames the asking state; v2 → v3 adds `channel` to context, with a default for older states. */
const migrations: MachineMigrations = {
  '1': { to: '2', migrate: (s) => ({ ...s, value: s.value === 'asking' ? 'confirming' : s.value }) },
  '2': { to: '3', migrate: (s) => ({ ...s, context: { ...(s.context as JsonObject), channel: 'email' } }) },
};
const v1 = () => orderTool(orderMachine({ version: '1' }));
const v2 = () => orderTool(orderMachine({ version: '2', asking: 'confirming' }), { '1': migrations['1']! });
const v3 = (m: MachineMigrations = migrations) => orderTool(orderMachine({ version: '3', asking: 'confirming', channel: 'sms' }), m);

async function sealedBy(tool: ReturnType<typeof orderTool>): Promise<string> {
  return inputRequired(await makeEngine([tool]).call({ name: 'refund_order', arguments: args })).requestState;
}

/** The log entry of a refused state: the check that refused it, and the detail that check gave. */
const rejected = (code: string, detail: RegExp) =>
  expect.objectContaining({ level: 'warn', event: 'state_rejected', reason: 'outdated', code, detail: expect.stringMatching(detail) });

describe('a state sealed by an earlier version', () => {
  it('continues after a renamed state and an added context field, through each migration in turn', async () => {
    const state = await sealedBy(v1());
    const { call, logs } = makeEngine([v3()]);
    const done = complete(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
    // channel: the migration's default for an old state, not the 'sms' a new conversation starts with
    expect(done.result.structuredContent).toEqual({ outcome: 'refunded', orderId: 'A-1', channel: 'email' });
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 'info',
        event: 'state_migrated',
        code: 'migrated',
        target: 'tool refund_order',
        machine: 'order',
        path: ['1', '2', '3'],
      }),
    );
    expect(logs.filter((e) => e.level !== 'info')).toEqual([]);
  });

  it('continues from the version between, taking only the migrations after it', async () => {
    const state = await sealedBy(v2());
    const { call, logs } = makeEngine([v3()]);
    const done = complete(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
    expect(done.result.structuredContent).toMatchObject({ outcome: 'refunded', channel: 'email' });
    expect(logs).toContainEqual(expect.objectContaining({ event: 'state_migrated', code: 'migrated', path: ['2', '3'] }));
  });

  it('is sealed again under the current version, so the next round needs no migration', async () => {
    const state = await sealedBy(v1());
    const { call, logs } = makeEngine([v3()]);
    const again = inputRequired(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: {} }));
    complete(await call({ name: 'refund_order', arguments: args, requestState: again.requestState, inputResponses: yes }));
    expect(logs.filter((e) => e.event === 'state_migrated')).toHaveLength(1);
  });

  it('asks a question again when its text changed, and takes the answer to the new text', async () => {
    const reworded = defineQuestions<Ctx>()({ confirm: { message: 'Really refund order {{orderId}}?', schema: confirmSchema } });
    const state = await sealedBy(v1());
    // a reworded question is no change of structure: the same version serves the old state
    const { call, logs } = makeEngine([orderTool(orderMachine({ version: '1' }), undefined, reworded)]);
    const asked = inputRequired(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
    expect(asked.inputRequests.confirm!.params.message).toBe('Really refund order A-1?');
    expect(logs).toContainEqual(expect.objectContaining({ event: 'answer_ignored' }));
    const done = complete(await call({ name: 'refund_order', arguments: args, requestState: asked.requestState, inputResponses: yes }));
    expect(done.result.structuredContent).toMatchObject({ outcome: 'refunded' });
  });
});

describe('a state sealed with a persisted invoked actor', () => {
  type PriceCtx = { total: number | null; answer: boolean | null };
  const okQuestions = defineQuestions<PriceCtx>()({ ok: { message: 'Pay {{total}}?', schema: z.object({ ok: z.boolean() }) } });
  const runs = { price: 0, quote: 0 };
  // counted per test: a test's count must not depend on which tests ran before it (vitest --sequence.shuffle)
  beforeEach(() => Object.assign(runs, { price: 0, quote: 0 }));
  // the pricing region stays in 'busy' after its promise finished, so the done child stays in the snapshot
  const pricingMachine = (version: string, id: 'price' | 'quote') =>
    setup({
      types: {
        context: {} as PriceCtx,
        events: {} as AnswerEvents<typeof okQuestions>,
        meta: {} as AskMeta<typeof okQuestions>,
        output: {} as PriceCtx,
      },
      actors: {
        [id]: fromPromise(async () => {
          runs[id]++;
          return 1250;
        }),
      },
    }).createMachine({
      id: 'pricing',
      version,
      type: 'parallel',
      context: { total: null, answer: null },
      states: {
        pricing: {
          initial: 'busy',
          states: {
            busy: {
              invoke: { id, src: id, onDone: { actions: assign({ total: ({ event }) => event.output as number }) } },
              on: { 'ok.*': 'priced' },
            },
            priced: { type: 'final' },
          },
        },
        asking: {
          initial: 'q',
          states: {
            q: {
              meta: { ask: ['ok'] },
              on: { 'ok.accept': { target: 'answered', actions: assign({ answer: ({ event }) => event.content.ok }) } },
            },
            answered: { type: 'final' },
          },
          on: { 'ok.*': '.answered' },
        },
      },
      output: ({ context }) => context,
    });
  const pricingTool = (machine: AnyStateMachine, m?: MachineMigrations) =>
    defineTool({
      name: 'pay',
      description: 'Price, then ask',
      input: z.object({}),
      questions: okQuestions,
      machine: machine as ReturnType<typeof pricingMachine>,
      result: (output) => ({ text: String(output.answer), structured: output }),
      ...(m ? { migrations: m } : {}),
    });
  const renameChild: MachineMigrations = {
    '1': {
      to: '2',
      migrate: ({ children, ...rest }) => {
        const { price, ...others } = children ?? {};
        return { ...rest, children: { ...others, quote: { ...(price as JsonObject), src: 'quote' } } };
      },
    },
  };

  it('continues after the invoke and its actor were renamed, with the child moved to its new id, not run again', async () => {
    const first = inputRequired(await makeEngine([pricingTool(pricingMachine('1', 'price'))]).call({ name: 'pay', arguments: {} }));
    const { call, logs } = makeEngine([pricingTool(pricingMachine('2', 'quote'), renameChild)]);
    const done = complete(
      await call({ name: 'pay', arguments: {}, requestState: first.requestState, inputResponses: { ok: accept({ ok: true }) } }),
    );
    expect(done.result.structuredContent).toEqual({ total: 1250, answer: true });
    expect(runs).toEqual({ price: 1, quote: 0 });
    expect(logs).toContainEqual(expect.objectContaining({ event: 'state_migrated' }));
  });

  it('refuses the state when the migration leaves the child under an id and actor the machine no longer has', async () => {
    const first = inputRequired(await makeEngine([pricingTool(pricingMachine('1', 'price'))]).call({ name: 'pay', arguments: {} }));
    const { call, logs } = makeEngine([pricingTool(pricingMachine('2', 'quote'), { '1': { to: '2', migrate: (s) => s } })]);
    const outcome = failed(await call({ name: 'pay', arguments: {}, requestState: first.requestState, inputResponses: {} }));
    expect(outcome.error.data).toMatchObject({ reason: 'outdated' });
    expect(logs).toContainEqual(
      rejected(
        'migration_failed',
        /migration bug: .* from version '1' to '2' .*child 'price' runs actor "price", which the machine does not name/,
      ),
    );
  });
});

describe('a state that cannot continue', () => {
  it('is refused as outdated when the machine changed but kept its version, telling the author to bump it', async () => {
    const state = await sealedBy(v1());
    const { call, logs } = makeEngine([orderTool(orderMachine({ version: '1', asking: 'confirming' }))]);
    const outcome = failed(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
    expect(outcome.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState', data: { reason: 'outdated' } });
    expect(logs).toContainEqual(
      rejected('machine_changed', /machine 'order' changed but its version is still '1'; bump its version and add a migration from '1'/),
    );
  });

  it('is refused with the start-again hint when no migration leads from its version', async () => {
    const state = await sealedBy(v1());
    const { call, logs } = makeEngine([v3({ '2': migrations['2']! })]);
    const outcome = failed(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
    expect(outcome.error.data).toMatchObject({ reason: 'outdated', hint: expect.stringMatching(/Start over: send the request again/) });
    expect(logs).toContainEqual(
      rejected('no_migration', /sealed by version '1' of machine 'order', which is now version '3' with no migration from '1'/),
    );
    expect(OUTDATED_STATE_HINT).toBe(
      'The server was updated since this conversation started. Start over: send the request again without requestState or inputResponses.',
    );
  });

  it.each([
    ['returns a state the machine does not have', (s: object) => ({ ...s, value: 'nowhere' }), /state value "nowhere" does not exist/],
    ['returns a final state', (s: object) => ({ ...s, value: 'refunded' }), /state value "refunded" is a final state/],
    ['returns a context that is not JSON', (s: object) => ({ ...s, context: { when: new Date(0) } }), /context\.when is a Date/],
    [
      'throws',
      () => {
        throw new Error('no such field');
      },
      /threw: no such field/,
    ],
  ])('is refused, logged as a migration bug, when the migration %s', async (_, migrate, detail) => {
    const state = await sealedBy(v1());
    const { call, logs } = makeEngine([orderTool(orderMachine({ version: '2' }), { '1': { to: '2', migrate: migrate as never } })]);
    const outcome = failed(await call({ name: 'refund_order', arguments: args, requestState: state, inputResponses: yes }));
    expect(outcome.error.data).toMatchObject({ reason: 'outdated' });
    expect(logs).toContainEqual(
      rejected(
        'migration_failed',
        new RegExp(`migration bug: the migration of machine 'order' from version '1' to '2' .*${detail.source}`),
      ),
    );
    expect(logs.filter((e) => e.level === 'error')).toEqual([]);
  });
});

describe('the structure hash', () => {
  const hashOf = (machine: AnyStateMachine) => internalsOf(orderTool(machine)).machine.hash;
  const base = hashOf(orderMachine({ version: '1' }));
  /** The hash of a machine that asks nothing. */
  const bareHashOf = (machine: AnyStateMachine) => compileMachine(machine, 'test', new Map(), new ProblemList()).hash;

  it('changes when an action is added or renamed, or an assign sets other fields', () => {
    expect(hashOf(orderMachine({ version: '1' }))).toEqual(base);
    expect(hashOf(orderMachine({ version: '1', entry: ['audit'] }))).not.toEqual(base);
    expect(hashOf(orderMachine({ version: '1', entry: ['audit'] }))).not.toEqual(hashOf(orderMachine({ version: '1', entry: ['notify'] })));
    const assigning = (field: 'a' | 'b') =>
      bareHashOf(
        setup({}).createMachine({
          id: 'order',
          context: { a: 0, b: 0 },
          initial: 'x',
          states: { x: { on: { go: { target: 'y', actions: assign({ [field]: 1 }) } } }, y: { type: 'final' } },
        }),
      );
    expect(assigning('a')).not.toEqual(assigning('b'));
  });

  it("changes when a literal context's shape changes (a new field, a field's type), not its values", () => {
    const withContext = (context: Record<string, unknown>) =>
      bareHashOf(setup({}).createMachine({ id: 'order', context, initial: 'x', states: { x: { on: { go: 'y' } }, y: { type: 'final' } } }));
    const shape = withContext({ total: 0, items: [], who: { name: 'a' } });
    expect(withContext({ total: 5, items: [1, 2], who: { name: 'b' } })).toEqual(shape);
    expect(withContext({ total: 0, items: [], who: { name: 'a' }, note: null })).not.toEqual(shape);
    expect(withContext({ total: '0', items: [], who: { name: 'a' } })).not.toEqual(shape);
    expect(withContext({ total: 0, items: [], who: { name: 'a', age: 3 } })).not.toEqual(shape);
  });

  it("changes with the machine's version, not with a question's text or the tool's description", () => {
    expect(hashOf(orderMachine({ version: '2' }))).not.toEqual(base);
    const reworded = defineQuestions<Ctx>()({ confirm: { message: 'Sure about {{orderId}}?', schema: confirmSchema } });
    expect(internalsOf(orderTool(orderMachine({ version: '1' }), undefined, reworded)).machine.hash).toEqual(base);
  });
});

describe('migrations as a definition declares them', () => {
  it.each([
    ['one from the current version', { '3': { to: '4', migrate: (s) => s } }, "migrates from '3', the machine's current version"],
    ['a chain that stops short', { '1': { to: '2', migrate: (s) => s } }, "end at '2' ('1' → '2'), which is not the current version '3'"],
    ['a circle', { '1': { to: '2', migrate: (s) => s }, '2': { to: '1', migrate: (s) => s } }, 'go round in a circle'],
    ['an entry without migrate', { '1': { to: '3' } }, 'a migration is { to, migrate }'],
  ] as [string, MachineMigrations, string][])('are refused when they hold %s', (_, m, message) => {
    const problems = problemsOf(() => v3(m));
    expect(problems).toContainEqual(expect.objectContaining({ code: 'invalid_migration', message: expect.stringContaining(message) }));
  });

  it('are refused for a machine without a version, and a version too long for a state is refused', () => {
    expect(problemsOf(() => orderTool(orderMachine({}), migrations))).toMatchObject([
      { path: ["Tool 'refund_order'", 'migrations'], code: 'invalid_migration' },
    ]);
    expect(problemsOf(() => orderTool(orderMachine({ version: 'x'.repeat(65) })))).toMatchObject([
      { path: ["Tool 'refund_order'", "machine 'order'"], code: 'invalid_option' },
    ]);
  });
});
