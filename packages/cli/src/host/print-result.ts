// The result of a call as the command prints it on stdout: text as is (controls escaped, new lines
// kept), structured content as indented JSON, prompt messages with their role, resource contents with
// their URI. A tool result marked isError is headed as an error (and the command exits 1).
import { displayJson, displayLine, displayText } from './display-text.ts';
import type { OfferingResult } from './run-offering.ts';

type Block = { type?: string; text?: string; mimeType?: string; data?: string; uri?: string; name?: string; resource?: Contents };
type Contents = { uri?: string; mimeType?: string; text?: string; blob?: string };

const bytes = (base64: string | undefined) => Math.floor(((base64 ?? '').length * 3) / 4);

function contentsText(contents: Contents): string {
  const head = `[${displayLine(contents.uri ?? 'resource')}${contents.mimeType ? ` ${displayLine(contents.mimeType)}` : ''}]`;
  return typeof contents.text === 'string'
    ? `${head}\n${displayText(contents.text)}`
    : `${head} ${bytes(contents.blob)} bytes of binary data`;
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return displayText(block.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type} ${displayLine(block.mimeType ?? '')}, ${bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[link ${displayLine(block.uri ?? '')}${block.name ? ` ${displayLine(block.name)}` : ''}]`;
    case 'resource':
      return block.resource ? contentsText(block.resource) : '[resource]';
    default:
      return displayJson(block);
  }
}

/** The result as text for stdout, and whether it is an error. */
export function formatResult(outcome: OfferingResult): { text: string; isError: boolean } {
  const lines: string[] = [];
  if (outcome.kind === 'tool') {
    const { content = [], structuredContent, isError = false } = outcome.result;
    if (isError) lines.push('Error (the tool reported isError):');
    for (const block of content as Block[]) lines.push(blockText(block));
    if (structuredContent !== undefined) lines.push('structuredContent:', displayJson(structuredContent));
    return { text: `${lines.join('\n')}\n`, isError };
  }
  if (outcome.kind === 'prompt') {
    if (outcome.result.description) lines.push(displayText(outcome.result.description));
    for (const message of outcome.result.messages) lines.push(`[${displayLine(message.role)}] ${blockText(message.content as Block)}`);
    return { text: `${lines.join('\n')}\n`, isError: false };
  }
  for (const contents of outcome.result.contents as Contents[]) lines.push(contentsText(contents));
  return { text: `${lines.join('\n')}\n`, isError: false };
}
