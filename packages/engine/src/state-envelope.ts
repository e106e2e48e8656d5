import type { JsonObject, JsonValue } from './wire-shapes.ts';

/**
 * Format version of the plaintext inside a sealed state, the one this release seals. Version 2 added the machine's
 * version string. Every format in {@link ENVELOPE_FORMATS} is still read, so a deploy that changes the format keeps
 * the states sealed before it open until they expire.
 */
export const ENVELOPE_VERSION = 2;

/**
 * How each format version this release reads differs from the one it seals: one entry a version (a new format
 * adds one, and keeps the entry of the one before it for as long as states of it may live).
 * `machineVersion`: the header carries the machine's version string after its hash (version 1 did not: such a
 * state reads as sealed by version '0', the version of a machine that declares none).
 */
export const ENVELOPE_FORMATS: Readonly<Record<number, { readonly machineVersion: boolean }>> = {
  1: { machineVersion: false },
  2: { machineVersion: true },
};

/** The versions this release reads, in words: "1 and 2". */
const READ_VERSIONS = Object.keys(ENVELOPE_FORMATS)
  .join(' and ')
  .replace(/ and (?=.* and )/g, ', ');

/** The longest machine version string (UTF-8 bytes) a state can carry. */
export const MAX_MACHINE_VERSION_BYTES = 64;

/** Byte lengths of the tags and digests in an envelope. */
export const TAG_BYTES = { aud: 4, sub: 6, target: 4, args: 9, machine: 8, run: 9, question: 6 } as const;

/** A settled snapshot without the parts that are always the same when sealed. */
export interface CompactSnapshot {
  /**
   * The version of the machine that took the snapshot (`machine.version`, '0' when it has none). Sealed
   * in the envelope's header, beside the structure hash, so a later version knows what to migrate from.
   */
  version: string;
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
  /** digest of the machine's id, version and structure (its version string is `snapshot.version`) */
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

/**
 * Why a requestState was refused, one code per check, for the operator's log (`state_rejected` entries):
 * finer than the four reasons the client sees.
 */
export type StateRefusal =
  | 'not_text'
  | 'too_large'
  | 'malformed'
  | 'unknown_key'
  | 'tampered'
  | 'header_mismatch'
  | 'not_envelope'
  | 'envelope_version'
  | 'expired'
  | 'issued_in_future'
  | 'other_audience'
  | 'other_principal'
  | 'other_target'
  | 'other_arguments'
  | 'round_limit'
  | 'machine_changed'
  | 'no_migration'
  | 'migration_failed'
  | 'snapshot_misfit';

/** Why an opened state was refused. `code` goes to the client as `data.reason`; `why` and `detail` to the log only. */
export interface EnvelopeRejection {
  code: 'invalid' | 'expired' | 'mismatch' | 'outdated';
  why: StateRefusal;
  detail: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The machine a state is checked against: the current one, and the versions it can migrate from. */
export interface MachineIdentity {
  id: string;
  version: string;
  hash: Uint8Array;
  /** The definition's migrations: `paths` holds every version they lead from to this one. */
  migrations?: { readonly paths: ReadonlyMap<string, unknown> } | undefined;
}

/**
 * Binary layout (version 2): version u8, iat u32, exp u32, aud, sub, target, args, machine, machine
 * version (length u8, UTF-8), round u16, run, question count u8 and per question (key length u8, key,
 * digest), then the snapshot as JSON. Fixed-size binary keeps a sealed state close to the size of the
 * snapshot itself.
 */
export function encodeEnvelope(e: StateEnvelope): Uint8Array {
  const { version: machineVersion, ...snapshotJson } = e.snapshot;
  const versionBytes = encoder.encode(machineVersion);
  if (versionBytes.length > MAX_MACHINE_VERSION_BYTES) {
    throw new RangeError(`machine version is ${versionBytes.length} bytes; a state carries at most ${MAX_MACHINE_VERSION_BYTES}`);
  }
  const snapshot = encoder.encode(JSON.stringify(snapshotJson));
  const fixed =
    1 + 4 + 4 + TAG_BYTES.aud + TAG_BYTES.sub + TAG_BYTES.target + TAG_BYTES.args + TAG_BYTES.machine + 1 + 2 + TAG_BYTES.run + 1;
  // the questions are read from their map, here and below, not gathered into an array first: an empty
  // array has another hidden class than a full one, and the first envelope without questions made V8
  // throw this function's optimized code away (--trace-deopt on bench/warm-up.ts)
  let size = fixed + versionBytes.length + snapshot.length;
  for (const key of e.questions.keys()) size += 1 + encoder.encode(key).length + TAG_BYTES.question;
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
  out[at++] = versionBytes.length;
  out.set(versionBytes, at);
  at += versionBytes.length;
  view.setUint16(at, e.round);
  at += 2;
  out.set(e.run, at);
  at += e.run.length;
  out[at++] = e.questions.size;
  for (const [key, digest] of e.questions) {
    const keyBytes = encoder.encode(key);
    out[at++] = keyBytes.length;
    out.set(keyBytes, at);
    at += keyBytes.length;
    out.set(digest, at);
    at += digest.length;
  }
  out.set(snapshot, at);
  return out;
}

/** Where decodeEnvelope reads. */
interface Reader {
  readonly bytes: Uint8Array;
  at: number;
}

/** The next `n` bytes, as a view of the opened bytes (which nothing else holds or changes). */
function take(r: Reader, n: number): Uint8Array {
  if (r.at + n > r.bytes.length) throw new RangeError('envelope truncated');
  const part = r.bytes.subarray(r.at, r.at + n);
  r.at += n;
  return part;
}

/** A few bytes of UTF-8 as text (a machine version, a question key): ASCII read directly, the rest decoded. */
function shortText(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) return decoder.decode(bytes);
    text += String.fromCharCode(b);
  }
  return text;
}

