// The in-memory ledger: the ledger contract (ledger-contract.ts), and what only it has (a size, a cap).
import { describe, expect, it } from 'vitest';
import { createMemoryLedger } from '../src/index.ts';
import { describeLedgerContract } from './ledger-contract.ts';
import { args, confirmingRound, makeRefundTool, type Refunds, yes } from './ledger-contract-refund.ts';
import { complete, makeEngine } from './support.ts';

describeLedgerContract(
  'the memory ledger',
  async () => {
    // one store a test; every handle on it is the same ledger
    const ledger = createMemoryLedger();
    return { open: async () => ledger, close: async () => undefined };
  },
  { knowsLiveness: false },
);

describe('the memory ledger', () => {
  it('runs the effect again for another engine with its own ledger (the ledger is what remembers)', async () => {
    const refunds: Refunds = { runs: 0 };
    const a = await confirmingRound(refunds, createMemoryLedger());
    const b = makeEngine([makeRefundTool(refunds)], { ledger: createMemoryLedger() });
    complete(await a.confirm());
    const other = complete(
      await b.call({ name: 'refund_order', arguments: args, requestState: a.first.requestState, inputResponses: yes }),
    );
    expect(other.result.structuredContent).toEqual({ refundId: 're_ord_1_2', error: null });
    expect(refunds.runs).toBe(2);
  });

  it('keeps one record a run and effect, replays included', async () => {
    const ledger = createMemoryLedger();
    const { confirm } = await confirmingRound({ runs: 0 }, ledger);
    complete(await confirm());
    complete(await confirm());
    expect(ledger.size).toBe(1);
  });

  it('forgets the oldest done records past maxRecords, never a running one', () => {
    const ledger = createMemoryLedger({ maxRecords: 2 });
    ledger.claim({ run: 'stuck', effect: 'x' }, 0);
    for (const run of ['a', 'b', 'c']) {
      ledger.claim({ run, effect: 'x' }, 1);
      ledger.complete({ run, effect: 'x' }, { ok: true, value: run }, 2);
    }
    expect(ledger.size).toBe(2);
    expect(ledger.read({ run: 'stuck', effect: 'x' })).toEqual({ state: 'running', startedAt: 0 });
    expect(ledger.read({ run: 'a', effect: 'x' })).toBeUndefined();
    expect(ledger.read({ run: 'c', effect: 'x' })).toMatchObject({ state: 'done' });
  });
});
