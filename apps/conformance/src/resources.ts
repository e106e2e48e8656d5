// Resources: a static text (the first listed, kept a minute by any cache), a binary image, and a template
// whose variable completes as it is typed.
import { defineResource, type ResourceDefinition, safeText } from '@roundtrip/engine';
import { finishedMachine } from './finished-machine.ts';
import { PIXEL_PNG } from './sample-media.ts';

const staticText = defineResource({
  uri: 'test://static-text',
  name: 'static-text',
  title: 'Static text',
  description: 'A static text resource',
  mimeType: 'text/plain',
  cache: { ttlMs: 60_000, cacheScope: 'public' },
  machine: finishedMachine('static_text'),
  contents: () => 'This is the content of the static text resource.',
});

const staticBinary = defineResource({
  uri: 'test://static-binary',
  name: 'static-binary',
  title: 'Static binary',
  description: 'A static binary resource: a one-pixel PNG',
  mimeType: 'image/png',
  cache: { ttlMs: 60_000, cacheScope: 'public' },
  machine: finishedMachine('static_binary'),
  contents: () => ({ blob: PIXEL_PNG }),
});

const template = defineResource({
  uri: 'test://template/{id}/data',
  name: 'template',
  title: 'Template',
  description: 'Data for the id in its URI',
  mimeType: 'application/json',
  complete: { id: (value) => ['123', '124', '200', '404'].filter((id) => id.startsWith(value)) },
  machine: finishedMachine<{ id: string }>('template_data'),
  contents: ({ id }) => JSON.stringify({ id: safeText(id), templateTest: true, data: `Data for ID: ${safeText(id)}` }),
});

export const resources: readonly ResourceDefinition[] = [staticText, staticBinary, template];
