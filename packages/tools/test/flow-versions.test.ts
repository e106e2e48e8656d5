// Versions of a declared flow: `version` goes into the flow's machine config, and `migrations` let a
// state sealed by the earlier version continue after a step was renamed. Each deploy is two engines
// with one keyring serving a flow of the same name.
import {
  createEngine,
  createKeyring,
  type EngineLogEntry,
  generateKey,
  type JsonObject,
  type MachineMigrations,
  type StepOutcome,
  type ToolDefinition,
} from '@roundtrip/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowPrompt, defineFlowTool, field } from '../src/index.ts';
import { flowMachineConfig } from '../src/internal.ts';

const keyring = createKeyring([generateKey()]);

function serve(tool: ToolDefinition) {
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({ tools: [tool], keyring, audience: 'flows', log: (entry) => logs.push(entry) });
  const call = (requestState?: string, inputResponses?: Record<string, unknown>) =>
    engine.callTool({
      name: 'profile',
      arguments: {},
      principal: 'ada',
      capabilities: { elicitation: {} },
      ...(requestState === undefined ? {} : { requestState, inputResponses }),
    });
  return { call, logs };
}

const asked = (outcome: StepOutcome) => {
  if (outcome.type !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(outcome)}`);
  return outcome;
};
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** v1 asks for a name, then a colour; v2 calls the second step 'favourite'. */
const v1 = () =>
  defineFlowTool({
    name: 'profile',
    description: 'Name and colour',
    input: z.object({}),
    version: '1',
    steps: {
      name: ask({ message: 'Your name?', fields: { name: field.text() } }),
      colour: ask({ message: 'Your colour?', fields: { colour: field.text() } }),
    },
    final: ({ answers }) => ({ text: `${answers.name?.name} likes ${answers.colour?.colour}` }),
  });

const renameStep = (from: string, to: string): MachineMigrations[string] => ({
  to: '2',
  migrate: (s) => {
    // the step's state, the steps entered on the way (its trail) and its form's answers all carry its name
    const { [from]: answer = null, ...answers } = (s.context as { answers: JsonObject }).answers;
    const context = s.context as { trail: string[] } & JsonObject;
    return {
      ...s,
      value: s.value === from ? to : s.value,
      context: { ...context, trail: context.trail.map((step) => (step === from ? to : step)), answers: { ...answers, [to]: answer } },
    };
  },
});

const v2 = (migrations?: MachineMigrations) =>
  defineFlowTool({
    name: 'profile',
    description: 'Name and colour',
    input: z.object({}),
    version: '2',
    ...(migrations ? { migrations } : {}),
    steps: {
      name: ask({ message: 'Your name?', fields: { name: field.text() } }),
      favourite: ask({ message: 'Your favourite colour?', fields: { colour: field.text() } }),
    },
    final: ({ answers }) => ({ text: `${answers.name?.name} likes ${answers.favourite?.colour}` }),
  });

/** The state of a v1 conversation that has its name and asks for the colour. */
async function askingColour(): Promise<string> {
  const { call } = serve(v1());
  const first = asked(await call());
  const second = asked(await call(first.requestState, { name: accept({ name: 'Ada' }) }));
  expect(Object.keys(second.inputRequests)).toEqual(['colour']);
  return second.requestState;
}

describe('a declared flow with a version', () => {
  it('writes its version into the machine config that files and Stately get', () => {
    expect(flowMachineConfig(v1()).version).toBe('1');
    const prompt = defineFlowPrompt({
      name: 'note',
      description: 'A note',
      version: '7',
      steps: { text: ask({ message: 'Text?', fields: { text: field.text() } }) },
      final: ({ answers }) => [{ role: 'user', text: String(answers.text?.text) }],
    });
    expect(flowMachineConfig(prompt).version).toBe('7');
  });

  it('continues a state of the earlier version through its migration, asking the renamed step again', async () => {
    const state = await askingColour();
    const { call, logs } = serve(v2({ '1': renameStep('colour', 'favourite') }));
    // the answer to 'colour' was for a question this version no longer asks: it asks 'favourite' instead
    const again = asked(await call(state, { colour: accept({ colour: 'red' }) }));
    expect(Object.keys(again.inputRequests)).toEqual(['favourite']);
    expect(logs).toContainEqual(
      expect.objectContaining({ event: 'state_migrated', code: 'migrated', machine: 'profile', path: ['1', '2'] }),
    );
    const done = await call(again.requestState, { favourite: accept({ colour: 'red' }) });
    expect(done).toMatchObject({ type: 'complete', result: { content: [{ type: 'text', text: 'Ada likes red' }] } });
    expect(logs.filter((e) => e.level === 'error')).toEqual([]);
  });

  it('refuses a state of the earlier version as outdated when no migration leads from it', async () => {
    const state = await askingColour();
    const { call, logs } = serve(v2());
    const outcome = await call(state, { colour: accept({ colour: 'red' }) });
    expect(outcome).toMatchObject({ type: 'error', error: { code: -32602, data: { reason: 'outdated' } } });
    expect(logs).toContainEqual(expect.objectContaining({ event: 'state_rejected', code: 'no_migration' }));
  });

  it('refuses as outdated a state whose migration left the renamed step on the trail, rather than lose its answer', async () => {
    const state = await askingColour();
    const renameOnlyValueAndAnswers: MachineMigrations[string] = {
      to: '2',
      migrate: (s) => {
        const { colour = null, ...answers } = (s.context as { answers: JsonObject }).answers;
        return { ...s, value: 'favourite', context: { ...(s.context as JsonObject), answers: { ...answers, favourite: colour } } };
      },
    };
    const { call, logs } = serve(v2({ '1': renameOnlyValueAndAnswers }));
    const outcome = await call(state, { colour: accept({ colour: 'red' }) });
    expect(outcome).toMatchObject({ type: 'error', error: { code: -32602, data: { reason: 'outdated' } } });
    expect(logs).toContainEqual(
      expect.objectContaining({
        event: 'state_rejected',
        code: 'migration_failed',
        detail: expect.stringContaining(`context.trail names "colour"`),
      }),
    );
  });

  it('refuses migrations that do not lead to its version when it is defined', () => {
    expect(() => v2({ '1': { to: '3', migrate: (s) => s } })).toThrow(/the migrations from '1' end at '3'/);
  });
});
