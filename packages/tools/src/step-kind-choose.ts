// The `choose` kind of step: one select question whose answer picks the step that follows (each option
// names its `next`). Its answer is kept under the step's name as `{ choice }`, a form of one field, so
// conditions, messages, the review (by the option's label) and the final action read it like a form's;
// an answer outside the options is refused by its schema and asked again.
import { field } from './fields.ts';
import { checkLeave, checkTemplate, type FlowProblems } from './flow-checks.ts';
import { FINISH } from './flow-graph.ts';
import type { ChoiceOption, ChooseStep, FormSpec } from './flow-spec.ts';
import { singleAskState } from './flow-states.ts';
import { formQuestion } from './form-questions.ts';
import type { StepKind } from './step-kind-types.ts';

/** The field of a choice's form: its answer is `{ choice: <option> }`. */
const CHOICE = 'choice';
const DEFAULT_TITLE = 'Your choice';

/** The options as written (none when `options` is not an object). */
const optionsOf = (step: ChooseStep): Array<[string, Partial<ChoiceOption> | undefined]> =>
  typeof step.options === 'object' && step.options !== null ? Object.entries(step.options) : [];

const isLabel = (label: unknown): label is string => typeof label === 'string' && label.trim() !== '';

/**
 * The select of the step's form: the options titled by their labels (by their values where a label is
 * missing or shared, which its check reports), or none without options.
 */
function choiceForm(step: ChooseStep): FormSpec | undefined {
  const options = optionsOf(step);
  if (options.length === 0) return undefined;
  const title = step.title ?? DEFAULT_TITLE;
  let select: FormSpec['fields'][string];
  try {
    select = field.select({
      title,
      options: Object.fromEntries(options.map(([value, o]) => [value, isLabel(o?.label) ? o.label : value])),
    });
  } catch {
    select = field.select({ title, options: options.map(([value]) => value) });
  }
  return { message: step.message, fields: { [CHOICE]: select }, ...(step.fallback !== undefined && { fallback: step.fallback }) };
}

/** Each option's label and step: a label the user can tell apart, and a step (or 'finish') to go to. */
function checkOptions(p: FlowProblems, step: ChooseStep, steps: Readonly<Record<string, unknown>>): void {
  const options = optionsOf(step);
  const example = "options: { basic: { label: 'Basic', next: 'billing' }, pro: { label: 'Pro', next: 'sales' } }";
  if (options.length < 2) {
    p.add(
      ['options'],
      'invalid_step',
      options.length === 0 ? 'it offers no options.' : `it offers one option ('${options[0]![0]}'), so there is nothing to choose.`,
      `Give it at least two options, each with its label and the step it goes to: ${example}.`,
    );
  }
  const labels = new Map<string, string>();
  for (const [value, option] of options) {
    const where = [`option '${value}'`];
    if (!isLabel(option?.label))
      p.add(
        [...where, 'label'],
        'invalid_step',
        'it has no label.',
        "Give every option the text the user reads: { label: 'Pro', next: … }.",
      );
    else if (labels.has(option.label))
      p.add(
        [...where, 'label'],
        'invalid_step',
        `options '${labels.get(option.label)}' and '${value}' share the label '${option.label}'.`,
        'Give each option its own label, so users can tell them apart.',
      );
    else labels.set(option.label, value);
    const next = option?.next;
    if (typeof next !== 'string' || (next !== FINISH && !Object.hasOwn(steps, next)))
      p.add(
        [...where, 'next'],
        'invalid_step',
        typeof next === 'string' ? `it goes to '${next}', which is not a step.` : 'it names no step to go to.',
        `Go to one of: ${[...Object.keys(steps), FINISH].join(', ')}.`,
      );
  }
}

export const chooseKind: StepKind<ChooseStep> = {
  madeWith: 'choose({ message, options })',
  changeable: true,

  // an option's rule tests the answer; the last one needs no test (the select admits only the options)
  rules(name, step) {
    const options = optionsOf(step);
    if (options.length === 0) return undefined;
    return options.map(([value, option], i) => {
      const goto = String(option?.next);
      return i === options.length - 1 ? { goto } : { if: { [`${name}.${CHOICE}`]: { eq: value } }, goto };
    });
  },

  collect(_p, name, step) {
    const form = choiceForm(step);
    return { forms: new Map(form ? [[name, form]] : []), answers: form ? [name] : [], checks: new Map() };
  },

  check(p, f, { name, spec: step }, before) {
    for (const leave of ['onDecline', 'onCancel'] as const) {
      if ((step[leave] as string | undefined) === 'skip')
        p.add(
          [leave],
          'invalid_step',
          "'skip' would go on without a choice, and the choice is what picks the next step.",
          `Write ${leave}: 'end' (the default) or 'back'.`,
        );
      else checkLeave(p, [leave], step[leave], f.graph, name);
    }
    checkTemplate(p, ['message'], step.message, f.known, [], before);
    checkOptions(p, step, f.steps);
  },

  build: (b, { name, spec }) => singleAskState(b, name, spec),

  questions: ({ name, forms }, _flow, fallback) => ({ [name]: formQuestion(name, forms.get(name)!, fallback) }),

  templates: ({ name, spec }) => ({ [name]: spec.message }),
};
