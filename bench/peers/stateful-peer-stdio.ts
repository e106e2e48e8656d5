// A stateful peer over stdio (the SDK alone plus XState): refund_order keeps one live XState actor per
// conversation in a Map from the first round to the answer, and requestState is only the key of that
// actor (a random id). What the memory bench sets against our stateless server, whose state travels sealed.
// `node --import tsx bench/peers/stateful-peer-stdio.ts` with ROUNDTRIP_DB (and PEER_STATE_KEY, unused here).
import { randomUUID } from 'node:crypto';
import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { type Actor, createActor, waitFor } from 'xstate';
import { z } from 'zod';
import { openPeerOrders } from './peer-orders.ts';
import { peerSettings } from './peer-settings.ts';
import { createStatefulRefundMachine } from './stateful-refund-machine.ts';

const { db, principal } = peerSettings();
const orders = openPeerOrders(db);
const machine = createStatefulRefundMachine(orders, principal);
/** The live conversations, by the id sent as requestState. */
const live = new Map<string, Actor<typeof machine>>();
const confirmSchema = z.object({ confirm: z.boolean().describe('Yes to refund') });

function result(status: string, orderId: string) {
  const message = status === 'kept' ? `Order ${orderId} was not refunded.` : `refund_order ${orderId}: ${status}`;
  return { content: [{ type: 'text' as const, text: message }], structuredContent: { status, order_id: orderId, message } };
}

serveStdio(() => {
  const server = new McpServer({ name: 'refund-stateful-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'refund_order',
    { inputSchema: z.object({ order_id: z.string().min(1).max(64) }) },
    async ({ order_id: orderId }, ctx) => {
      const id = ctx.mcpReq.requestState<string>();
      if (id === undefined) {
        const actor = createActor(machine, { input: { orderId } }).start();
        const snapshot = await waitFor(actor, (s) => s.matches('confirming') || s.status === 'done');
        if (snapshot.status === 'done') return result(snapshot.output!.status, orderId);
        const key = randomUUID();
        live.set(key, actor);
        const amount = `$${((snapshot.context.order?.amountCents ?? 0) / 100).toFixed(2)}`;
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Refund ${amount} for order ${orderId}?`, requestedSchema: confirmSchema }),
          },
          requestState: key,
        });
      }
      const actor = live.get(id);
      if (!actor)
        throw new Error('no live conversation for this requestState (it ended, or the server restarted): call refund_order again.');
      live.delete(id);
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmSchema);
      actor.send({ type: 'answer', confirm: answer?.confirm === true });
      const done = await waitFor(actor, (s) => s.status === 'done');
      actor.stop();
      return result(done.output!.status, orderId);
    },
  );
  return server;
});
