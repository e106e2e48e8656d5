// The demo's definitions built once per worker and lent to one demo engine at a time: building them
// (flows compiled, schemas made) costs ~8 ms, more than the rest of a demoEngine() together. Each set
// is built over stand-in stores that pass every call on to the stores of the engine that borrowed it,
// so an engine sees only its own fresh stores, as if the definitions had been built over them. A set is
// lent again only after its engine is closed; two engines open at once each get a set of their own.
import { createDemoDefinitions, type DemoDefinitions } from '../../src/demo-definitions.ts';
import type { DemoStores } from '../../src/demo-stores.ts';

type Stores = Omit<DemoStores, 'close'>;

interface DefinitionsSet {
  definitions: DemoDefinitions;
  /** The stores the calls go to now; undefined while the set is not lent. */
  lentTo: Stores | undefined;
}

type Options = Parameters<typeof createDemoDefinitions>[1];

/** Free sets by what they were built with: the options, and the orders store's backend, which refund_order reads once. */
const free = new Map<string, DefinitionsSet[]>();

/** A stand-in for the store `key` of whichever stores `set` is lent to. */
function standIn<K extends keyof Stores>(set: DefinitionsSet, key: K): Stores[K] {
  return new Proxy({} as Stores[K], {
    get: (_, name) => {
      if (!set.lentTo)
        throw new Error(`the demo's definitions were used after their demo engine was closed (${String(key)}.${String(name)})`);
      const store = set.lentTo[key] as unknown as Record<PropertyKey, unknown>;
      const member = store[name];
      return typeof member === 'function' ? member.bind(store) : member;
    },
  });
}

export interface BorrowedDefinitions {
  definitions: DemoDefinitions;
  /** From now on the definitions use `stores` (of the same backend) instead; for a test that swaps fresh stores in. */
  switchTo(stores: Stores): void;
  /** Call once the engine (or server) using the definitions is closed: they may then be lent again. */
  giveBack(): void;
}

/** The demo's definitions (as createDemoDefinitions(stores, options) makes them) over `stores`, until `giveBack()`. */
export function borrowDefinitions(stores: Stores, options: Options = {}): BorrowedDefinitions {
  const built = JSON.stringify([stores.orders.backend, { ledgerInDatabase: true, ...options }]);
  const sets = free.get(built) ?? [];
  free.set(built, sets);
  let set = sets.pop();
  if (set) set.lentTo = stores;
  else {
    const made: DefinitionsSet = { definitions: { tools: [], prompts: [], resources: [] }, lentTo: stores };
    made.definitions = createDemoDefinitions(
      {
        orders: standIn(made, 'orders'),
        meetings: standIn(made, 'meetings'),
        incidents: standIn(made, 'incidents'),
      },
      options,
    );
    set = made;
  }
  const lent = set;
  return {
    definitions: lent.definitions,
    switchTo: (next) => {
      if (!lent.lentTo) throw new Error("the demo's definitions were given back: borrow them again");
      if (next.orders.backend !== stores.orders.backend)
        throw new Error(`the demo's definitions were built over ${stores.orders.backend} stores, not ${next.orders.backend}`);
      lent.lentTo = next;
    },
    giveBack: () => {
      if (!lent.lentTo) return;
      lent.lentTo = undefined;
      sets.push(lent);
    },
  };
}
