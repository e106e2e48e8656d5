// Prompts that render at once: plain text, with arguments (which complete as they are typed), with an
// embedded resource, with an image.
import { definePrompt, type PromptDefinition, safeText } from '@roundtrip/engine';
import { z } from 'zod';
import { finishedMachine } from './finished-machine.ts';
import { PIXEL_PNG } from './sample-media.ts';

const simple = definePrompt({
  name: 'test_simple_prompt',
  title: 'Simple prompt',
  description: 'A prompt without arguments',
  machine: finishedMachine('simple_prompt'),
  messages: () => [{ role: 'user', text: 'This is a simple prompt for testing.' }],
});

const withArguments = definePrompt({
  name: 'test_prompt_with_arguments',
  title: 'Prompt with arguments',
  description: 'A prompt with two required arguments, both offered completions',
  arguments: z.object({ arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') }),
  complete: {
    arg1: ['paris', 'park', 'party', 'test', 'testing'],
    arg2: (value) => ['alpha', 'beta', 'gamma'].filter((word) => word.startsWith(value.toLowerCase())),
  },
  machine: finishedMachine<{ arg1: string; arg2: string }>('prompt_with_arguments'),
  messages: ({ arg1, arg2 }) => [{ role: 'user', text: `Prompt with arguments: arg1='${safeText(arg1)}', arg2='${safeText(arg2)}'` }],
});

const withEmbeddedResource = definePrompt({
  name: 'test_prompt_with_embedded_resource',
  title: 'Prompt with an embedded resource',
  description: 'A prompt whose first message embeds the resource it names',
  arguments: z.object({ resourceUri: z.string().min(1).max(2048).describe('URI of the resource to embed') }),
  machine: finishedMachine<{ resourceUri: string }>('prompt_with_embedded_resource'),
  messages: ({ resourceUri }) => [
    {
      role: 'user',
      content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
    },
    { role: 'user', text: 'Please process the embedded resource above.' },
  ],
});

const withImage = definePrompt({
  name: 'test_prompt_with_image',
  title: 'Prompt with an image',
  description: 'A prompt whose first message is an image',
  machine: finishedMachine('prompt_with_image'),
  messages: () => [
    { role: 'user', content: { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' } },
    { role: 'user', text: 'Please analyze the image above.' },
  ],
});

export const prompts: readonly PromptDefinition[] = [simple, withArguments, withEmbeddedResource, withImage];
