import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { field } from '../src/fields.ts';
import { askForm } from './form-round.ts';

/** The requested schema of the one field `f`, as the engine sends it. */
async function formOf(f: z.ZodType) {
  const { requestedSchema } = await askForm(z.object({ f }));
  return { property: requestedSchema.properties.f, required: requestedSchema.required?.includes('f') ?? false };
}

describe('field.text', () => {
  it('is a required string with no options', async () => {
    expect(await formOf(field.text())).toEqual({ property: { type: 'string' }, required: true });
  });

  it('carries title, description, lengths and a default; a default makes it optional', async () => {
    expect(
      await formOf(field.text({ title: 'Note', description: 'For the courier', minLength: 2, maxLength: 80, default: 'Ring twice' })),
    ).toEqual({
      property: { type: 'string', title: 'Note', description: 'For the courier', minLength: 2, maxLength: 80, default: 'Ring twice' },
      required: false,
    });
  });

  it.each([
    ['email', 'ada@example.com', 'not-an-email', 'Invalid email address'],
    ['uri', 'https://example.com/a', 'not a url', 'Invalid URL'],
    ['date', '2026-07-28', '28/07/2026', 'Invalid ISO date'],
    ['date-time', '2026-07-28T10:00:00+02:00', '2026-07-28 10:00', 'Invalid ISO datetime'],
  ] as const)('sends format %s and checks it when the answer arrives', async (format, good, bad, reason) => {
    const { requestedSchema, answer } = await askForm(z.object({ f: field.text({ format }) }));
    expect(requestedSchema.properties.f).toEqual({ type: 'string', format });
    expect(await answer({ f: bad })).toEqual({ reasked: `f: ${reason}` });
    const again = await askForm(z.object({ f: field.text({ format }) }));
    expect(await again.answer({ f: good })).toEqual({ accepted: { f: good } });
  });

  it('leaves an optional field out of required and accepts an answer without it', async () => {
    const { requestedSchema, answer } = await askForm(z.object({ f: field.text({ optional: true }) }));
    expect(requestedSchema).toEqual({ type: 'object', properties: { f: { type: 'string' } } });
    expect(await answer({})).toEqual({ accepted: {} });
  });

  it('fills in the default when the answer leaves the field out', async () => {
    const { answer } = await askForm(z.object({ f: field.text({ default: 'none' }) }));
    expect(await answer({})).toEqual({ accepted: { f: 'none' } });
  });
});

describe('field.number and field.integer', () => {
  it('sends bounds and a default', async () => {
    expect(await formOf(field.number({ title: 'Amount', min: 0.5, max: 99.5, default: 10 }))).toEqual({
      property: { type: 'number', title: 'Amount', minimum: 0.5, maximum: 99.5, default: 10 },
      required: false,
    });
  });

  it('sends an integer without zod’s safe-integer bounds unless bounds are given', async () => {
    expect(await formOf(field.integer())).toEqual({ property: { type: 'integer' }, required: true });
    expect(await formOf(field.integer({ min: 1, max: 9, description: 'Seats' }))).toEqual({
      property: { type: 'integer', description: 'Seats', minimum: 1, maximum: 9 },
      required: true,
    });
  });

  it('refuses a fraction for an integer and an answer out of bounds', async () => {
    const schema = z.object({ seats: field.integer({ min: 1, max: 9 }) });
    expect(await (await askForm(schema)).answer({ seats: 2.5 })).toEqual({
      reasked: 'seats: Invalid input: expected int, received number',
    });
    expect(await (await askForm(schema)).answer({ seats: 10 })).toEqual({ reasked: 'seats: Too big: expected number to be <=9' });
    expect(await (await askForm(schema)).answer({ seats: 3 })).toEqual({ accepted: { seats: 3 } });
  });
});

describe('field.boolean', () => {
  it('sends a required boolean unticked (default false), so "no" is sent as it is shown; a given default is a default', async () => {
    expect(await formOf(field.boolean())).toEqual({ property: { type: 'boolean', default: false }, required: true });
    expect(await formOf(field.boolean({ default: true }))).toEqual({ property: { type: 'boolean', default: true }, required: false });
    expect(await formOf(field.boolean({ optional: true }))).toEqual({ property: { type: 'boolean' }, required: false });
    expect(await formOf(field.boolean({ title: 'Gift wrap', default: false }))).toEqual({
      property: { type: 'boolean', title: 'Gift wrap', default: false },
      required: false,
    });
  });
});

