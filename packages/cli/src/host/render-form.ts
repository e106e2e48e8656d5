// A form asked at the terminal, one field after the other: the message first (a re-ask carries the
// server's reason in it), then each field with its title, description, what fits and its default.
// A bad value is asked again with the reason; Enter keeps the default or skips an optional field;
// `:decline`, `:cancel`, Ctrl-D and Ctrl-C (told apart: it interrupts the command) leave the form at any field. What the server wrote (message,
// titles, descriptions, options) is shown escaped.
import { displayLine, displayText } from './display-text.ts';
import { fieldHint, parseAnswer, showValue } from './field-answer.ts';
import type { Field } from './form-fields.ts';
import type { Terminal } from './terminal.ts';

export type FormOutcome =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' }
  /** Ctrl-C: the question is cancelled and the command interrupted. */
  | { action: 'interrupted' };

export interface FormOptions {
  /** Whether the person may decline (an elicitation); a form of arguments can only be cancelled. */
  readonly canDecline: boolean;
}

export const DECLINE = ':decline';
export const CANCEL = ':cancel';
const PROMPT = '  > ';

/** The line telling the person how to leave the form, shown once above the fields. */
function formHelp({ canDecline }: FormOptions): string {
  const leave = canDecline ? `${DECLINE} refuses, ${CANCEL} (or Ctrl-C) stops` : `${CANCEL} (or Ctrl-C) stops`;
  return `Enter keeps the [default] or skips an optional field; ${leave}.`;
}

function header(terminal: Terminal, field: Field): void {
  const { bold, dim } = terminal.style;
  const shown = field.default === undefined ? '' : ` [${displayLine(showValue(field, field.default))}]`;
  terminal.say(`\n  ${bold(displayLine(field.title ?? field.key))}${field.required ? ' *' : ''} ${dim(`(${fieldHint(field)})`)}${shown}\n`);
  if (field.description) terminal.say(`  ${dim(displayText(field.description))}\n`);
  if (field.kind === 'choice' || field.kind === 'choices') {
    field.options.forEach((option, i) => {
      const value = option.title === option.value ? '' : dim(`  (${displayLine(option.value)})`);
      terminal.say(`    ${i + 1}) ${displayLine(option.title)}${value}\n`);
    });
  }
}

type FieldStep = { kind: 'value'; value: unknown } | { kind: 'skip' } | { kind: 'leave'; action: 'decline' | 'cancel' | 'interrupted' };

async function askField(terminal: Terminal, field: Field, options: FormOptions): Promise<FieldStep> {
  header(terminal, field);
  for (;;) {
    const answer = await terminal.ask(PROMPT);
    if (answer.kind === 'interrupt') return { kind: 'leave', action: 'interrupted' };
    if (answer.kind !== 'line') return { kind: 'leave', action: 'cancel' };
    const line = answer.text;
    const command = line.trim();
    if (command === CANCEL) return { kind: 'leave', action: 'cancel' };
    if (command === DECLINE && options.canDecline) return { kind: 'leave', action: 'decline' };
    let reason: string;
    if (command === DECLINE) reason = `there is nothing to decline here: ${CANCEL} stops`;
    else if (command === '') {
      if (field.default !== undefined) return { kind: 'value', value: field.default };
      if (!field.required) return { kind: 'skip' };
      reason = 'this field is required';
    } else {
      // `::text` stands for a value that starts with a colon
      const parsed = parseAnswer(field, line.startsWith('::') ? line.slice(1) : line);
      if (parsed.ok) return { kind: 'value', value: parsed.value };
      reason = parsed.reason;
    }
    terminal.say(`  ${terminal.style.red(`✗ ${displayLine(reason)}.`)} Try again.\n`);
  }
}

/** Asks every field of a form; resolves with the content, or with how the person left it. */
export async function renderForm(
  terminal: Terminal,
  message: string | undefined,
  fields: readonly Field[],
  options: FormOptions,
): Promise<FormOutcome> {
  const { bold, dim } = terminal.style;
  if (message) terminal.say(`\n${bold(displayText(message))}\n`);
  terminal.say(`${dim(formHelp(options))}\n`);
  if (fields.length === 0) {
    // nothing to fill in: the answer is yes or no
    for (;;) {
      const answer = await terminal.ask(`  Press Enter to accept${options.canDecline ? `, ${DECLINE} to refuse` : ''}: `);
      if (answer.kind === 'interrupt') return { action: 'interrupted' };
      if (answer.kind !== 'line' || answer.text.trim() === CANCEL) return { action: 'cancel' };
      if (answer.text.trim() === DECLINE && options.canDecline) return { action: 'decline' };
      if (answer.text.trim() === '') return { action: 'accept', content: {} };
      terminal.say(`  ${terminal.style.red('✗ press Enter alone to accept.')} Try again.\n`);
    }
  }
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const step = await askField(terminal, field, options);
    if (step.kind === 'leave') {
      terminal.say(`  ${dim({ decline: 'Declined.', cancel: 'Cancelled.', interrupted: 'Interrupted.' }[step.action])}\n`);
      return { action: step.action };
    }
    if (step.kind === 'value') content[field.key] = step.value;
  }
  return { action: 'accept', content };
}
