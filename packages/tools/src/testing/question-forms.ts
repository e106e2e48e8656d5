// What the engine knows of a declared flow's questions: for each key, the form it sends (the
// elicitation requestedSchema) and the zod schema an answer is checked against; and how it reads the
// arguments. Read from the engine's public view of the definition (describeDefinition).
import { type AnswerSchema, describeDefinition, type ElicitationProperty, type ElicitationSchema } from '@roundtrip/engine';
import { z } from 'zod';
import { choiceOptions, loadedChoices } from '../loaded-choice.ts';

/** One question of a definition, as the engine asks and checks it. */
export interface QuestionForm {
  readonly key: string;
  /** The form sent to the client. */
  readonly requestedSchema: ElicitationSchema;
  /** What an accepted answer must satisfy (the engine's own check). */
  readonly schema: AnswerSchema;
}

export interface DefinitionForms {
  /** `Tool 'book_meeting'`: how messages name the definition. */
  readonly owner: string;
  readonly questions: ReadonlyMap<string, QuestionForm>;
  /** The arguments as the machine receives them (defaults applied); throws on invalid arguments. */
  readonly parseInput: (input: Record<string, unknown>) => Record<string, unknown>;
}

/** The questions and the argument parser of a definition made by defineFlowTool, defineFlowPrompt or defineFlowResource. */
export function definitionForms(definition: object): DefinitionForms {
  const view = describeDefinition(definition);
  const questions = new Map<string, QuestionForm>();
  for (const question of view.questions) {
    questions.set(question.key, { key: question.key, requestedSchema: question.requestedSchema, schema: question.schema });
  }
  const parseInput = (input: Record<string, unknown>) => {
    const parsed = view.arguments.safeParse(input);
    if (!parsed.success) {
      const reasons = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
      throw new TypeError(`conversationsOf: the input does not fit ${view.owner} (${reasons}). Pass its arguments as options.input.`);
    }
    return parsed.data as Record<string, unknown>;
  };
  return { owner: view.owner, questions, parseInput };
}

/**
 * The question as asked over these values: each choice among loaded items a select of the items loaded
 * (the question itself when it has none, or nothing is loaded there yet).
 */
export function withLoadedChoices(question: QuestionForm, values: Record<string, unknown>): QuestionForm {
  const shape = question.schema instanceof z.ZodObject ? (question.schema.shape as Record<string, unknown>) : {};
  const choices = loadedChoices(shape);
  if (choices.length === 0) return question;
  const properties: Record<string, ElicitationProperty> = { ...question.requestedSchema.properties };
  for (const [field, choice] of choices) {
    try {
      const oneOf = choiceOptions(field, choice, values);
      const { minLength: _min, maxLength: _max, format: _format, ...rest } = properties[field] as Record<string, unknown>;
      properties[field] = { ...rest, oneOf } as ElicitationProperty;
    } catch {
      // nothing loaded there on this way: the field stays as compiled
    }
  }
  return { ...question, requestedSchema: { ...question.requestedSchema, properties } };
}
