// The forms of a declared flow's steps, by name, each checked: its name, fields and check.
import { z } from 'zod';
import { checkName, type Problems } from './flow-checks.ts';
import type { FormSpec, StepSpec } from './flow-spec.ts';

/** Collects each step's forms, checking names, fields and messages. */
export function collectForms(p: Problems, steps: Readonly<Record<string, StepSpec>>) {
  const forms = new Map<string, { step: string; spec: FormSpec }>();
  const formsOfStep = new Map<string, string[]>();
  for (const [name, step] of Object.entries(steps)) {
    const where = `step '${name}'`;
    checkName(p, where, name, 'step');
    if (step?.kind === 'review' || step?.kind === 'load') {
      formsOfStep.set(name, []);
      continue;
    }
    if (step?.kind === 'page') {
      // its answer (an empty accept) is kept under its name, like a form's
      formsOfStep.set(name, [name]);
      if (step.check !== undefined && typeof step.check !== 'function')
        p.add(where, 'invalid_step', 'its check is not a function.', 'Write check: ({ input, answers }) => reason or undefined.');
      continue;
    }
    if (step?.kind !== 'ask') {
      p.add(
        where,
        'invalid_step',
        'it is not a step.',
        'Build each step with ask({ … }), askAll({ forms }), review({ … }), openPage({ … }) or load({ … }).',
      );
      continue;
    }
    const own = step.form ? ([[name, step.form]] as const) : Object.entries(step.forms ?? {});
    if (own.length === 0) p.add(where, 'invalid_step', 'it asks no form.', 'Give askAll at least one form.');
    const names: string[] = [];
    for (const [formName, spec] of own) {
      const formWhere = step.form ? where : `${where} › form '${formName}'`;
      if (!step.form && !checkName(p, formWhere, formName, 'form')) continue;
      if (forms.has(formName) || (!step.form && formName !== name && formName in steps)) {
        p.add(
          formWhere,
          'invalid_step',
          `the name '${formName}' is used twice.`,
          'Give every step and form of a flow its own name: answers are kept under it.',
        );
        continue;
      }
      const fields = Object.entries(spec?.fields ?? {});
      if (fields.length === 0)
        p.add(formWhere, 'invalid_step', 'it has no fields.', 'Give the form at least one field, e.g. { ok: field.boolean() }.');
      for (const [field, schema] of fields) {
        if (!(schema instanceof z.ZodType))
          p.add(
            `${formWhere} › field '${field}'`,
            'invalid_step',
            'it is not a zod schema.',
            'Use field.text(), field.select({ … }) and the like.',
          );
      }
      if (spec?.check !== undefined && typeof spec.check !== 'function')
        p.add(formWhere, 'invalid_step', 'its check is not a function.', 'Write check: ({ answer }) => reason or undefined.');
      if (step.form && spec.if !== undefined)
        p.add(formWhere, 'invalid_step', "'if' is only for forms of askAll.", 'Choose whether to reach the step with next rules instead.');
      forms.set(formName, { step: name, spec });
      names.push(formName);
    }
    formsOfStep.set(name, names);
  }
  return { forms, formsOfStep };
}
