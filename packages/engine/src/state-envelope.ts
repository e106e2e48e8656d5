import type { JsonObject, JsonValue } from './wire-shapes.ts';

/** Format version of the plaintext inside a sealed state. */
export const ENVELOPE_VERSION = 1;

/** Byte lengths of the tags and digests in an envelope. */
export const TAG_BYTES = { aud: 4, sub: 6, target: 4, args: 9, machine: 8, run: 9, question: 6 } as const;

/** A settled snapshot without the parts that are always the same when sealed. */
export interface CompactSnapshot {
  v: JsonValue;
  c: JsonValue;
  h?: JsonObject;
  ch?: JsonObject;
}

/**
 * What a sealed requestState holds: who, what and when it is bound to, the machine that made it,
 * the round, the questions that round asked, and the machine's snapshot.
 */
export interface StateEnvelope {
  /** issued at, seconds */
  iat: number;
  /** expires at, seconds */
  exp: number;
  /** digest of the server's name */
  aud: Uint8Array;
  /** digest of the principal */
  sub: Uint8Array;
  /** digest of method and target (tool name) */
  target: Uint8Array;
  /** digest of the canonical arguments */
  args: Uint8Array;
  /** digest of the machine's id, version and structure */
  machine: Uint8Array;
  /** round number, 1 for the state the first call returned */
  round: number;
  /** random id, fixed for the whole conversation of one call */
  run: Uint8Array;
  /** the keys this round asked, each with a digest of the rendered question */
  questions: Map<string, Uint8Array>;
  snapshot: CompactSnapshot;
}

/** The binding a request must match: what the current request is and who sends it. */
export type StateBinding = Pick<StateEnvelope, 'aud' | 'sub' | 'target' | 'args'>;

/** Why an opened state was refused. `code` goes to the client as `data.reason`; `detail` to the log only. */
export interface EnvelopeRejection {
  code: 'invalid' | 'expired' | 'mismatch' | 'outdated';
  detail: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Binary layout (version 1): version u8, iat u32, exp u32, aud, sub, target, args, machine, round u16,
 * run, question count u8 and per question (key length u8, key, digest), then the snapshot as JSON.
 * Fixed-size binary keeps a sealed state close to the size of the snapshot itself.
 */
export function encodeEnvelope(e: StateEnvelope): Uint8Array {
  const questions = [...e.questions].map(([key, digest]) => [encoder.encode(key), digest] as const);
  const snapshot = encoder.encode(JSON.stringify(e.snapshot));
  const fixed = 1 + 4 + 4 + TAG_BYTES.aud + TAG_BYTES.sub + TAG_BYTES.target + TAG_BYTES.args + TAG_BYTES.machine + 2 + TAG_BYTES.run + 1;
  const size = fixed + questions.reduce((n, [key]) => n + 1 + key.length + TAG_BYTES.question, 0) + snapshot.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  out[at++] = ENVELOPE_VERSION;
  view.setUint32(at, e.iat);
  view.setUint32(at + 4, e.exp);
  at += 8;
  for (const tag of [e.aud, e.sub, e.target, e.args, e.machine]) {
    out.set(tag, at);
    at += tag.length;
  }
  view.setUint16(at, e.round);
  at += 2;
  out.set(e.run, at);
  at += e.run.length;
  out[at++] = questions.length;
  for (const [key, digest] of questions) {
    out[at++] = key.length;
    out.set(key, at);
    at += key.length;
    out.set(digest, at);
    at += digest.length;
  }
  out.set(snapshot, at);
  return out;
}

/** Reads an envelope; undefined when the bytes are not a version-1 envelope. */
export function decodeEnvelope(bytes: Uint8Array): StateEnvelope | { version: number } | undefined {
  if (bytes.length < 1) return undefined;
  if (bytes[0] !== ENVELOPE_VERSION) return { version: bytes[0]! };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 1;
  const take = (n: number): Uint8Array => {
    if (at + n > bytes.length) throw new RangeError('envelope truncated');
    const part = bytes.slice(at, at + n);
    at += n;
    return part;
  };
  try {
    const iat = view.getUint32(at);
    const exp = view.getUint32(at + 4);
    at += 8;
    const aud = take(TAG_BYTES.aud);
    const sub = take(TAG_BYTES.sub);
    const target = take(TAG_BYTES.target);
    const args = take(TAG_BYTES.args);
    const machine = take(TAG_BYTES.machine);
    const round = view.getUint16(at);
    at += 2;
    const run = take(TAG_BYTES.run);
    const count = take(1)[0]!;
    const questions = new Map<string, Uint8Array>();
    for (let i = 0; i < count; i++) {
      const key = decoder.decode(take(take(1)[0]!));
      questions.set(key, take(TAG_BYTES.question));
    }
    const snapshot = JSON.parse(decoder.decode(bytes.subarray(at))) as CompactSnapshot;
    if (typeof snapshot !== 'object' || snapshot === null || !('v' in snapshot) || !('c' in snapshot)) return undefined;
    return { iat, exp, aud, sub, target, args, machine, round, run, questions, snapshot };
  } catch {
    return undefined;
  }
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Checks an opened state against the current request, the machine and the clock. Integrity is
 * already proven by the box; this proves the state belongs here and now.
 */
/** What an envelope is checked against besides its binding. */
export interface EnvelopeLimits {
  nowSeconds: number;
  maxRounds: number;
  /**
   * 'held': the state never left the server (a 2025-era round, where the server keeps the request open
   * while the host asks the user), so its lifetime does not apply; everything else is still checked.
   */
  expiry: 'checked' | 'held';
}

export function checkEnvelope(
  plaintext: Uint8Array,
  binding: StateBinding,
  machine: { id: string; hash: Uint8Array },
  limits: EnvelopeLimits,
): { ok: true; envelope: StateEnvelope } | { ok: false; rejection: EnvelopeRejection } {
  const { nowSeconds, maxRounds } = limits;
  const reject = (code: EnvelopeRejection['code'], detail: string) => ({ ok: false as const, rejection: { code, detail } });
  const decoded = decodeEnvelope(plaintext);
  if (decoded === undefined) return reject('invalid', 'the sealed payload is not a Roundtrip state envelope');
  if (!('snapshot' in decoded))
    return reject('outdated', `envelope format version ${decoded.version}; this server reads version ${ENVELOPE_VERSION}`);
  const e = decoded;
  if (limits.expiry === 'checked' && nowSeconds >= e.exp)
    return reject('expired', `expired ${nowSeconds - e.exp}s ago (issued ${new Date(e.iat * 1000).toISOString()})`);
  if (e.iat > nowSeconds + 60) return reject('invalid', `issued in the future (${new Date(e.iat * 1000).toISOString()})`);
  if (!equal(e.aud, binding.aud)) return reject('mismatch', 'sealed by another server (audience differs)');
  if (!equal(e.sub, binding.sub)) return reject('mismatch', 'sealed for another principal');
  if (!equal(e.target, binding.target)) return reject('mismatch', 'sealed for another method or target (tool, prompt or resource)');
  if (!equal(e.args, binding.args)) return reject('mismatch', 'sealed for other arguments of this target');
  if (!equal(e.machine, machine.hash)) {
    return reject('outdated', `sealed by another version of machine '${machine.id}' (its id, version or structure changed since)`);
  }
  if (e.round < 1 || e.round >= maxRounds) return reject('invalid', `round ${e.round} is past the limit of ${maxRounds} rounds`);
  return { ok: true, envelope: e };
}
