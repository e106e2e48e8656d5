// How the scripted demo writes the conversation for a person to read: scenes, calls, results, answers.

/** A tools/call result as the demo reads it, whether it completed or asks for input. */
export interface ToolRoundResult {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params?: { mode?: string; message?: string; requestedSchema?: unknown } }>;
  requestState?: string;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const INDENT = '  ';

export const say = (line = '', depth = 0) => process.stdout.write(`${INDENT.repeat(depth)}${line}\n`);

/** `rt1.eTbNZtVR…(231 chars)`: enough to recognise a state (format and key id), not the whole blob. */
export function shortState(state: string): string {
  return state.length <= 16 ? JSON.stringify(state) : `${state.slice(0, 12)}…(${state.length} chars)`;
}

export function scene(number: number, title: string) {
  say();
  say(`── Scene ${number} · ${title} ${'─'.repeat(Math.max(3, 72 - title.length))}`);
}

export function textOf(result: ToolRoundResult): string {
  return (result.content ?? []).map((block) => block.text ?? `[${block.type}]`).join('\n');
}

function describeFields(schema: unknown): string {
  const { properties = {}, required = [] } = (schema ?? {}) as { properties?: Record<string, { type?: string; description?: string }>; required?: string[] };
  return Object.entries(properties)
    .map(([name, p]) => `${name}: ${p.type ?? '?'}${required.includes(name) ? ', required' : ''}${p.description ? ` ("${p.description}")` : ''}`)
    .join('; ');
}

export function printCall(tool: string, args: Record<string, unknown>, retry?: { inputResponses: Record<string, unknown>; requestState: string }, stateNote = 'as it was handed') {
  say(`→ tools/call ${tool} ${JSON.stringify(args)}`, 1);
  if (retry) {
    say(`with inputResponses ${JSON.stringify(retry.inputResponses)}`, 3);
    say(`and requestState ${shortState(retry.requestState)} ${stateNote}`, 3);
  }
}

export function printResult(result: ToolRoundResult) {
  if (result.resultType === 'input_required') {
    say('← input_required', 1);
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
      say(`${key}: ${request.method} (${request.params?.mode ?? 'form'}) "${request.params?.message ?? ''}"`, 3);
      say(`fields: ${describeFields(request.params?.requestedSchema)}`, 4);
    }
    if (result.requestState !== undefined) say(`requestState: ${shortState(result.requestState)}`, 3);
    return;
  }
  say(`← ${result.isError ? 'complete, isError: true' : 'complete'}: ${textOf(result)}`, 1);
  if (result.structuredContent) say(`structuredContent ${JSON.stringify(result.structuredContent)}`, 3);
}

export function printAnswer(key: string, response: { action: string; content?: unknown }) {
  say(`✎ the user answers ${key}: ${response.action}${response.content === undefined ? '' : ` ${JSON.stringify(response.content)}`}`, 1);
}

export function printVerified(what: string) {
  say(`✓ ${what}`, 1);
}