/** The next byte. */
function byte(r: Reader): number {
  if (r.at >= r.bytes.length) throw new RangeError('envelope truncated');
  return r.bytes[r.at++]!;
}

/**
 * Reads an envelope of any format in ENVELOPE_FORMATS; the format version alone when it is none of those; undefined
 * when the bytes are not an envelope.
 */
export function decodeEnvelope(bytes: Uint8Array): StateEnvelope | { version: number } | undefined {
  if (bytes.length < 1) return undefined;
  const format = ENVELOPE_FORMATS[bytes[0]!];
  if (format === undefined) return { version: bytes[0]! };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r: Reader = { bytes, at: 1 };
  try {
    const iat = view.getUint32(r.at);
    const exp = view.getUint32(r.at + 4);
    r.at += 8;
    const aud = take(r, TAG_BYTES.aud);
    const sub = take(r, TAG_BYTES.sub);
    const target = take(r, TAG_BYTES.target);
    const args = take(r, TAG_BYTES.args);
    const machine = take(r, TAG_BYTES.machine);
    let machineVersion = '0';
    if (format.machineVersion) {
      const versionLength = byte(r);
      if (versionLength > MAX_MACHINE_VERSION_BYTES) return undefined;
      machineVersion = shortText(take(r, versionLength));
    }
    const round = view.getUint16(r.at);
    r.at += 2;
    const run = take(r, TAG_BYTES.run);
    const count = byte(r);
    const questions = new Map<string, Uint8Array>();
    for (let i = 0; i < count; i++) {
      const key = shortText(take(r, byte(r)));
      questions.set(key, take(r, TAG_BYTES.question));
    }
    const parsed = JSON.parse(decoder.decode(bytes.subarray(r.at))) as Partial<CompactSnapshot>;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('v' in parsed) || !('c' in parsed)) return undefined;
    // the parsed object is this call's own: stamped with the header's version in place, not copied
    parsed.version = machineVersion;
    const snapshot = parsed as CompactSnapshot;
    return { iat, exp, aud, sub, target, args, machine, round, run, questions, snapshot };
  } catch {
    return undefined;
  }
}

/** Whether two tags or digests hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

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

/** A checked envelope; `migrateFrom` is set when it was sealed by an older version that migrations lead from. */
export type CheckedEnvelope = { ok: true; envelope: StateEnvelope; migrateFrom?: string } | { ok: false; rejection: EnvelopeRejection };

const reject = (code: EnvelopeRejection['code'], why: StateRefusal, detail: string): CheckedEnvelope => ({
  ok: false,
  rejection: { code, why, detail },
});

/**
 * Checks an opened state against the current request, the machine and the clock. Integrity is
 * already proven by the box; this proves the state belongs here and now, and was sealed by this
 * machine or by a version the definition's migrations lead from (which the caller then migrates).
 */
export function checkEnvelope(
  plaintext: Uint8Array,
  binding: StateBinding,
  machine: MachineIdentity,
  limits: EnvelopeLimits,
): CheckedEnvelope {
  const { nowSeconds, maxRounds } = limits;
  const decoded = decodeEnvelope(plaintext);
  if (decoded === undefined) return reject('invalid', 'not_envelope', 'the sealed payload is not a Roundtrip state envelope');
  if (!('snapshot' in decoded)) {
    const before = decoded.version < ENVELOPE_VERSION ? ', sealed by an earlier release of Roundtrip (the user starts again)' : '';
    return reject(
      'outdated',
      'envelope_version',
      `envelope format version ${decoded.version}; this server reads versions ${READ_VERSIONS}${before}`,
    );
  }
  const e = decoded;
  if (limits.expiry === 'checked' && nowSeconds >= e.exp)
    return reject('expired', 'expired', `expired ${nowSeconds - e.exp}s ago (issued ${new Date(e.iat * 1000).toISOString()})`);
  if (e.iat > nowSeconds + 60)
    return reject('invalid', 'issued_in_future', `issued in the future (${new Date(e.iat * 1000).toISOString()})`);
  if (!sameBytes(e.aud, binding.aud)) return reject('mismatch', 'other_audience', 'sealed by another server (audience differs)');
  if (!sameBytes(e.sub, binding.sub)) return reject('mismatch', 'other_principal', 'sealed for another principal');
  if (!sameBytes(e.target, binding.target))
    return reject('mismatch', 'other_target', 'sealed for another method or target (tool, prompt or resource)');
  if (!sameBytes(e.args, binding.args)) return reject('mismatch', 'other_arguments', 'sealed for other arguments of this target');
  if (e.round < 1 || e.round >= maxRounds)
    return reject('invalid', 'round_limit', `round ${e.round} is past the limit of ${maxRounds} rounds`);
  if (sameBytes(e.machine, machine.hash)) return { ok: true, envelope: e };
  const sealed = e.snapshot.version;
  if (sealed === machine.version) {
    return reject(
      'outdated',
      'machine_changed',
      `machine '${machine.id}' changed but its version is still '${sealed}'; bump its version and add a migration from '${sealed}', or states sealed before the change are refused`,
    );
  }
  if (machine.migrations?.paths.has(sealed)) return { ok: true, envelope: e, migrateFrom: sealed };
  return reject(
    'outdated',
    'no_migration',
    `sealed by version '${sealed}' of machine '${machine.id}', which is now version '${machine.version}' with no migration from '${sealed}' (add migrations: { '${sealed}': { to, migrate } } to continue such states)`,
  );
}
