// The peer's settings from its environment, each checked with what to set when it is missing.

export interface PeerSettings {
  /** The demo's SQLite orders file. */
  db: string;
  stateKey: string;
  principal: string;
  /** SQLite's synchronous setting for the peer's writes (PEER_SYNCHRONOUS). */
  synchronous: 'NORMAL' | 'FULL';
  /** PEER_EXACTLY_ONCE=1: claim, refund and outcome in one durable transaction (synchronous FULL). */
  exactlyOnce: boolean;
}

export function peerSettings(env: NodeJS.ProcessEnv = process.env): PeerSettings {
  const db = env.ROUNDTRIP_DB;
  const stateKey = env.PEER_STATE_KEY;
  if (!db) throw new Error('ROUNDTRIP_DB is not set: give the path of the demo orders file the peer reads.');
  if (!stateKey || Buffer.byteLength(stateKey) < 32)
    throw new Error('PEER_STATE_KEY must be set to at least 32 bytes (the HMAC key of requestState).');
  const exactlyOnce = env.PEER_EXACTLY_ONCE === '1';
  const synchronous = env.PEER_SYNCHRONOUS ?? (exactlyOnce ? 'FULL' : 'NORMAL');
  if (synchronous !== 'NORMAL' && synchronous !== 'FULL') throw new Error(`PEER_SYNCHRONOUS is '${synchronous}': give NORMAL or FULL.`);
  return { db, stateKey, principal: env.ROUNDTRIP_PRINCIPAL ?? 'ada', synchronous, exactlyOnce };
}
