// refund_order's conversations in flight across a deploy: a question an old version asked goes on under the
// current one (the state migrated), over the same SQLite file the server uses.
import { createEngine } from '@roundtrip/engine';
import { createSqliteLedger } from '@roundtrip/engine/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NAME } from '../src/demo-definitions.ts';
import { createRefundOrderToolV2 } from './fixtures/refund-order-tool-v2.ts';
import { accept, closeDemoEngines, demoEngine, done, FORM, question, sharedKeyring, textOf } from './support/demo-engine.ts';

afterEach(closeDemoEngines);

const yes = { confirm: accept({ confirm: true }) };

describe('refund_order across a deploy from version 2 to the current one', () => {
  it('continues a question version 2 asked: the state is migrated, the question asked once more, and the refund made once', async () => {
    const current = await demoEngine();
    const ledger = createSqliteLedger({ path: current.db });
    const before = createEngine({ tools: [createRefundOrderToolV2(current.store)], keyring: sharedKeyring, audience: SERVER_NAME, ledger });
    try {
      const args = { order_id: 'ord_51' };
      const outcome = await before.callTool({ name: 'refund_order', arguments: args, principal: 'ada', capabilities: FORM });
      const { message, requestState } = question(outcome, 'confirm');
      expect(message).toBe('Refund $49.00 for order ord_51?');
      // the flow sends its yes/no unticked (default false), which version 2 did not: not the question
      // the answer was given to, so it is asked again once, and the answer to it refunds
      const again = question(await current.call('refund_order', args, { requestState, inputResponses: yes }), 'confirm');
      expect(again.message).toBe('Refund $49.00 for order ord_51?');
      expect(again.schema).toMatchObject({ properties: { confirm: { default: false } } });
      expect(current.logs).toContainEqual(expect.objectContaining({ event: 'answer_ignored', code: 'question_changed' }));
      const result = done(await current.call('refund_order', args, { requestState: again.requestState, inputResponses: yes }));
      expect(textOf(result)).toBe('Refunded $49.00 for order ord_51.');
      expect(current.logs).toContainEqual(
        expect.objectContaining({ event: 'state_migrated', message: expect.stringMatching(/'2' → '3' → '4' → '5'$/) }),
      );
      expect(await current.store.countRefunds('ord_51')).toBe(1);
    } finally {
      ledger.close();
    }
  });
});
