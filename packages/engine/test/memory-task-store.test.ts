// The in-memory task store: the task store contract (task-store-contract.ts); every handle on one store is the same store.
import { createMemoryTaskStore } from '../src/index.ts';
import { describeTaskStoreContract } from './task-store-contract.ts';

describeTaskStoreContract('the memory task store', async () => {
  const store = createMemoryTaskStore();
  return { open: async () => store, close: async () => undefined };
});
