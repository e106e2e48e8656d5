// The `ask` kind of step: one form named after the step (ask), or several asked in one round (askAll),
// each region of its own; each form a question of the engine, its check run before the answer is kept.
import { z } from 'zod';
import { isAsyncFunction } from './async-functions.ts';
import { checkConditionAt, checkLeave, checkName, checkProgress, checkTemplate } from './flow-checks.ts';
import type { AskStep, FormSpec } from './flow-spec.ts';
import { checkFirst, dropFailing, singleAskState } from './flow-states.ts';
import {
  act,
  guard,
  type Json,
  json,
  leaveTransitions,
  ruleTransitions,
  type StateBuilder,
  type StateConfig,
  type Transition,
  when,
  withGuard,
} from './flow-transitions.ts';
import { formQuestion } from './form-questions.ts';
import { checkingState } from './invoked-states.ts';
import { checkLoadedChoices, withChoiceCheck } from './loaded-choice.ts';
import type { StepKind } from './step-kind-types.ts';

/** Where a form's problems are: the step itself for `ask`, the form inside it for `askAll`. */
const formWhere = (step: AskStep, form: string): string[] => (step.form ? [] : [`form '${form}'`]);

/** Why a step's `progress` is never said when none of its checks is async, and the fix. */
export const NO_ASYNC_CHECK = {
  why: 'no check of this step is async, so it does no work the user waits for',
  fix: 'Remove progress, or declare the check that reads your store async: check: async ({ answer }) => ….',
};

/** One form's region of a parallel step: deciding whether to ask it, asking, (checking,) answered or skipped. */
function formRegion(b: StateBuilder, name: string, step: AskStep, form: string): Json {
  const spec = step.forms![form]!;
  const skipForm: Transition[] = [{ target: 'skipped', actions: [act('skipForm', { form })] }];
  const ask: Transition = { target: 'asking' };
  const checked = b.asyncCheck(form);
  // an async check runs in its own state; a kept answer (while reviewing) is checked there again
  const keep: Transition[] = checked
    ? [{ target: 'checking', guard: guard('keptAnswer', { form }), actions: [act('holdKept', { form })] }]
    : dropFailing(b, [form], 'asking');
  return json({
    initial: 'deciding',
    states: {
      deciding: {
        always: [
          ...keep,
          { target: 'answered', guard: guard('formAnsweredBefore', { form }) },
          ...(spec.if === undefined ? [ask] : [withGuard(ask, when(spec.if)), ...skipForm]),
        ],
      },
      asking: {
        meta: { ask: [form] },
        on: {
          [`${form}.accept`]: checked
            ? { target: 'checking', actions: [act('hold', { form })] }
            : [...checkFirst(b, form), { target: 'answered', actions: [act('store', { form })] }],
          [`${form}.decline`]: leaveTransitions(b, name, spec.onDecline ?? step.onDecline ?? 'end', 'declined', true, skipForm),
          [`${form}.cancel`]: leaveTransitions(b, name, spec.onCancel ?? step.onCancel ?? 'end', 'cancelled', true, skipForm),
        },
      },
      ...(checked ? { checking: checkingState(form, [{ target: 'answered', actions: [act('storeHeld', { form })] }], step.progress) } : {}),
      answered: { type: 'final' },
      skipped: { type: 'final' },
    },
  });
}

/** A step asking several forms in one round: one parallel region each. */
function parallelAskState(b: StateBuilder, name: string, step: AskStep, forms: readonly string[]): StateConfig {
  const rules = b.graph.rules.get(name)!;
  const regions: { [key: string]: Json } = {};
  for (const form of forms) regions[form] = formRegion(b, name, step, form);
  return {
    type: 'parallel',
    entry: [act('enterStep', { step: name })],
    states: regions,
    onDone: ruleTransitions(b, name, rules, false, []),
  } as StateConfig;
}

export const askKind: StepKind<AskStep> = {
  madeWith: 'ask({ … }), askAll({ forms })',
  changeable: true,

  collect(p, name, step, taken, steps) {
    const own = step.form ? ([[name, step.form]] as const) : Object.entries(step.forms ?? {});
    if (own.length === 0) p.add([], 'invalid_step', 'it asks no form.', 'Give askAll at least one form.');
    const forms = new Map<string, FormSpec>();
    const checks = new Map<string, unknown>();
    for (const [formName, spec] of own) {
      const where = formWhere(step, formName);
      if (!step.form && !checkName(p, where, formName, 'form')) continue;
      if (taken.has(formName) || forms.has(formName) || (!step.form && formName !== name && formName in steps)) {
        p.add(
          where,
          'invalid_step',
          `the name '${formName}' is used twice.`,
          'Give every step and form of a flow its own name: answers are kept under it.',
        );
        continue;
      }
      const fields = Object.entries(spec?.fields ?? {});
      if (fields.length === 0)
        p.add(where, 'invalid_step', 'it has no fields.', 'Give the form at least one field, e.g. { ok: field.boolean() }.');
      for (const [field, schema] of fields) {
        if (!(schema instanceof z.ZodType))
          p.add(
            [...where, `field '${field}'`],
            'invalid_step',
            'it is not a zod schema.',
            'Use field.text(), field.select({ … }) and the like.',
          );
      }
      if (spec?.check !== undefined && typeof spec.check !== 'function')
        p.add(where, 'invalid_step', 'its check is not a function.', 'Write check: ({ answer }) => reason or undefined.');
      if (step.form && spec.if !== undefined)
        p.add(where, 'invalid_step', "'if' is only for forms of askAll.", 'Choose whether to reach the step with next rules instead.');
      // an answer outside the loaded options is refused before the author's check sees it
      const checked = withChoiceCheck(spec);
      forms.set(formName, checked);
      checks.set(formName, checked?.check);
    }
    return { forms, answers: [...forms.keys()], checks };
  },

  check(p, f, { name, spec: step, forms, checks }, before) {
    checkLeave(p, ['onDecline'], step.onDecline, f.graph, name);
    checkLeave(p, ['onCancel'], step.onCancel, f.graph, name);
    const checksWait = [...checks.values()].some(isAsyncFunction);
    checkProgress(p, ['progress'], step.progress, checksWait ? undefined : NO_ASYNC_CHECK);
    for (const [form, spec] of forms) {
      const where = formWhere(step, form);
      checkTemplate(p, [...where, 'message'], spec.message, f.known, [], before);
      checkLoadedChoices(p, where, spec.fields ?? {}, before);
      if (spec.if !== undefined) checkConditionAt(p, [...where, 'if'], spec.if, f.known);
      if (!step.form) {
        checkLeave(p, [...where, 'onDecline'], spec.onDecline, f.graph, name);
        checkLeave(p, [...where, 'onCancel'], spec.onCancel, f.graph, name);
      }
    }
  },

  build: (b, { name, spec, answers }) => (spec.form ? singleAskState(b, name, spec) : parallelAskState(b, name, spec, answers)),

  questions: ({ forms }, _flow, fallback) =>
    Object.fromEntries([...forms].map(([form, spec]) => [form, formQuestion(form, spec, fallback)])),

  templates: ({ forms }) => Object.fromEntries([...forms].map(([form, spec]) => [form, spec.message])),

  reason({ forms }, form, { answer, ...seen }) {
    const check = forms.get(form)?.check;
    return check && answer ? check({ answer, ...seen }) : undefined;
  },
};
