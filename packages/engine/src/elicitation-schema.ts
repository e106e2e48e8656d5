import { z } from 'zod';
import { definitionError } from './definition-error.ts';
import type { ElicitationProperty, ElicitationSchema } from './wire-shapes.ts';

/** A zod object schema whose fields an elicitation form can express. */
export type AnswerSchema = z.ZodObject;

const STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
const ANNOTATIONS = ['title', 'description'] as const;
const FORMS_HOLD =
  'Forms hold flat strings, numbers, integers, booleans, string enums and arrays of string enums; split the question or ask for a string and parse it.';
const CHOICE_FIX =
  "Make every option a string literal, titled or not: z.union([z.literal('a').meta({ title: 'Option A' }), …]) or z.enum([…]).";

type JsonSchemaNode = Record<string, unknown>;
type TitledOption = { const: string; title: string };
/** What a union reads as: a choice of titled options, a choice with a problem, or no choice at all. */
type Choice = { kind: 'options'; options: TitledOption[] } | { kind: 'problem'; what: string } | { kind: 'none' };

/**
 * Turns a zod object schema into the restricted `requestedSchema` of a form elicitation (a flat object
 * of strings, numbers, booleans and string enums). Refuses, naming the field and the fix, any schema
 * a form cannot express. `where` is the problem's path (`["question 'z'"]`).
 *
 * A union of string literals, each optionally titled with `.meta({ title })`, becomes a titled select
 * (`oneOf` of `{ const, title }`; an array of it, a titled multi select with `items.anyOf`). An option
 * without a title is titled by its value.
 *
 * A `pattern` is left out of the form (forms have no regex) and enforced when the answer is checked.
 */
