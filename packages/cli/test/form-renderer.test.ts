// The terminal form renderer and the elicitation answerer, in-process: scripted lines through a
// PassThrough stand in for the person.
import { PassThrough } from 'node:stream';
import type { ElicitRequest } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createElicitationAnswerer } from '../src/host/answer-elicitation.ts';
import { readFields } from '../src/host/form-fields.ts';
import { renderForm } from '../src/host/render-form.ts';
import { createTerminal } from '../src/host/terminal.ts';

/** Fills a form from `lines` (the input ends after them); resolves with the outcome and the screen. */
async function fill(schema: unknown, lines: string[], { canDecline = true, message = 'Tell me' } = {}) {
  const input = new PassThrough();
  let screen = '';
  const terminal = createTerminal({ input, output: { write: (t: string) => (screen += t) }, color: false });
  input.end(lines.map((line) => `${line}\n`).join(''));
  const outcome = await renderForm(terminal, message, readFields(schema), { canDecline });
  terminal.close();
  return { outcome, screen };
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

describe('the terminal form', () => {
  it('asks a text field with its title, description and length, and checks each format', async () => {
    const schema = object(
      {
        name: { type: 'string', title: 'Name', description: 'As on the passport', minLength: 2, maxLength: 5 },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
      },
      ['name', 'email', 'site', 'day', 'at'],
    );
    const { outcome, screen } = await fill(schema, [
      'A',
      'Adalbert',
      'Ada',
      'ada.example.com',
      'ada@example.com',
      'not a uri',
      'https://example.com/x',
      '2026-02-30',
      '2026-02-28',
      '2026-02-28 10:00',
      '2026-02-28T10:00+02:00',
    ]);
    expect(outcome).toEqual({
      action: 'accept',
      content: { name: 'Ada', email: 'ada@example.com', site: 'https://example.com/x', day: '2026-02-28', at: '2026-02-28T10:00+02:00' },
    });
    expect(screen).toContain('Tell me\n');
    expect(screen).toContain('  Name * (text, 2–5 characters)\n  As on the passport\n');
    expect(screen).toContain('✗ give at least 2 characters. Try again.');
    expect(screen).toContain('✗ give at most 5 characters. Try again.');
    expect(screen).toContain('✗ that is not an email address (name@example.com). Try again.');
    expect(screen).toContain('✗ that is not a URI');
    expect(screen).toContain('✗ that is not a date (YYYY-MM-DD). Try again.');
    expect(screen).toContain('✗ that is not a date and time');
  });

  it('checks numbers, whole numbers and their bounds, and reads yes and no', async () => {
    const schema = object(
      {
        price: { type: 'number', minimum: 0.5, maximum: 10 },
        nights: { type: 'integer', minimum: 1 },
        ok: { type: 'boolean' },
        more: { type: 'boolean' },
      },
      ['price', 'nights', 'ok', 'more'],
    );
    const { outcome, screen } = await fill(schema, ['cheap', '0.1', '11', '2.5', '1.5', '0', '3', 'maybe', 'Y', 'no']);
    expect(outcome).toEqual({ action: 'accept', content: { price: 2.5, nights: 3, ok: true, more: false } });
    expect(screen).toContain('(number, 0.5–10)');
    expect(screen).toContain('(whole number, at least 1)');
    for (const reason of [
      'that is not a number',
      'give at least 0.5',
      'give at most 10',
      'give a whole number',
      'give at least 1',
      'answer yes or no (y/n)',
    ]) {
      expect(screen).toContain(`✗ ${reason}.`);
    }
  });

  it('offers single selects (enum, titled oneOf, legacy enumNames) by number, value or title', async () => {
    const schema = object(
      {
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        tone: {
          type: 'string',
          title: 'Tone',
          oneOf: [
            { const: 'warm', title: 'Warm and friendly' },
            { const: 'dry', title: 'Dry' },
          ],
        },
        pet: { type: 'string', enum: ['cat', 'dog'], enumNames: ['A cat', 'A dog'] },
      },
      ['size', 'tone', 'pet'],
    );
    const { outcome, screen } = await fill(schema, ['xl', '4', 'm', 'warm and friendly', '2']);
    expect(outcome).toEqual({ action: 'accept', content: { size: 'm', tone: 'warm', pet: 'dog' } });
    expect(screen).toContain('    1) Warm and friendly  (warm)\n    2) Dry  (dry)\n');
    expect(screen).toContain('    1) A cat  (cat)\n    2) A dog  (dog)\n');
    expect(screen).toContain('✗ pick one of 1–3, by number or value. Try again.');
  });

  it('offers multi selects (items.enum, titled items.anyOf) with their bounds', async () => {
    const schema = object(
      {
        toppings: { type: 'array', items: { type: 'string', enum: ['ham', 'egg', 'olive'] }, minItems: 1, maxItems: 2 },
        days: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'mon', title: 'Monday' },
              { const: 'tue', title: 'Tuesday' },
            ],
          },
        },
      },
      ['toppings', 'days'],
    );
    const { outcome, screen } = await fill(schema, ['-', '1,2,3', 'bacon', 'egg, 1', 'Tuesday,mon,2']);
    expect(outcome).toEqual({ action: 'accept', content: { toppings: ['egg', 'ham'], days: ['tue', 'mon'] } });
    expect(screen).toContain('1–2 of them');
    expect(screen).toContain('✗ pick at least 1.');
    expect(screen).toContain('✗ pick at most 2.');
    expect(screen).toContain("✗ 'bacon' is not one of the options");
  });

  it('keeps defaults on Enter, skips optional fields, and insists on required ones', async () => {
    const schema = object(
      {
        nights: { type: 'integer', default: 3 },
        ok: { type: 'boolean', default: true },
        tone: { type: 'string', oneOf: [{ const: 'warm', title: 'Warm' }], default: 'warm' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'] },
        note: { type: 'string' },
        name: { type: 'string' },
      },
      ['name'],
    );
    const { outcome, screen } = await fill(schema, ['', '', '', '', '', '', 'Ada']);
    expect(outcome).toEqual({ action: 'accept', content: { nights: 3, ok: true, tone: 'warm', tags: ['b'], name: 'Ada' } });
    expect(screen).toContain('(whole number) [3]');
    expect(screen).toContain('(y/n) [yes]');
    expect(screen).toContain('[Warm]');
    expect(screen).toContain('(text, optional)');
    expect(screen).toContain('✗ this field is required. Try again.');
  });

  it('prints the message of a re-ask, with the reason, before the fields', async () => {
    const message = "Your last answer was not accepted: 'Atlantis' is not on the map. Please answer again.\nWhere to?";
    const { screen } = await fill(object({ city: { type: 'string' } }, ['city']), ['Rome'], { message });
    expect(screen.indexOf('not on the map')).toBeLessThan(screen.indexOf('city *'));
  });

  it('declines or cancels at any field, and on Ctrl-D; an argument form cannot be declined', async () => {
    const schema = object({ a: { type: 'string' }, b: { type: 'string' } }, ['a', 'b']);
    expect((await fill(schema, ['x', ':decline'])).outcome).toEqual({ action: 'decline' });
    expect((await fill(schema, [':cancel'])).outcome).toEqual({ action: 'cancel' });
    expect((await fill(schema, ['x'])).outcome).toEqual({ action: 'cancel' });
    const args = await fill(schema, [':decline', ':cancel'], { canDecline: false });
    expect(args.outcome).toEqual({ action: 'cancel' });
    expect(args.screen).toContain('there is nothing to decline here: :cancel stops');
    expect(args.screen).toContain(':cancel (or Ctrl-C) stops');
  });

  it('asks to accept a form without fields, and takes ::text as a value starting with a colon', async () => {
    expect((await fill(object({}), ['', 'x'])).outcome).toEqual({ action: 'accept', content: {} });
    expect((await fill(object({}), [':decline'])).outcome).toEqual({ action: 'decline' });
    expect((await fill(object({ s: { type: 'string' } }), ['::cancel'])).outcome).toEqual({ action: 'accept', content: { s: ':cancel' } });
  });

  it('takes JSON for what a form cannot show (a tool argument that is an object)', async () => {
    const { outcome, screen } = await fill(object({ where: { type: 'object' } }, ['where']), ['{bad', '{"lat":1}']);
    expect(outcome).toEqual({ action: 'accept', content: { where: { lat: 1 } } });
    expect(screen).toContain('✗ that is not JSON');
  });
});

