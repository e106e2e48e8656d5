// A round that runs out of time (settleTimeoutMs) while an effect it needs runs for another request of
// the same conversation (another server's live claim, or a duplicate in flight in this process) says the
// step is in progress and when to try again, instead of "failed on the server"; the retry then gets the
// recorded outcome. The PostgreSQL case, with a live and a dead owner: postgres-dead-owner.test.ts.
import { describe, expect, it } from 'vitest';
import { createMemoryLedger } from '../src/index.ts';
import { args, makeRefundTool, type RefundOutput, type Refunds, yes } from './ledger-contract-refund.ts';
import { complete, deferred, inputRequired, makeEngine, textIn } from './support.ts';

const CLOCK = Date.UTC(2026, 6, 28, 12);

describe('a round waiting for an effect another request runs', () => {
  it('that runs out of time says the step is in progress, since when, and to try again; the retry gets the outcome', async () => {
    const ledger = createMemoryLedger();
    const hold = deferred();
    const started = deferred();
    const refunds: Refunds = { runs: 0, hold: hold.promise, started: started.resolve };
    // two servers on one ledger: the first runs the refund and is held there; the second has 40 ms per round
    const first = makeEngine([makeRefundTool(refunds)], { ledger, now: () => CLOCK });
    const second = makeEngine([makeRefundTool(refunds)], { ledger, now: () => CLOCK, settleTimeoutMs: 40 });
    const asked = inputRequired(await first.call({ name: 'refund_order', arguments: args }));
    const confirm = { name: 'refund_order', arguments: args, requestState: asked.requestState, inputResponses: yes };
    const running = first.call(confirm);
    await started.promise;

    const waited = complete(await second.call(confirm));
    expect(waited.result.isError).toBe(true);
    expect(textIn(waited.result.content[0])).toBe(
      "Tool 'refund_order' could not finish yet: its step 'refund' is in progress, started at 2026-07-28T12:00:00.000Z by another request of this conversation, and has not recorded its outcome. Try again in 1 second to get it.",
    );
    expect(second.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        event: 'effect_still_running',
        code: 'started_elsewhere',
        message: `effect 'refund', started at 2026-07-28T12:00:00.000Z by another request, recorded no outcome within 40 ms (settleTimeoutMs); the client was told to try again`,
      }),
    );

    hold.resolve();
    const done = complete(await running);
    expect(complete(await second.call(confirm)).result).toEqual(done.result);
    expect((done.result.structuredContent as RefundOutput).refundId).toBe('re_ord_1_1');
    expect(refunds.runs).toBe(1);
  });

  it('that is a duplicate in flight in this process says so too, without a start time it does not know', async () => {
    const hold = deferred();
    const started = deferred();
    const refunds: Refunds = { runs: 0, hold: hold.promise, started: started.resolve };
    const test = makeEngine([makeRefundTool(refunds)], { settleTimeoutMs: 40 });
    const asked = inputRequired(await test.call({ name: 'refund_order', arguments: args }));
    const confirm = { name: 'refund_order', arguments: args, requestState: asked.requestState, inputResponses: yes };
    // the first round itself runs out of time while its refund runs on (an at-most-once effect is let settle)
    const running = test.call(confirm);
    await started.promise;
    const duplicate = complete(await test.call(confirm));
    expect(textIn(duplicate.result.content[0])).toBe(
      "Tool 'refund_order' could not finish yet: its step 'refund' is in progress, started by another request of this conversation, and has not recorded its outcome. Try again in 1 second to get it.",
    );
    hold.resolve();
    await running;
    expect((complete(await test.call(confirm)).result.structuredContent as RefundOutput).refundId).toBe('re_ord_1_1');
    expect(refunds.runs).toBe(1);
  });
});