export function toElicitationSchema(schema: AnswerSchema, where: readonly string[]): ElicitationSchema {
  if (!(schema instanceof z.ZodObject)) {
    throw definitionError(
      where,
      'unexpressible_schema',
      'the answer schema is not a zod object.',
      'Use z.object({ … }) of strings, numbers, booleans and enums.',
    );
  }
  let json: JsonSchemaNode;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as JsonSchemaNode;
  } catch (error) {
    throw definitionError(
      where,
      'unexpressible_schema',
      `the answer schema cannot be written as JSON Schema (${(error as Error).message}).`,
      'Use strings, numbers, booleans and enums only.',
    );
  }
  const properties: Record<string, ElicitationProperty> = {};
  for (const [field, node] of Object.entries((json.properties ?? {}) as Record<string, JsonSchemaNode>)) {
    properties[field] = toProperty(field, node, where);
  }
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function toProperty(field: string, node: JsonSchemaNode, where: readonly string[]): ElicitationProperty {
  const refuse = (what: string, fix = FORMS_HOLD): never => {
    throw definitionError(where, 'unexpressible_schema', `field '${field}' is ${what}, which an elicitation form cannot express.`, fix);
  };
  const annotations: Record<string, unknown> = {};
  for (const key of ANNOTATIONS) if (typeof node[key] === 'string') annotations[key] = node[key];
  const allowOnly = (allowed: readonly string[]) => {
    for (const key of Object.keys(node)) {
      if (!allowed.includes(key) && !ANNOTATIONS.includes(key as (typeof ANNOTATIONS)[number]) && key !== 'pattern') {
        refuse(`constrained with '${key}'`);
      }
    }
  };
  const pick = (keys: readonly string[]) => Object.fromEntries(keys.filter((k) => node[k] !== undefined).map((k) => [k, node[k]]));
  const type = node.type;
  if (Array.isArray(type)) return refuse(`a union of ${type.join(' and ')}`);
  switch (type) {
    case 'boolean':
      allowOnly(['type', 'default']);
      return { type: 'boolean', ...annotations, ...pick(['default']) } as ElicitationProperty;
    case 'number':
    case 'integer': {
      allowOnly(['type', 'minimum', 'maximum', 'default']);
      const bounds = pick(['minimum', 'maximum', 'default']);
      // z.int() states the safe-integer range as bounds; a form shows no bound rather than ±9007199254740991
      if (bounds.minimum === Number.MIN_SAFE_INTEGER) delete bounds.minimum;
      if (bounds.maximum === Number.MAX_SAFE_INTEGER) delete bounds.maximum;
      return { type, ...annotations, ...bounds } as ElicitationProperty;
    }
    case 'string':
      if (Array.isArray(node.enum)) {
        allowOnly(['type', 'enum', 'default']);
        return { type: 'string', ...annotations, enum: node.enum as string[], ...pick(['default']) } as ElicitationProperty;
      }
      allowOnly(['type', 'minLength', 'maxLength', 'format', 'default']);
      if (node.format !== undefined && !STRING_FORMATS.has(String(node.format))) refuse(`a string of format '${String(node.format)}'`);
      return { type: 'string', ...annotations, ...pick(['minLength', 'maxLength', 'format', 'default']) } as ElicitationProperty;
    case 'array': {
      const items = (node.items ?? {}) as JsonSchemaNode;
      if (items.type === 'string' && Array.isArray(items.enum)) {
        allowOnly(['type', 'items', 'minItems', 'maxItems', 'default']);
        const plain = { type: 'string', enum: items.enum as string[] };
        return { type: 'array', ...annotations, items: plain, ...pick(['minItems', 'maxItems', 'default']) } as ElicitationProperty;
      }
      const choice = readChoice(items);
      if (choice.kind === 'none') return refuse('an array of something other than string enum values');
      if (choice.kind === 'problem') return refuse(`a multi select whose ${choice.what}`, CHOICE_FIX);
      allowOnly(['type', 'items', 'minItems', 'maxItems', 'default']);
      const stray = Object.keys(items).find((key) => !['anyOf', 'oneOf', ...ANNOTATIONS].includes(key));
      if (stray !== undefined) refuse(`a multi select whose options are constrained with '${stray}'`, CHOICE_FIX);
      const chosen = node.default;
      if (chosen !== undefined && (!Array.isArray(chosen) || !chosen.every((value) => offers(choice, value)))) {
        refuse(`a multi select whose default ${JSON.stringify(chosen)} is not a list of its options`, CHOICE_FIX);
      }
      return { type: 'array', ...annotations, items: { anyOf: choice.options }, ...pick(['minItems', 'maxItems', 'default']) };
    }
    case 'object':
      return refuse('a nested object');
    case undefined: {
      if (Array.isArray(node.enum)) return refuse('an enum of non-string values');
      const choice = readChoice(node);
      if (choice.kind === 'problem') return refuse(`a choice whose ${choice.what}`, CHOICE_FIX);
      if (choice.kind === 'none') return refuse('of no single primitive type (a union, literal or unknown)');
      allowOnly([Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf', 'default']);
      if (node.default !== undefined && !offers(choice, node.default)) {
        refuse(`a choice whose default ${JSON.stringify(node.default)} is not one of its options`, CHOICE_FIX);
      }
      return { type: 'string', ...annotations, oneOf: choice.options, ...pick(['default']) };
    }
    default:
      return refuse(`of type '${String(type)}'`);
  }
}

/** The members of a union (`anyOf` or `oneOf`), nested unions flattened; `undefined` when the node is no union. */
function unionMembers(node: JsonSchemaNode): JsonSchemaNode[] | undefined {
  const members = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  return (members as JsonSchemaNode[] | undefined)?.flatMap((member) => {
    const keys = Object.keys(member);
    return keys.length === 1 && (keys[0] === 'anyOf' || keys[0] === 'oneOf') ? (unionMembers(member) ?? [member]) : [member];
  });
}

/** Whether a choice offers this value. */
const offers = (choice: { options: TitledOption[] }, value: unknown) => choice.options.some((option) => option.const === value);

/** How one union member reads in a problem: "the literal 1", "any number", "null". */
function describeMember(member: JsonSchemaNode): string {
  if ('const' in member) return `the literal ${JSON.stringify(member.const)}`;
  if (member.type === 'null') return 'null';
  if (typeof member.type === 'string') return `any ${member.type}`;
  return 'of no single type';
}

/**
 * Reads a union of string literals (`{ type: 'string', const, title? }`, or a string enum among them) as
 * titled options, an option without a title titled by its value. A union with no string literal in it is
 * no choice (the caller refuses it as it would any union); one that mixes them with anything else, or
 * offers a value twice, is a choice with a problem.
 */
function readChoice(node: JsonSchemaNode): Choice {
  const members = unionMembers(node);
  const isString = (member: JsonSchemaNode) => member.type === 'string' && (typeof member.const === 'string' || Array.isArray(member.enum));
  if (members === undefined || !members.some(isString)) return { kind: 'none' };
  const options: TitledOption[] = [];
  for (const [index, member] of members.entries()) {
    const stray = Object.keys(member).find((key) => key !== 'type' && key !== 'const' && key !== 'enum' && key !== 'title');
    if (!isString(member)) return { kind: 'problem', what: `option ${index + 1} is ${describeMember(member)}` };
    if (stray !== undefined) return { kind: 'problem', what: `option ${index + 1} is constrained with '${stray}'` };
    if (typeof member.const === 'string') {
      options.push({ const: member.const, title: typeof member.title === 'string' ? member.title : member.const });
    } else {
      if (member.title !== undefined) return { kind: 'problem', what: `option ${index + 1} is a titled enum` };
      for (const value of member.enum as unknown[]) {
        if (typeof value !== 'string') return { kind: 'problem', what: `option ${index + 1} holds the value ${JSON.stringify(value)}` };
        options.push({ const: value, title: value });
      }
    }
  }
  const seen = new Set<string>();
  for (const option of options) {
    if (seen.has(option.const)) return { kind: 'problem', what: `options offer '${option.const}' twice` };
    seen.add(option.const);
  }
  return { kind: 'options', options };
}
