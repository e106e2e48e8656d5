// The peer: `refund_order` written on the official SDK alone, as a careful hand-written MRTR server would
// write it. Round 1 looks the order up and returns input_required (a form asking to confirm the amount)
// with a requestState signed by the SDK's own codec (createRequestStateCodec: HMAC-SHA256, a 10-minute
// expiry, bound to the principal and the method; signed, not encrypted: the payload is readable by the
// client). The retry's state must name the same order as the arguments; on accept it refunds exactly the
// confirmed amount in one transaction (the store checks that the order is still paid at that amount), on
// decline or cancel it keeps the order. Same question, result text and structured content as the demo.
import { randomUUID } from 'node:crypto';
import { acceptedContent, createRequestStateCodec, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { PeerOrders } from './peer-orders.ts';

type Status = 'refunded' | 'already_refunded' | 'kept' | 'not_found' | 'amount_changed';
/** What the signed requestState carries: the order, the amount asked about, and the conversation's run id. */
type Pending = { orderId: string; amountCents: number; run: string };

const confirmSchema = z.object({ confirm: z.boolean().describe('Yes to refund') });
const outputSchema = z.object({
  status: z.enum(['refunded', 'already_refunded', 'kept', 'not_found', 'amount_changed']),
  order_id: z.string(),
  amount: z.string().nullable(),
  amount_cents: z.int().nullable(),
  refunded_at: z.string().nullable(),
  message: z.string(),
});

const dollars = (cents: number) => `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;

function result(status: Status, orderId: string, amountCents: number | null, refundedAt: string | null) {
  const amount = amountCents === null ? null : dollars(amountCents);
  const message = {
    refunded: `Refunded ${amount} for order ${orderId}.`,
    already_refunded: `Order ${orderId} was already refunded; nothing more was done.`,
    kept: `Order ${orderId} was not refunded.`,
    not_found: `No order with id '${orderId}'. Check the order id (it looks like 'ord_51') and try again.`,
    amount_changed: `The amount of order ${orderId} changed while it was being refunded, so nothing was refunded. Call refund_order again.`,
  }[status];
  const structuredContent = { status, order_id: orderId, amount, amount_cents: amountCents, refunded_at: refundedAt, message };
  return { content: [{ type: 'text' as const, text: message }], structuredContent, isError: status === 'not_found' };
}

export interface PeerServerOptions {
  orders: PeerOrders;
  /** The HMAC key of requestState (at least 32 bytes). */
  stateKey: string;
  /** Who the states are bound to (the demo's ROUNDTRIP_PRINCIPAL). */
  principal: string;
}

/** A factory of the peer's McpServer, for serveStdio or createMcpHandler. */
export function createRefundPeerFactory({ orders, stateKey, principal }: PeerServerOptions): () => McpServer {
  const codec = createRequestStateCodec<Pending>({ key: stateKey, ttlSeconds: 600, bind: (ctx) => `${principal}\0${ctx.mcpReq.method}` });
  return () => {
    const server = new McpServer(
      { name: 'refund-peer', version: '1.0.0' },
      { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
    );
    server.registerTool(
      'refund_order',
      {
        title: 'Refund an order',
        description: "Refunds a customer's order after the user confirms the amount.",
        inputSchema: z.object({ order_id: z.string().min(1).max(64) }),
        outputSchema,
      },
      async ({ order_id: orderId }, ctx) => {
        const pending = ctx.mcpReq.requestState<Pending>();
        if (pending === undefined) {
          const order = orders.findOrder(orderId);
          if (!order) return result('not_found', orderId, null, null);
          if (order.status === 'refunded') return result('already_refunded', orderId, order.amountCents, order.refundedAt);
          return inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({
                message: `Refund ${dollars(order.amountCents)} for order ${orderId}?`,
                requestedSchema: confirmSchema,
              }),
            },
            requestState: await codec.mint({ orderId, amountCents: order.amountCents, run: randomUUID() }, ctx),
          });
        }
        if (pending.orderId !== orderId) throw new Error('requestState was issued for another order: call refund_order again without it.');
        const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
        const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmSchema);
        if (view.kind !== 'elicit' || (view.action === 'accept' && answer === undefined))
          throw new Error('the answer to confirm is missing or not { confirm: boolean }: answer the form.');
        if (!answer?.confirm) return result('kept', orderId, pending.amountCents, null);
        const refund = orders.refund(orderId, pending.amountCents, principal, pending.run);
        return refund.status === 'refunded'
          ? result('refunded', orderId, refund.amountCents, refund.refundedAt)
          : result(refund.status, orderId, pending.amountCents, null);
      },
    );
    return server;
  };
}
