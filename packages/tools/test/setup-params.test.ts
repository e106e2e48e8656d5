// The params a compiled flow's JSON config gives its named guards and actions are the ones the setup reads
// (typed in flow-params.ts): walked over flows that use every kind of step, leave and review.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, askAll, defineFlowTool, field, form, load, openPage, review } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';

/** Each named guard or action: the params it requires, and those it may have. */
const PARAMS: Record<string, { required: string[]; optional?: string[] }> = {
  // guards
  when: { required: [], optional: ['condition'] },
  answeredBefore: { required: ['step'], optional: ['condition'] },
  formAnsweredBefore: { required: ['form'] },
  keptAnswer: { required: ['form'] },
  checkRefused: { required: [] },
  keptAnswerFails: { required: [], optional: ['forms'] },
  answerFails: { required: ['form'] },
  confirmedChanged: { required: ['form'] },
  shownChanged: { required: ['step'] },
  clientOpensPages: { required: [] },
  clientKnown: { required: [] },
  cameFrom: { required: ['step'] },
  reviewChoice: { required: ['option'], optional: ['condition'] },
  changeStep: { required: ['step'] },
  // actions
  takeInput: { required: [] },
  enterStep: { required: ['step'] },
  store: { required: ['form'] },
  skipStep: { required: ['step'] },
  skipForm: { required: ['form'] },
  forgetStep: { required: ['step'] },
  dropFailingAnswers: { required: [], optional: ['forms'] },
  rememberProblem: { required: ['form'] },
  endFlow: { required: ['step', 'how'], optional: ['message'] },
  startReview: { required: [] },
  noteClient: { required: [] },
  noteShown: { required: ['step'] },
  rememberChange: { required: ['step'] },
  keepResult: { required: [] },
  runFinal: { required: [] },
  stopFinal: { required: [] },
  forgetConfirmed: { required: ['form'] },
  keepFailure: { required: [] },
  failFinal: { required: [] },
  keepLoaded: { required: ['step'] },
  loadFailed: { required: ['step'] },
  logLoadFailure: { required: ['step'] },
  hold: { required: ['form'] },
  holdKept: { required: ['form'] },
  storeHeld: { required: ['form'] },
  rememberRefusal: { required: ['form'] },
  keepShown: { required: ['step'] },
  failStep: { required: ['what'] },
};

/** Every `{ type, params }` a config names as a guard or an action. */
function namedImplementations(node: unknown, found: Array<{ type: string; params: Record<string, unknown> }> = []) {
  if (Array.isArray(node)) for (const item of node) namedImplementations(item, found);
  else if (node !== null && typeof node === 'object') {
    const { guard, actions, entry, exit, ...rest } = node as Record<string, unknown>;
    for (const named of [guard, actions, entry, exit].flat())
      if (named !== null && typeof named === 'object' && typeof (named as { type?: unknown }).type === 'string') {
        const { type, params } = named as { type: string; params?: Record<string, unknown> };
        found.push({ type, params: params ?? {} });
      }
    for (const value of Object.values(rest)) namedImplementations(value, found);
  }
  return found;
}

const input = z.object({ topic: z.string() });
const flows = [
  defineFlowTool({
    name: 'book',
    description: 'Books',
    input,
    steps: {
      note: ask({ message: 'Note?', fields: { note: field.text() }, onCancel: 'skip' }),
      when: ask({
        message: 'When?',
        fields: { attendees: field.integer({ min: 1 }) },
        check: ({ answer }) => (answer.attendees > 30 ? 'too many' : undefined),
        next: [
          { if: { 'when.attendees': { gt: 5 } }, goto: 'room' },
          { if: { 'when.attendees': { eq: 0 } }, end: 'No one.' },
          { goto: 'more' },
        ],
      }),
      room: ask({
        message: 'Room?',
        fields: { room: field.select({ options: ['a', 'b'] }) },
        check: async () => undefined,
        onDecline: 'back',
      }),
      more: askAll({
        forms: {
          gear: form({ message: 'Gear?', fields: { gear: field.text() }, if: { 'when.attendees': { gt: 2 } }, onDecline: 'skip' }),
          food: form({ message: 'Food?', fields: { food: field.boolean() } }),
        },
      }),
      confirm: review({ message: 'Book?', show: async () => ({ Price: 1 }) }),
    },
    final: () => ({ text: 'booked' }),
  }),
  defineFlowTool({
    name: 'pay',
    description: 'Pays',
    input,
    loaders: { findOrder: async () => ({ found: true }) },
    steps: {
      order: load({ run: 'findOrder', retries: 1, next: [{ if: { 'order.found': { eq: false } }, end: 'None.' }, { goto: 'pay' }] }),
      pay: openPage({ message: 'Pay', url: 'https://pay.example.com/{{input.topic}}', alternative: 'ok', check: async () => undefined }),
      ok: ask({ message: 'Paid?', fields: { ok: field.boolean() } }),
      confirm: review({ message: 'Done?', show: () => ({ Paid: true }) }),
    },
    final: () => ({ text: 'paid' }),
  }),
];

describe('the params of named guards and actions', () => {
  it('are the ones the setup reads, for every guard and action a flow names', () => {
    const wrong: string[] = [];
    const seen = new Set<string>();
    for (const flow of flows) {
      for (const { type, params } of namedImplementations(flowMachineConfig(flow))) {
        seen.add(type);
        const expected = PARAMS[type];
        if (!expected) {
          wrong.push(`${type}: not in this table (add it here and its params to flow-params.ts)`);
          continue;
        }
        const keys = Object.keys(params);
        const missing = expected.required.filter((key) => !keys.includes(key));
        const extra = keys.filter((key) => !expected.required.includes(key) && !expected.optional?.includes(key));
        if (missing.length > 0 || extra.length > 0)
          wrong.push(`${type}: missing ${missing.join(', ') || '-'}, extra ${extra.join(', ') || '-'}`);
      }
    }
    expect(wrong).toEqual([]);
    // the flows above name most of them, so the table is checked against real configs
    expect(seen.size).toBeGreaterThan(25);
  });
});
