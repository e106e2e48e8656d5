// What a declared flow tells exporters and diagrams (the engine's presentation view, read by
// @roundtrip/visualize through presentationOf): its JSON config, the config as people see it, each
// question's message template and form fields, and each `when` condition in words.
import type { DefinitionPresentation } from '@roundtrip/engine';
import type { CompiledFlow } from './compiled-flow.ts';
import { type Condition, describeCondition } from './conditions.ts';
import { flowUserView } from './flow-user-view.ts';
import { fieldTitles } from './form-questions.ts';
import { kindOf } from './step-kinds.ts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A fresh copy of the flow's machine config (plain JSON by construction). */
export const configCopy = (compiled: CompiledFlow): Record<string, unknown> =>
  JSON.parse(JSON.stringify(compiled.config)) as Record<string, unknown>;

/** The message template of each question (forms, reviews and pages), by question key. */
export function questionTemplates(compiled: CompiledFlow): Record<string, string> {
  const templates: Record<string, string> = {};
  for (const step of compiled.steps.values()) Object.assign(templates, kindOf(step.spec).templates?.(step));
  return templates;
}

/** The titles of each form's fields, by question key (forms only: a review's choice and a page list none). */
export function questionFields(compiled: CompiledFlow): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [form, { spec }] of compiled.forms) fields[form] = fieldTitles(spec);
  return fields;
}

/** Every guard `condition` param in a config, by its JSON text, described (the flow's checks made each a Condition). */
function conditionsIn(config: unknown, out: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(config)) for (const item of config) conditionsIn(item, out);
  else if (isRecord(config)) {
    if (isRecord(config.params) && config.params.condition !== undefined) {
      const condition = config.params.condition;
      out[JSON.stringify(condition)] = describeCondition(condition as Condition);
    }
    for (const value of Object.values(config)) conditionsIn(value, out);
  }
  return out;
}

/** The presentation of a declared flow, fresh on each call. */
export function flowPresentation(compiled: CompiledFlow): DefinitionPresentation {
  const config = configCopy(compiled);
  return {
    config,
    userView: flowUserView(config),
    questionTemplates: questionTemplates(compiled),
    questionFields: questionFields(compiled),
    conditions: conditionsIn(config),
  };
}
