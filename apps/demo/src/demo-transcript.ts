// How the scripted demo writes the conversation for a person to read: scenes, requests, results, answers.

/** One round's result as the demo reads it, whatever the method: complete (tool, prompt, resource) or asking for input. */
export interface RoundResult {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params?: { mode?: string; message?: string; requestedSchema?: unknown } }>;
  requestState?: string;
  /** tools/call */
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** prompts/get */
  messages?: Array<{ role: string; content: { type: string; text?: string } }>;
  /** resources/read */
  contents?: Array<{ uri: string; mimeType?: string; text?: string }>;
}

/** What was asked for: `tools/call refund_order {"order_id":"ord_51"}`, `resources/read statement://…`. */
export interface RoundTarget {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The tool or prompt name, or the resource URI. */
  name: string;
  args?: Record<string, unknown>;
}

export interface Retry {
  inputResponses: Record<string, unknown>;
  requestState: string;
}

const INDENT = '  ';

export const say = (line = '', depth = 0) => process.stdout.write(`${INDENT.repeat(depth)}${line}\n`);

/** `rt1.eTbNZtVR…(231 chars)`: enough to recognise a state (format and key id), not the whole blob. */
function shortState(state: string): string {
  return state.length <= 16 ? JSON.stringify(state) : `${state.slice(0, 12)}…(${state.length} chars)`;
}

export function scene(number: number, title: string) {
  say();
  say(`── Scene ${number} · ${title} ${'─'.repeat(Math.max(3, 72 - title.length))}`);
}

/** The text of a tool result. */
export function textOf(result: RoundResult): string {
  return (result.content ?? []).map((block) => block.text ?? `[${block.type}]`).join('\n');
}

interface FieldSchema {
  type?: string;
  description?: string;
  enum?: string[];
  oneOf?: Array<{ const: string }>;
  anyOf?: Array<{ const: string }>;
  items?: FieldSchema;
}

/** The values a field may take (`low | medium | high`), or its type; a list's in brackets. */
function fieldKind(p: FieldSchema): string {
  const choices = p.enum ?? (p.oneOf ?? p.anyOf)?.map((o) => o.const);
  if (choices) return choices.join(' | ');
  return p.type === 'array' && p.items ? `[${fieldKind(p.items)}]` : (p.type ?? '?');
}

function describeFields(schema: unknown): string {
  const { properties = {}, required = [] } = (schema ?? {}) as { properties?: Record<string, FieldSchema>; required?: string[] };
  return Object.entries(properties)
    .map(
      ([name, p]) =>
        `${name}: ${fieldKind(p)}${required.includes(name) ? ', required' : ''}${p.description ? ` ("${p.description}")` : ''}`,
    )
    .join('; ');
}

export function printRequest(target: RoundTarget, retry?: Retry, stateNote = 'as it was handed') {
  say(`→ ${target.method} ${target.name}${target.args ? ` ${JSON.stringify(target.args)}` : ''}`, 1);
  if (retry) {
    say(`with inputResponses ${JSON.stringify(retry.inputResponses)}`, 3);
    say(`and requestState ${shortState(retry.requestState)} ${stateNote}`, 3);
  }
}

/** Prints a result; `brief` prints a tool result's text only. */
export function printResult(result: RoundResult, { brief = false } = {}) {
  if (result.resultType === 'input_required') {
    say('← input_required', 1);
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      // a message of several lines (a review's summary) keeps the indent
      const lines = (request.params?.message ?? '').split('\n');
      const message = lines.map((line, i) => (i === 0 || line === '' ? line : `${INDENT.repeat(4)}${line}`)).join('\n');
      say(`${key}: ${request.method} (${request.params?.mode ?? 'form'}) "${message}"`, 3);
      say(`fields: ${describeFields(request.params?.requestedSchema)}`, 4);
    }
    if (result.requestState !== undefined) say(`requestState: ${shortState(result.requestState)}`, 3);
    return;
  }
  if (result.messages) {
    say(`← complete: ${result.messages.length} message${result.messages.length === 1 ? '' : 's'}`, 1);
    for (const m of result.messages) say(`${m.role}: "${m.content.text ?? `[${m.content.type}]`}"`, 3);
    return;
  }
  if (result.contents) {
    for (const c of result.contents) {
      say(`← complete: ${c.uri} (${c.mimeType ?? 'no type'})`, 1);
      for (const line of (c.text ?? '').replace(/\n$/, '').split('\n')) say(line ? `│ ${line}` : '│', 3);
    }
    return;
  }
  say(`← ${result.isError ? 'complete, isError: true' : 'complete'}: ${textOf(result)}`, 1);
  if (result.structuredContent && !brief) say(`structuredContent ${JSON.stringify(result.structuredContent)}`, 3);
}

export function printAnswer(key: string, response: { action: string; content?: unknown }) {
  say(`✎ the user answers ${key}: ${response.action}${response.content === undefined ? '' : ` ${JSON.stringify(response.content)}`}`, 1);
}

export function printVerified(what: string) {
  say(`✓ ${what}`, 1);
}
