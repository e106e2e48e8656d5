// The peer's settings from its environment, each checked with what to set when it is missing.

export interface PeerSettings {
  /** The demo's SQLite orders file. */
  db: string;
  stateKey: string;
  principal: string;
}

export function peerSettings(env: NodeJS.ProcessEnv = process.env): PeerSettings {
  const db = env.ROUNDTRIP_DB;
  const stateKey = env.PEER_STATE_KEY;
  if (!db) throw new Error('ROUNDTRIP_DB is not set: give the path of the demo orders file the peer reads.');
  if (!stateKey || Buffer.byteLength(stateKey) < 32)
    throw new Error('PEER_STATE_KEY must be set to at least 32 bytes (the HMAC key of requestState).');
  return { db, stateKey, principal: env.ROUNDTRIP_PRINCIPAL ?? 'ada' };
}
