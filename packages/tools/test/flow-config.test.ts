import { describeDefinition } from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { z } from 'zod';
import { ask, askAll, defineFlowPrompt, defineFlowResource, defineFlowTool, field, form, review } from '../src/index.ts';
import { flowMachineConfig, flowMachineFrom } from '../src/internal.ts';

const confirmIt = defineFlowTool({
  name: 'confirm_it',
  description: 'Confirms a thing',
  input: z.object({ what: z.string() }),
  steps: {
    sure: ask({
      message: 'Do {{input.what}}?',
      fields: { ok: field.boolean() },
      next: [{ if: { 'sure.ok': { eq: true } }, goto: 'finish' }, { goto: 'why' }],
    }),
    why: ask({ message: 'Why not?', fields: { reason: field.text() }, onDecline: 'skip' }),
  },
  final: ({ answers }) => ({ text: answers.sure?.ok ? 'done' : `not done: ${answers.why?.reason ?? 'no reason'}` }),
});

const act = (type: string, params?: object) => (params ? { type, params } : { type });

describe('the machine config of a declared flow', () => {
  it('is plain JSON: named guards and actions with JSON params, questions asked by name', () => {
    const config = flowMachineConfig(confirmIt);
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
    expect(config).toEqual({
      id: 'confirm_it',
      initial: 'sure',
      context: {},
      entry: [act('takeInput')],
      states: {
        sure: {
          entry: [act('enterStep', { step: 'sure' })],
          meta: { ask: ['sure'] },
          always: [
            { target: 'finishing', guard: act('answeredBefore', { step: 'sure', condition: { 'sure.ok': { eq: true } } }) },
            { target: 'why', guard: act('answeredBefore', { step: 'sure' }) },
          ],
          on: {
            'sure.accept': [
              {
                target: 'finishing',
                guard: act('when', { condition: { 'sure.ok': { eq: true } } }),
                actions: [act('store', { form: 'sure' })],
              },
              { target: 'why', actions: [act('store', { form: 'sure' })] },
            ],
            'sure.decline': [{ target: 'ended', actions: [act('endFlow', { step: 'sure', how: 'declined' })] }],
            'sure.cancel': [{ target: 'ended', actions: [act('endFlow', { step: 'sure', how: 'cancelled' })] }],
          },
        },
        why: {
          entry: [act('enterStep', { step: 'why' })],
          meta: { ask: ['why'] },
          always: [{ target: 'finishing', guard: act('answeredBefore', { step: 'why' }) }],
          on: {
            'why.accept': [{ target: 'finishing', actions: [act('store', { form: 'why' })] }],
            'why.decline': [{ target: 'finishing', actions: [act('skipStep', { step: 'why' })] }],
            'why.cancel': [{ target: 'ended', actions: [act('endFlow', { step: 'why', how: 'cancelled' })] }],
          },
        },
        finishing: {
          meta: { progress: 'Finishing…' },
          entry: [act('runFinal')],
          exit: [act('stopFinal')],
          on: {
            'xstate.done.actor.finish': { target: 'done', actions: [act('keepResult')] },
            'xstate.error.actor.finish': [{ actions: [act('failFinal')] }],
          },
        },
        done: { type: 'final' },
        ended: { type: 'final' },
      },
    });
  });

  it('is a fresh copy each time: changing one does not change the flow', () => {
    const config = flowMachineConfig(confirmIt);
    (config.states as Record<string, unknown>).sure = null;
    expect((flowMachineConfig(confirmIt).states as Record<string, unknown>).sure).not.toBeNull();
  });

  it('fully determines the machine: the parsed JSON with the flow\u2019s setup builds the machine the engine serves, and runs the same way', async () => {
    // the machine the engine serves for the tool (its final actor wrapped by the effect ledger)
    const original = describeDefinition(confirmIt).machine;
    const fromJson = flowMachineFrom(confirmIt, JSON.parse(JSON.stringify(flowMachineConfig(confirmIt))) as Record<string, unknown>);
    // XState's own description of each machine (its functions, made afresh by each setup, left out)
    const described = (machine: typeof original) => JSON.parse(JSON.stringify(machine.root.definition)) as unknown;
    expect(described(fromJson)).toEqual(described(original));
    const run = async (machine: typeof original, events: Array<{ type: string; key: string; content?: object }>) => {
      const actor = createActor(machine, { input: { what: 'it' } }).start();
      const seen = [JSON.stringify(actor.getSnapshot().value)];
      for (const event of events) {
        actor.send(event);
        seen.push(JSON.stringify(actor.getSnapshot().value));
      }
      await new Promise<void>((resolve) => {
        if (actor.getSnapshot().status !== 'active') resolve();
        else actor.subscribe({ complete: () => resolve() });
      });
      return { seen, output: actor.getSnapshot().output, context: actor.getSnapshot().context };
    };
    for (const events of [
      [{ type: 'sure.accept', key: 'sure', content: { ok: true } }],
      [
        { type: 'sure.accept', key: 'sure', content: { ok: false } },
        { type: 'why.decline', key: 'why' },
      ],
      [
        { type: 'sure.accept', key: 'sure', content: { ok: false } },
        { type: 'why.accept', key: 'why', content: { reason: 'later' } },
      ],
      [{ type: 'sure.cancel', key: 'sure' }],
    ]) {
      const a = await run(original, events);
      expect(await run(fromJson, events)).toEqual(a);
      expect(a.output).toBeDefined();
    }
  });

  it('gives a parallel step one region per form, a conditional form a deciding state, and a review its options', () => {
    const tool = defineFlowTool({
      name: 'incident',
      description: 'Reports',
      input: z.object({}),
      steps: {
        level: ask({ message: 'Level?', fields: { level: field.select({ options: ['low', 'high'] }) } }),
        more: askAll({
          forms: {
            what: form({ message: 'What?', fields: { text: field.text() } }),
            page: form({ message: 'Page?', fields: { page: field.boolean() }, if: { 'level.level': { eq: 'high' } } }),
          },
        }),
        check: review({ message: 'Send?' }),
      },
      final: () => ({ text: 'sent' }),
    });
    const states = flowMachineConfig(tool).states as Record<string, Record<string, unknown>>;
    expect(states.more!.type).toBe('parallel');
    const regions = states.more!.states as Record<string, { states: Record<string, { always?: unknown; meta?: unknown }> }>;
    expect(Object.keys(regions)).toEqual(['what', 'page']);
    expect(regions.page!.states.deciding!.always).toEqual([
      { target: 'answered', guard: act('formAnsweredBefore', { form: 'page' }) },
      { target: 'asking', guard: act('when', { condition: { 'level.level': { eq: 'high' } } }) },
      { target: 'skipped', actions: [act('skipForm', { form: 'page' })] },
    ]);
    expect(regions.page!.states.asking!.meta).toEqual({ ask: ['page'] });
    const reviewOn = (states.check!.on as Record<string, Array<{ guard?: { params?: object } }>>)['check.accept']!;
    expect(reviewOn.map((t) => t.guard?.params)).toEqual([
      { option: 'confirm' },
      { option: 'abandon' },
      { step: 'level' },
      { step: 'more' },
      undefined,
    ]);
  });

  it('is there for prompts and resources too', () => {
    const prompt = defineFlowPrompt({
      name: 'agenda',
      description: 'Writes an agenda',
      steps: { style: ask({ message: 'Style?', fields: { style: field.select({ options: ['short', 'long'] }) } }) },
      final: ({ answers }) => [{ role: 'user', text: `Write a ${answers.style?.style} agenda.` }],
    });
    const resource = defineFlowResource({
      uri: 'rooms://{room}/week',
      name: 'room_week',
      description: 'A room’s week',
      steps: { week: ask({ message: 'Which week for {{input.room}}?', fields: { week: field.integer({ min: 1, max: 53 }) } }) },
      final: ({ input, answers }) => `${input.room}: week ${answers.week?.week}`,
    });
    expect(flowMachineConfig(prompt).id).toBe('agenda');
    expect(flowMachineConfig(resource).id).toBe('room_week');
    expect(() => flowMachineConfig({})).toThrow(
      'Not a declared flow: make it with defineFlowTool, defineFlowPrompt or defineFlowResource.',
    );
  });
});
