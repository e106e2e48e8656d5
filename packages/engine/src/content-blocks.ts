// The content blocks a tool result or a prompt message may carry besides text: images, sounds, embedded
// resources and resource links. Checked when a result is made, so a wrong block fails the round with a
// log line that says which block and how to fix it, instead of reaching the client malformed.
import type { ContentBlock, ResourceContents } from './wire-shapes.ts';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const isText = (value: unknown): value is string => typeof value === 'string';
const isBase64 = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && BASE64.test(value);

/** A block of bytes (`image`, `audio`), checked. */
function media(block: Record<string, unknown>, type: 'image' | 'audio', where: string): ContentBlock {
  if (!isBase64(block.data)) throw new Error(`${where}.data is not base64 (standard alphabet, padded); encode the ${type}'s bytes`);
  if (!isText(block.mimeType) || !block.mimeType.startsWith(`${type}/`))
    throw new Error(
      `${where}.mimeType is ${JSON.stringify(block.mimeType)}; give the ${type}'s MIME type, such as '${type === 'image' ? 'image/png' : 'audio/wav'}'`,
    );
  return { type, data: block.data, mimeType: block.mimeType };
}

/** The contents of an embedded resource, checked. */
function resourceContents(value: unknown, where: string): ResourceContents {
  const contents = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (!isText(contents.uri) || contents.uri === '') throw new Error(`${where}.uri is missing; give the resource's URI`);
  const mimeType = contents.mimeType === undefined ? {} : isText(contents.mimeType) ? { mimeType: contents.mimeType } : undefined;
  if (!mimeType) throw new Error(`${where}.mimeType is not text; give a MIME type such as 'text/plain', or leave it out`);
  if (isText(contents.text)) return { uri: contents.uri, ...mimeType, text: contents.text };
  if (isBase64(contents.blob)) return { uri: contents.uri, ...mimeType, blob: contents.blob };
  throw new Error(`${where} has neither text nor a base64 blob; give one of them`);
}

/** One block, checked and copied with only the fields the wire carries. Throws an Error naming `where`. */
export function contentBlock(value: unknown, where: string): ContentBlock {
  const block = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      if (!isText(block.text)) throw new Error(`${where}.text is not text`);
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return media(block, block.type, where);
    case 'resource':
      return { type: 'resource', resource: resourceContents(block.resource, `${where}.resource`) };
    case 'resource_link': {
      if (!isText(block.uri) || block.uri === '' || !isText(block.name))
        throw new Error(`${where} needs a uri and a name (the link's target and what to call it)`);
      const link: ContentBlock = { type: 'resource_link', uri: block.uri, name: block.name };
      for (const key of ['title', 'description', 'mimeType'] as const) if (isText(block[key])) link[key] = block[key];
      return link;
    }
    default:
      throw new Error(
        `${where} is not a content block: its type is ${JSON.stringify(block.type)}; use 'text', 'image', 'audio', 'resource' or 'resource_link'`,
      );
  }
}

/** A list of blocks (absent: none), each checked. */
export function contentBlocks(value: unknown, where: string): ContentBlock[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where} is not a list of content blocks`);
  return value.map((block, i) => contentBlock(block, `${where}[${i}]`));
}
