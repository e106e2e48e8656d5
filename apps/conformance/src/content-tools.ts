// Tools that answer at once, each with one kind of content: text, an image, a sound, an embedded resource,
// all of them together, a tool error; and one whose work reports progress.
import { defineTool, type ToolDefinition } from '@roundtrip/engine';
import { fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { finishedMachine } from './finished-machine.ts';
import { PIXEL_PNG, SILENCE_WAV } from './sample-media.ts';

const NO_ARGUMENTS = z.object({});

const simpleText = defineTool({
  name: 'test_simple_text',
  description: 'Answers with one text block',
  input: NO_ARGUMENTS,
  machine: finishedMachine('simple_text'),
  result: () => ({ text: 'This is a simple text response for testing.' }),
});

const imageContent = defineTool({
  name: 'test_image_content',
  description: 'Answers with an image (a one-pixel PNG)',
  input: NO_ARGUMENTS,
  machine: finishedMachine('image_content'),
  result: () => ({ text: 'An image:', content: [{ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }] }),
});

const audioContent = defineTool({
  name: 'test_audio_content',
  description: 'Answers with a sound (a short silent WAV)',
  input: NO_ARGUMENTS,
  machine: finishedMachine('audio_content'),
  result: () => ({ text: 'A sound:', content: [{ type: 'audio', data: SILENCE_WAV, mimeType: 'audio/wav' }] }),
});

const embeddedResource = defineTool({
  name: 'test_embedded_resource',
  description: 'Answers with an embedded text resource',
  input: NO_ARGUMENTS,
  machine: finishedMachine('embedded_resource'),
  result: () => ({
    text: 'An embedded resource:',
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  }),
});

const mixedContent = defineTool({
  name: 'test_multiple_content_types',
  description: 'Answers with text, an image and an embedded JSON resource',
  input: NO_ARGUMENTS,
  machine: finishedMachine('mixed_content'),
  result: () => ({
    text: 'Multiple content types test:',
    content: [
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
});

const errorHandling = defineTool({
  name: 'test_error_handling',
  description: 'Always answers with a tool error',
  input: NO_ARGUMENTS,
  machine: finishedMachine('error_handling'),
  result: () => ({ text: 'This tool intentionally returns an error for testing', isError: true }),
});

/** Three pieces of work in a row: the engine reports progress as each starts, when the request asked for it. */
const progressMachine = setup({
  actors: { work: fromPromise(async ({ input }: { input: { step: number } }) => input.step) },
}).createMachine({
  id: 'tool_with_progress',
  initial: 'first',
  states: {
    first: { invoke: { id: 'step_1', src: 'work', input: { step: 1 }, onDone: 'second' } },
    second: { invoke: { id: 'step_2', src: 'work', input: { step: 2 }, onDone: 'third' } },
    third: { invoke: { id: 'step_3', src: 'work', input: { step: 3 }, onDone: 'done' } },
    done: { type: 'final' },
  },
});

const withProgress = defineTool({
  name: 'test_tool_with_progress',
  description: 'Runs three steps, with a progress notification as each starts when the request carries a progressToken',
  input: NO_ARGUMENTS,
  machine: progressMachine,
  result: () => ({ text: 'Three steps done.' }),
});

export const contentTools: readonly ToolDefinition[] = [
  simpleText,
  imageContent,
  audioContent,
  embeddedResource,
  mixedContent,
  errorHandling,
  withProgress,
];
