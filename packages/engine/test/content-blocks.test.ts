// Tool results and prompt messages with more than text: images, sounds, embedded resources, resource links.
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import { type ContentBlock, definePrompt, defineTool, type PromptMessageView } from '../src/index.ts';
import { complete, failed, failedText, makeEngine, makeServer } from './support.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const nothingToAsk = setup({}).createMachine({ id: 'shown', initial: 'done', states: { done: { type: 'final' } } });

const showing = (content: readonly unknown[]) =>
  defineTool({
    name: 'show',
    description: 'Shows what it was given',
    input: z.object({}),
    machine: nothingToAsk,
    result: () => ({ text: 'Here it is:', content: content as ContentBlock[] }),
  });

const showingPrompt = (messages: PromptMessageView[]) =>
  definePrompt({ name: 'look', description: 'Shows an image', machine: nothingToAsk, messages: () => messages });

describe('content blocks', () => {
  it('sends images, sounds, embedded resources and resource links after the text, with only their wire fields', async () => {
    const blocks = [
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: WAV, mimeType: 'audio/wav', note: 'dropped' },
      { type: 'resource', resource: { uri: 'test://embedded', mimeType: 'text/plain', text: 'Embedded.' } },
      { type: 'resource', resource: { uri: 'test://bytes', blob: PNG } },
      { type: 'resource_link', uri: 'test://static-text', name: 'static-text', description: 'A text' },
    ];
    const { call } = makeEngine([showing(blocks)]);
    expect(complete(await call({ name: 'show' })).result.content).toEqual([
      { type: 'text', text: 'Here it is:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: WAV, mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'test://embedded', mimeType: 'text/plain', text: 'Embedded.' } },
      { type: 'resource', resource: { uri: 'test://bytes', blob: PNG } },
      { type: 'resource_link', uri: 'test://static-text', name: 'static-text', description: 'A text' },
    ]);
  });

  it.each([
    [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }, 'result().content[0].data is not base64 (standard alphabet, padded)'],
    [{ type: 'audio', data: WAV, mimeType: 'image/png' }, `result().content[0].mimeType is "image/png"; give the audio's MIME type`],
    [{ type: 'resource', resource: { uri: 'test://x' } }, 'result().content[0].resource has neither text nor a base64 blob'],
    [{ type: 'video', data: PNG }, 'result().content[0] is not a content block: its type is "video"'],
  ])('fails the round, saying which block is wrong and how, for %j', async (block, why) => {
    const { call, logs } = makeEngine([showing([block])]);
    expect(complete(await call({ name: 'show' })).result).toEqual({
      content: [{ type: 'text', text: failedText("Tool 'show'") }],
      isError: true,
    });
    expect(logs.find((e) => e.event === 'result_error')?.message).toContain(why);
  });

  it('renders prompt messages whose content is an image or an embedded resource', async () => {
    const prompt = showingPrompt([
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'R.' } } },
      { role: 'user', text: 'Please analyze the image above.' },
    ]);
    const { engine } = makeServer({ prompts: [prompt] });
    const outcome = complete(await engine.getPrompt({ name: 'look', principal: 'ada', capabilities: undefined }));
    expect(outcome.result.messages).toEqual([
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'R.' } } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ]);
  });

  it('answers a prompt whose message holds a wrong block with an internal error, and logs which', async () => {
    const prompt = showingPrompt([{ role: 'user', content: { type: 'image', data: PNG } as never }]);
    const { engine, logs } = makeServer({ prompts: [prompt] });
    expect(failed(await engine.getPrompt({ name: 'look', principal: 'ada', capabilities: undefined })).error.code).toBe(-32603);
    expect(logs.find((e) => e.event === 'result_error')?.message).toContain('messages()[0].content.mimeType is undefined');
  });
});
