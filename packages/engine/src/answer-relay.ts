// Where a 2025-era client's answer to a server's request goes when it may reach another process than the one
// that asked: over HTTP the server asks (`elicitation/create`) on the SSE stream of the call's POST, and the
// client POSTs its answer as a request of its own, which a balancer may give to any instance. Each request id
// the server sends starts with the key of the process holding the call; the process that receives the answer
// hands it to that one: in this process (createLocalAnswerRelay), or through PostgreSQL's LISTEN/NOTIFY
// (createPostgresAnswerRelay in @roundtrip/engine/postgres) between instances.
import { encodeBase64url } from './base64url.ts';
import { randomBytes } from './random-bytes.ts';

/** A JSON-RPC response as the client sent it: `result` or `error`, under the request's id. */
export type RelayedAnswer = Record<string, unknown>;

export interface AnswerRelay {
  /** This process's key: every request id it sends starts with it and a dot. */
  readonly key: string;
  /** Waits for the answer to request `id` (sent by this process): `deliver` gets it, once. */
  hold(id: string, deliver: (answer: RelayedAnswer) => void): void;
  /** Stops waiting for `id` (the call ended). */
  release(id: string): void;
  /**
   * Hands the answer to the call waiting for `id`, in this process or in the one whose key `id` starts with.
   * 'gone' when no call waits for it (it ended, or its process stopped): nothing was done with the answer.
   */
  deliver(id: string, answer: RelayedAnswer): Promise<'delivered' | 'gone'>;
  /** Stops relaying; calls still waiting get nothing more. */
  close(): Promise<void>;
}

/** The key at the start of a request id, if it has one. */
export function holderOf(id: string): string | undefined {
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

/** A new process key: 72 random bits, base64url (no dots). */
export const newRelayKey = (): string => encodeBase64url(randomBytes(9));

/**
 * The relay of one process: answers reach only calls held here (one instance, or stdio). An answer whose id
 * names another process is 'gone'.
 */
export function createLocalAnswerRelay(key: string = newRelayKey()): AnswerRelay {
  const waiting = new Map<string, (answer: RelayedAnswer) => void>();
  return {
    key,
    hold: (id, deliver) => void waiting.set(id, deliver),
    release: (id) => void waiting.delete(id),
    async deliver(id, answer) {
      const deliver = waiting.get(id);
      if (!deliver) return 'gone';
      waiting.delete(id);
      deliver(answer);
      return 'delivered';
    },
    async close() {
      waiting.clear();
    },
  };
}
