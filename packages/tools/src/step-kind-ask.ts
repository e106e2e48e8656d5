// The `ask` kind of step: one form named after the step (ask), or several asked in one round (askAll).
import { z } from 'zod';
import { checkConditionAt, checkLeave, checkName, checkProgress, checkTemplate } from './flow-checks.ts';
import type { AskStep } from './flow-spec.ts';
import { parallelAskState, singleAskState } from './flow-states.ts';
import { isAsyncFunction } from './flow-work.ts';
import { checkLoadedChoices, withChoiceCheck } from './loaded-choice.ts';
import type { StepKind } from './step-kind-types.ts';

/** Where a form's problems are: the step itself for `ask`, the form inside it for `askAll`. */
const formWhere = (step: AskStep, form: string): string[] => (step.form ? [] : [`form '${form}'`]);

/** Why a step's `progress` is never said when none of its checks is async, and the fix. */
export const NO_ASYNC_CHECK = {
  why: 'no check of this step is async, so it does no work the user waits for',
  fix: 'Remove progress, or declare the check that reads your store async: check: async ({ answer }) => ….',
};

export const askKind: StepKind<AskStep> = {
  collect(p, name, step, parts, steps) {
    const own = step.form ? ([[name, step.form]] as const) : Object.entries(step.forms ?? {});
    if (own.length === 0) p.add([], 'invalid_step', 'it asks no form.', 'Give askAll at least one form.');
    const names: string[] = [];
    for (const [formName, spec] of own) {
      const where = formWhere(step, formName);
      if (!step.form && !checkName(p, where, formName, 'form')) continue;
      if (parts.forms.has(formName) || (!step.form && formName !== name && formName in steps)) {
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
      parts.forms.set(formName, { step: name, spec: checked });
      parts.checks.set(formName, checked?.check);
      names.push(formName);
    }
    parts.formsOfStep.set(name, names);
  },

  check(p, f, name, step, before) {
    checkLeave(p, ['onDecline'], step.onDecline, f.graph, name);
    checkLeave(p, ['onCancel'], step.onCancel, f.graph, name);
    const forms = f.parts.formsOfStep.get(name) ?? [];
    const checksWait = forms.some((form) => isAsyncFunction(f.parts.checks.get(form)));
    checkProgress(p, ['progress'], step.progress, checksWait ? undefined : NO_ASYNC_CHECK);
    for (const form of forms) {
      const spec = f.parts.forms.get(form)!.spec;
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

  build: (b, name, step) => (step.form ? singleAskState(b, name, step) : parallelAskState(b, name, step)),
};