describe('field.select', () => {
  it('sends a list of options as a plain enum', async () => {
    expect(await formOf(field.select({ options: ['low', 'high'], default: 'low' }))).toEqual({
      property: { type: 'string', enum: ['low', 'high'], default: 'low' },
      required: false,
    });
  });

  it('sends a record of value → title as a titled single select', async () => {
    expect(await formOf(field.select({ title: 'Plan', options: { free: 'Free', pro: 'Pro, billed monthly' } }))).toEqual({
      property: {
        type: 'string',
        title: 'Plan',
        oneOf: [
          { const: 'free', title: 'Free' },
          { const: 'pro', title: 'Pro, billed monthly' },
        ],
      },
      required: true,
    });
  });

  it.each([
    ['a list', ['low', 'high'] as const],
    ['a record', { low: 'Low', high: 'High' }],
  ])('with %s of options, accepts a value and refuses anything else the same way', async (_, options) => {
    const schema = z.object({ level: field.select({ options }) });
    expect(await (await askForm(schema)).answer({ level: 'high' })).toEqual({ accepted: { level: 'high' } });
    expect(await (await askForm(schema)).answer({ level: 'High' })).toEqual({
      reasked: 'level: Invalid option: expected one of "low"|"high"',
    });
  });
});

describe('field.multiSelect', () => {
  it('sends a list of options as an untitled multi select with item bounds', async () => {
    expect(await formOf(field.multiSelect({ options: ['gift', 'express'], min: 1, max: 2 }))).toEqual({
      property: { type: 'array', items: { type: 'string', enum: ['gift', 'express'] }, minItems: 1, maxItems: 2 },
      required: true,
    });
  });

  it('sends a record as a titled multi select, with its default', async () => {
    expect(
      await formOf(field.multiSelect({ options: { gift: 'Gift wrap', express: 'Express' }, default: ['gift'], description: 'Extras' })),
    ).toEqual({
      property: {
        type: 'array',
        description: 'Extras',
        items: {
          anyOf: [
            { const: 'gift', title: 'Gift wrap' },
            { const: 'express', title: 'Express' },
          ],
        },
        default: ['gift'],
      },
      required: false,
    });
  });

  it('accepts picked options and refuses an unknown one, too many, or one picked twice', async () => {
    const schema = z.object({
      extras: field.multiSelect({ options: { gift: 'Gift wrap', express: 'Express', insured: 'Insured' }, max: 2 }),
    });
    expect(await (await askForm(schema)).answer({ extras: ['express', 'gift'] })).toEqual({ accepted: { extras: ['express', 'gift'] } });
    expect(await (await askForm(schema)).answer({ extras: ['boxed'] })).toEqual({
      reasked: 'extras.0: Invalid option: expected one of "gift"|"express"|"insured"',
    });
    expect(await (await askForm(schema)).answer({ extras: ['gift', 'express', 'insured'] })).toEqual({
      reasked: 'extras: Too big: expected array to have <=2 items',
    });
    expect(await (await askForm(schema)).answer({ extras: ['gift', 'gift'] })).toEqual({
      reasked: 'extras: Pick each option at most once',
    });
  });
});

describe('answer types', () => {
  it('types a select as the union of its option values, from a list or a record', () => {
    const listed = z.object({ a: field.select({ options: ['x', 'y'] }) });
    expectTypeOf<z.output<typeof listed>>().toEqualTypeOf<{ a: 'x' | 'y' }>();
    const titled = z.object({ b: field.select({ options: { p: 'P', q: 'Q' }, default: 'q' }), n: field.select({ options: { 1: 'One' } }) });
    expectTypeOf<z.output<typeof titled>>().toEqualTypeOf<{ b: 'p' | 'q'; n: '1' }>();
  });

  it('types a multi select as an array of the option union', () => {
    const schema = z.object({
      a: field.multiSelect({ options: ['x', 'y'] }),
      b: field.multiSelect({ options: { p: 'P' }, optional: true }),
    });
    expectTypeOf<z.output<typeof schema>>().toEqualTypeOf<{ a: ('x' | 'y')[]; b?: 'p'[] | undefined }>();
  });

  it('makes optional fields optional, and defaulted fields present in the output but optional in the input', () => {
    const schema = z.object({
      text: field.text(),
      note: field.text({ optional: true }),
      count: field.integer({ default: 1 }),
      amount: field.number({ optional: false }),
      agree: field.boolean({ default: false }),
      maybe: field.text({ optional: Math.random() > 2 }),
    });
    expectTypeOf<z.output<typeof schema>>().toEqualTypeOf<{
      text: string;
      note?: string | undefined;
      count: number;
      amount: number;
      agree: boolean;
      maybe?: string | undefined;
    }>();
    expectTypeOf<z.input<typeof schema>>().toEqualTypeOf<{
      text: string;
      note?: string | undefined;
      count?: number | undefined;
      amount: number;
      agree?: boolean | undefined;
      maybe?: string | undefined;
    }>();
  });

  it('refuses a default that is not an option at compile time', () => {
    // @ts-expect-error 'z' is not an option
    expect(() => field.select({ options: ['x', 'y'], default: 'z' })).toThrow(TypeError);
    // @ts-expect-error 'z' is not an option
    expect(() => field.multiSelect({ options: { x: 'X' }, default: ['z'] })).toThrow(TypeError);
  });
});

