// Runs one offering: asks its arguments when none were given (the tool's input schema, the prompt's
// arguments, the template's variables, through the same form renderer), then calls the tool, gets the
// prompt or reads the resource. The questions the server asks on the way are answered by the client's
// elicitation handler; a tool call that answers a task is followed to its end (follow-task.ts).
import { type Client, type GetPromptResult, type ReadResourceResult, UriTemplate } from '@modelcontextprotocol/client';
import { REQUEST_TIMEOUT_MS } from './answer-wait.ts';
import { followTask } from './follow-task.ts';
import { type Field, readFields } from './form-fields.ts';
import type { Offering } from './offerings.ts';
import { type FormOutcome, renderForm } from './render-form.ts';
import { taskHandleOf } from './task-handle.ts';
import type { Terminal } from './terminal.ts';

type ToolResult = { content?: unknown[]; structuredContent?: unknown; isError?: boolean };

export type OfferingResult =
  | { kind: 'tool'; result: ToolResult }
  | { kind: 'prompt'; result: GetPromptResult }
  | { kind: 'resource'; result: ReadResourceResult };

/** The fields a person fills in to run the offering (none for a fixed resource). */
function argumentFields(offering: Offering): Field[] {
  switch (offering.kind) {
    case 'tool':
      return readFields(offering.inputSchema);
    case 'prompt':
      return offering.arguments.map((argument) => ({
        kind: 'text',
        key: argument.name,
        required: argument.required === true,
        ...(argument.description !== undefined && { description: argument.description }),
      }));
    case 'template':
      return new UriTemplate(offering.uriTemplate).variableNames.map((name) => ({ kind: 'text', key: name, required: true }));
    case 'resource':
      return [];
  }
}

/** Asks the offering's arguments at the terminal; accepts at once when it takes none. */
export async function askArguments(terminal: Terminal, offering: Offering, label: string): Promise<FormOutcome> {
  const fields = argumentFields(offering);
  if (fields.length === 0) return { action: 'accept', content: {} };
  return renderForm(terminal, `Arguments of ${label}`, fields, { canDecline: false });
}

/** Prompt arguments and template variables are strings on the wire. */
const asStrings = (args: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));

/** Calls the tool; a task it answers is followed at the terminal until it ends. */
async function callTool(client: Client, terminal: Terminal, name: string, args: Record<string, unknown>, signal: AbortSignal) {
  try {
    return (await client.callTool({ name, arguments: args }, { signal, timeout: REQUEST_TIMEOUT_MS })) as ToolResult;
  } catch (error) {
    const task = taskHandleOf(error);
    if (!task) throw error;
    return followTask(client, task, terminal, signal);
  }
}

/** Runs the offering with these arguments; rejects with the client's error (protocol error, closed connection, abort). */
export async function runOffering(
  client: Client,
  terminal: Terminal,
  offering: Offering,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<OfferingResult> {
  const options = { signal, timeout: REQUEST_TIMEOUT_MS };
  switch (offering.kind) {
    case 'tool':
      return { kind: 'tool', result: await callTool(client, terminal, offering.name, args, signal) };
    case 'prompt':
      return { kind: 'prompt', result: await client.getPrompt({ name: offering.name, arguments: asStrings(args) }, options) };
    case 'resource':
      return { kind: 'resource', result: await client.readResource({ uri: offering.uri }, { ...options, cacheMode: 'bypass' }) };
    case 'template': {
      const uri = new UriTemplate(offering.uriTemplate).expand(asStrings(args));
      return { kind: 'resource', result: await client.readResource({ uri }, { ...options, cacheMode: 'bypass' }) };
    }
  }
}
