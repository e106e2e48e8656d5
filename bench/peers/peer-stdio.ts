// The peer over stdio (2026-07-28 through serveStdio): `node --import tsx bench/peers/peer-stdio.ts`, with
// ROUNDTRIP_DB (the demo's orders file), PEER_STATE_KEY (at least 32 bytes) and ROUNDTRIP_PRINCIPAL.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { openPeerOrders } from './peer-orders.ts';
import { peerSettings } from './peer-settings.ts';
import { createRefundPeerFactory } from './refund-peer-server.ts';

const { db, stateKey, principal, synchronous, exactlyOnce } = peerSettings();
const orders = openPeerOrders(db, synchronous, exactlyOnce);
serveStdio(createRefundPeerFactory({ orders, stateKey, principal }), {
  onerror: (error) => process.stderr.write(`[refund-peer] ${error.message}\n`),
});
process.stderr.write('[refund-peer] ready over stdio\n');