describe('nonsense refused at build time', () => {
  it.each([
    ['min above max', () => field.number({ min: 5, max: 1 }), 'field.number: min (5) is greater than max (1). Swap them, or drop one.'],
    [
      'a bound that is no number',
      () => field.integer({ max: Number.NaN }),
      'field.integer: max is NaN, not a finite number. Give max a number or leave it out.',
    ],
    [
      'minLength above maxLength',
      () => field.text({ minLength: 9, maxLength: 3 }),
      'field.text: minLength (9) is greater than maxLength (3). Swap them, or drop one.',
    ],
    [
      'a negative length',
      () => field.text({ minLength: -1 }),
      'field.text: minLength is -1, not a whole number of at least 0. Give minLength a count.',
    ],
    [
      'a format a form cannot show',
      () => field.text({ format: 'uuid' as 'email' }),
      "field.text: format 'uuid' is not one a form can show. Use 'email', 'uri', 'date' or 'date-time', or leave it out.",
    ],
    [
      'a default outside the bounds',
      () => field.number({ min: 1, default: 0 }),
      'field.number: the default 0 is not a valid answer (Too small: expected number to be >=1). Change the default, or drop it.',
    ],
    [
      'a default of the wrong format',
      () => field.text({ format: 'email', default: 'nobody' }),
      'field.text: the default "nobody" is not a valid answer (Invalid email address). Change the default, or drop it.',
    ],
    [
      'both a default and optional',
      () => field.boolean({ default: true, optional: true }),
      'field.boolean: it has both a default and optional: true. A default already makes the field optional; drop optional.',
    ],
    ['an empty title', () => field.boolean({ title: ' ' }), 'field.boolean: title is " ". Give a title the user reads, or leave it out.'],
    ['empty options', () => field.select({ options: [] }), 'field.select: options is empty. Give at least one option.'],
    ['empty titled options', () => field.multiSelect({ options: {} }), 'field.multiSelect: options is empty. Give at least one option.'],
    [
      'an option listed twice',
      () => field.select({ options: ['a', 'b', 'a'] }),
      "field.select: option 'a' is listed twice. List each option once.",
    ],
    [
      'an option that is no string',
      () => field.select({ options: ['a', 2 as unknown as string] }),
      'field.select: option 2 is 2, not a string. Make every option a string.',
    ],
    [
      'an option without a title',
      () => field.select({ options: { a: 'A', b: '' } }),
      "field.select: option 'b' has no title. Give every option a title the user reads.",
    ],
    [
      'two options with one title',
      () => field.select({ options: { a: 'Same', b: 'Same' } }),
      "field.select: options 'a' and 'b' share the title 'Same'. Give each option its own title, so users can tell them apart.",
    ],
    [
      'a default that is not an option',
      () => field.select({ options: ['a', 'b'], default: 'c' as 'a' }),
      'field.select: the default "c" is not one of the options (a, b). Pick the default from the options.',
    ],
    [
      'a multi select default that is not an option',
      () => field.multiSelect({ options: ['a', 'b'], default: ['a', 'c' as 'a'] }),
      'field.multiSelect: the default holds "c", which is not one of the options (a, b). Pick the defaults from the options.',
    ],
    [
      'a multi select default with too many picks',
      () => field.multiSelect({ options: ['a', 'b'], max: 1, default: ['a', 'b'] }),
      'field.multiSelect: the default ["a","b"] is not a valid answer (Too big: expected array to have <=1 items). Change the default, or drop it.',
    ],
    [
      'a multi select min above its options',
      () => field.multiSelect({ options: ['a'], min: 2 }),
      'field.multiSelect: min (2) is more than the 1 options. Lower min, or add options.',
    ],
    [
      'a fractional multi select max',
      () => field.multiSelect({ options: ['a'], max: 1.5 }),
      'field.multiSelect: max is 1.5, not a whole number of at least 0. Give max a count.',
    ],
  ])('refuses %s', (_, build, message) => {
    expect(build).toThrow(new TypeError(message));
  });
});
