// The MRTR fixtures that are forms in a row, declared as flows: a confirmation whose state must come back
// untouched (A4, A12), two questions in two rounds (A6), and a prompt that asks before it renders (A9).
import { type PromptDefinition, safeText, type ToolDefinition } from '@roundtrip/engine';
import { ask, defineFlowPrompt, defineFlowTool, field } from '@roundtrip/tools';
import { z } from 'zod';

const NO_ARGUMENTS = z.object({});

/** One yes/no confirmation: its answer counts only with the sealed requestState it was asked with. */
const confirmStep = { confirm: ask({ message: 'Please confirm', fields: { ok: field.boolean() } }) };

const requestState = defineFlowTool({
  name: 'test_input_required_result_request_state',
  description: 'MRTR: asks for a confirmation; the answer counts only with the requestState it was asked with',
  input: NO_ARGUMENTS,
  annotations: { readOnlyHint: true },
  steps: confirmStep,
  final: ({ answers }) => ({ text: `state-ok: the requestState was verified; confirmed: ${answers.confirm?.ok === true ? 'yes' : 'no'}` }),
});

const tamperedState = defineFlowTool({
  name: 'test_input_required_result_tampered_state',
  description: 'MRTR: asks for a confirmation; a requestState changed on the way is refused with -32602',
  input: NO_ARGUMENTS,
  annotations: { readOnlyHint: true },
  steps: confirmStep,
  final: () => ({ text: 'integrity-ok: the requestState was verified' }),
});

const multiRound = defineFlowTool({
  name: 'test_input_required_result_multi_round',
  description: 'MRTR: asks a name, then a favourite colour in a second round, each with a new requestState',
  input: NO_ARGUMENTS,
  annotations: { readOnlyHint: true },
  steps: {
    step1: ask({ message: 'Step 1: What is your name?', fields: { name: field.text() } }),
    step2: ask({ message: 'Step 2: What is your favorite color?', fields: { color: field.text() } }),
  },
  final: ({ answers }) => ({
    text: `Multi-round complete: ${safeText(answers.step1?.name ?? 'someone')} likes ${safeText(answers.step2?.color ?? 'no colour')}`,
  }),
});

const contextPrompt = defineFlowPrompt({
  name: 'test_input_required_result_prompt',
  description: 'MRTR: asks what context to use before it renders',
  steps: { user_context: ask({ message: 'What context should the prompt use?', fields: { context: field.text() } }) },
  final: ({ answers }) => [{ role: 'user', text: `Use the following context: ${safeText(answers.user_context?.context ?? '')}` }],
});

export const flowTools: readonly ToolDefinition[] = [requestState, multiRound, tamperedState];
export const flowPrompts: readonly PromptDefinition[] = [contextPrompt];