describe('the elicitation answerer', () => {
  function answerer(lines: string[]) {
    const input = new PassThrough();
    const screen = { text: '' };
    const terminal = createTerminal({ input, output: { write: (t: string) => (screen.text += t) }, color: false });
    input.end(lines.map((line) => `${line}\n`).join(''));
    return { answer: createElicitationAnswerer(terminal), screen, close: () => terminal.close() };
  }
  const url = (message: string): ElicitRequest => ({
    method: 'elicitation/create',
    params: { mode: 'url', message, url: 'https://example.com/pay', elicitationId: 'e1' },
  });
  const form = (message: string, key: string): ElicitRequest => ({
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { [key]: { type: 'string' } }, required: [key] } },
  });

  it('shows a URL question with its page; Enter accepts, :decline refuses, Ctrl-D cancels', async () => {
    const { answer, screen, close } = answerer(['later', '', ':decline']);
    expect(await answer(url('Pay the invoice'))).toEqual({ action: 'accept' });
    expect(await answer(url('Pay again'))).toEqual({ action: 'decline' });
    expect(await answer(url('And again'))).toEqual({ action: 'cancel' });
    close();
    expect(screen.text).toContain('Pay the invoice\n  Open this page: https://example.com/pay\n');
    expect(screen.text).toContain('✗ press Enter alone when you are done.');
  });

  it('asks questions that arrive together one after the other, each with its own answer', async () => {
    const { answer, screen, close } = answerer(['first', 'second']);
    const [a, b] = await Promise.all([answer(form('Question A', 'a')), answer(form('Question B', 'b'))]);
    close();
    expect(a).toEqual({ action: 'accept', content: { a: 'first' } });
    expect(b).toEqual({ action: 'accept', content: { b: 'second' } });
    expect(screen.text.indexOf('Question B')).toBeGreaterThan(screen.text.indexOf('> first'));
  });
});
