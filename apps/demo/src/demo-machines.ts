// The demo's definitions for `roundtrip visualize` (the files in apps/demo/machines): built over
// in-memory stores, since drawing a machine never touches its data.
import { createDemoDefinitions } from './demo-definitions.ts';
import { openDemoStores } from './demo-stores.ts';

export const { tools, prompts, resources } = createDemoDefinitions(await openDemoStores(':memory:'));
