import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import {
  checkEnvelope,
  decodeEnvelope,
  ENVELOPE_VERSION,
  encodeEnvelope,
  type StateBinding,
  type StateEnvelope,
  TAG_BYTES,
} from '../src/state-envelope.ts';

const NOW = 1_800_000_000; // seconds
const tag = (fill: number, bytes: number) => new Uint8Array(bytes).fill(fill);

function makeEnvelope(overrides: Partial<StateEnvelope> = {}): StateEnvelope {
  return {
    iat: NOW - 10,
    exp: NOW + 590,
    aud: tag(1, TAG_BYTES.aud),
    sub: tag(2, TAG_BYTES.sub),
    target: tag(3, TAG_BYTES.target),
    args: tag(4, TAG_BYTES.args),
    machine: tag(5, TAG_BYTES.machine),
    round: 1,
    run: nacl.randomBytes(TAG_BYTES.run),
    questions: new Map([['confirm', tag(6, TAG_BYTES.question)]]),
    snapshot: { version: '1', v: 'asking', c: { orderId: 'ord_1' } },
    ...overrides,
  };
}

const binding: StateBinding = {
  aud: tag(1, TAG_BYTES.aud),
  sub: tag(2, TAG_BYTES.sub),
  target: tag(3, TAG_BYTES.target),
  args: tag(4, TAG_BYTES.args),
};
const machine = { id: 'refund', version: '1', hash: tag(5, TAG_BYTES.machine) };

interface CheckOptions {
  binding?: StateBinding;
  hash?: Uint8Array;
  version?: string;
  migratesFrom?: string[];
  now?: number;
  maxRounds?: number;
}

const check = (bytes: Uint8Array, options: CheckOptions = {}) =>
  checkEnvelope(
    bytes,
    options.binding ?? binding,
    {
      id: machine.id,
      version: options.version ?? machine.version,
      hash: options.hash ?? machine.hash,
      migrations: { paths: new Map((options.migratesFrom ?? []).map((v) => [v, []])) },
    },
    { nowSeconds: options.now ?? NOW, maxRounds: options.maxRounds ?? 64, expiry: 'checked' },
  );

describe('encodeEnvelope / decodeEnvelope', () => {
  it('round-trips every field', () => {
    const envelope = makeEnvelope({
      round: 513,
      questions: new Map([
        ['size', tag(7, TAG_BYTES.question)],
        ['colour', tag(8, TAG_BYTES.question)],
      ]),
      snapshot: {
        version: '2.0.0-beta.1+ünï',
        v: { choosing: { size: 'asking', colour: 'done' } },
        c: { note: 'ünïcødé ✓', n: [1, 2.5, null] },
        h: { x: 'y' },
        ch: { lookup: { src: 'lookup' } },
      },
    });
    const decoded = decodeEnvelope(encodeEnvelope(envelope));
    expect(decoded).toEqual(envelope);
    expect([...(decoded as StateEnvelope).questions.keys()]).toEqual(['size', 'colour']);
  });

  it('round-trips an envelope with no questions and a null context', () => {
    const envelope = makeEnvelope({ questions: new Map(), snapshot: { version: '', v: 'idle', c: null } });
    expect(decodeEnvelope(encodeEnvelope(envelope))).toEqual(envelope);
  });

  it('lays out a fixed 53-byte header with the machine version after the hash, then each question, then the snapshot JSON', () => {
    const envelope = makeEnvelope();
    const bytes = encodeEnvelope(envelope);
    const snapshotJson = JSON.stringify({ v: envelope.snapshot.v, c: envelope.snapshot.c });
    expect(bytes[0]).toBe(ENVELOPE_VERSION);
    expect(ENVELOPE_VERSION).toBe(2);
    expect(bytes.length).toBe(53 + '1'.length + (1 + 'confirm'.length + TAG_BYTES.question) + snapshotJson.length);
    // version u8, iat, exp, aud, sub, target, args, machine hash: the version string's length then its bytes
    expect(bytes[40]).toBe(1);
    expect(new TextDecoder().decode(bytes.subarray(41, 42))).toBe('1');
    expect(new TextDecoder().decode(bytes.subarray(bytes.length - snapshotJson.length))).toBe(snapshotJson);
  });

  it('carries a machine version of up to 64 bytes, refuses to seal a longer one and to read a longer length', () => {
    const longest = makeEnvelope({ snapshot: { version: 'v'.repeat(64), v: 'a', c: null } });
    expect(decodeEnvelope(encodeEnvelope(longest))).toEqual(longest);
    expect(() => encodeEnvelope(makeEnvelope({ snapshot: { version: 'é'.repeat(33), v: 'a', c: null } }))).toThrow(
      'machine version is 66 bytes; a state carries at most 64',
    );
    const bytes = encodeEnvelope(longest);
    bytes[40] = 65;
    expect(decodeEnvelope(bytes)).toBeUndefined();
  });

  it('decodes an envelope that sits inside a larger buffer (a subarray)', () => {
    const envelope = makeEnvelope();
    const bytes = encodeEnvelope(envelope);
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 7);
    expect(decodeEnvelope(padded.subarray(7))).toEqual(envelope);
  });

  it('reports the version of an envelope of a format it does not read instead of reading it', () => {
    const bytes = encodeEnvelope(makeEnvelope());
    bytes[0] = 3;
    expect(decodeEnvelope(bytes)).toEqual({ version: 3 });
  });

  it('returns undefined for every truncation of an envelope', () => {
    const bytes = encodeEnvelope(makeEnvelope());
    for (let length = 0; length < bytes.length; length++) {
      expect(decodeEnvelope(bytes.subarray(0, length)), `first ${length} bytes`).toBeUndefined();
    }
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"x"'],
    ['an object without c', '{"v":"a"}'],
    ['an object without v', '{"c":1}'],
    ['broken JSON', '{"v":'],
  ])('returns undefined when the snapshot is %s', (_, json) => {
    const header = encodeEnvelope(makeEnvelope({ snapshot: { version: '1', v: 0, c: 0 } }));
    const withoutSnapshot = header.subarray(0, header.length - '{"v":0,"c":0}'.length);
    const bytes = new Uint8Array([...withoutSnapshot, ...new TextEncoder().encode(json)]);
    expect(decodeEnvelope(bytes)).toBeUndefined();
  });

  it('returns undefined when a question key is not UTF-8', () => {
    const bytes = encodeEnvelope(makeEnvelope({ questions: new Map([['k', tag(0, TAG_BYTES.question)]]) }));
    bytes[53 + '1'.length + 1] = 0xff; // the key's only byte
    expect(decodeEnvelope(bytes)).toBeUndefined();
  });
});

describe('checkEnvelope', () => {
  it('accepts an envelope that matches the binding, the machine, the clock and the round limit', () => {
    const envelope = makeEnvelope();
    expect(check(encodeEnvelope(envelope))).toEqual({ ok: true, envelope });
  });

  it('refuses an envelope at or after its expiry as expired', () => {
    const bytes = encodeEnvelope(makeEnvelope({ exp: NOW }));
    expect(check(bytes)).toMatchObject({ ok: false, rejection: { code: 'expired', detail: expect.stringMatching(/^expired 0s ago/) } });
    expect(check(bytes, { now: NOW + 30 })).toMatchObject({
      ok: false,
      rejection: { code: 'expired', detail: expect.stringMatching(/^expired 30s ago/) },
    });
    expect(check(bytes, { now: NOW - 1 }).ok).toBe(true);
  });

  it.each([
    ['audience', { aud: tag(9, TAG_BYTES.aud) }, 'other_audience', 'sealed by another server (audience differs)'],
    ['principal', { sub: tag(9, TAG_BYTES.sub) }, 'other_principal', 'sealed for another principal'],
    ['target', { target: tag(9, TAG_BYTES.target) }, 'other_target', 'sealed for another method or target (tool, prompt or resource)'],
    ['arguments', { args: tag(9, TAG_BYTES.args) }, 'other_arguments', 'sealed for other arguments of this target'],
  ] as const)('refuses an envelope bound to another %s as mismatch', (_, change, why, detail) => {
    const result = check(encodeEnvelope(makeEnvelope()), { binding: { ...binding, ...change } });
    expect(result).toEqual({ ok: false, rejection: { code: 'mismatch', why, detail } });
  });

  it('refuses a state of a machine that changed without a version bump as outdated, telling the author to bump it', () => {
    const result = check(encodeEnvelope(makeEnvelope()), { hash: tag(9, TAG_BYTES.machine) });
    expect(result).toEqual({
      ok: false,
      rejection: {
        code: 'outdated',
        why: 'machine_changed',
        detail:
          "machine 'refund' changed but its version is still '1'; bump its version and add a migration from '1', or states sealed before the change are refused",
      },
    });
  });

  it('refuses a state of another machine version that no migration leads from as outdated', () => {
    const result = check(encodeEnvelope(makeEnvelope()), { hash: tag(9, TAG_BYTES.machine), version: '3', migratesFrom: ['2'] });
    expect(result).toEqual({
      ok: false,
      rejection: {
        code: 'outdated',
        why: 'no_migration',
        detail:
          "sealed by version '1' of machine 'refund', which is now version '3' with no migration from '1' (add migrations: { '1': { to, migrate } } to continue such states)",
      },
    });
  });

  it('accepts a state of an earlier machine version that a migration leads from, naming the version to migrate from', () => {
    const envelope = makeEnvelope();
    const result = check(encodeEnvelope(envelope), { hash: tag(9, TAG_BYTES.machine), version: '3', migratesFrom: ['1'] });
    expect(result).toEqual({ ok: true, envelope, migrateFrom: '1' });
  });

  it('accepts a state whose structure hash matches whatever its version string (no migration)', () => {
    const envelope = makeEnvelope();
    expect(check(encodeEnvelope(envelope), { version: '3', migratesFrom: ['1'] })).toEqual({ ok: true, envelope });
  });

  it('refuses an envelope issued more than a minute in the future as invalid, and tolerates a minute of clock skew', () => {
    expect(check(encodeEnvelope(makeEnvelope({ iat: NOW + 61, exp: NOW + 661 })))).toMatchObject({
      ok: false,
      rejection: { code: 'invalid', detail: expect.stringMatching(/^issued in the future/) },
    });
    expect(check(encodeEnvelope(makeEnvelope({ iat: NOW + 60, exp: NOW + 660 }))).ok).toBe(true);
  });

  it('refuses an envelope whose round reached the round limit, or round 0, as invalid', () => {
    expect(check(encodeEnvelope(makeEnvelope({ round: 3 })), { maxRounds: 4 }).ok).toBe(true);
    expect(check(encodeEnvelope(makeEnvelope({ round: 4 })), { maxRounds: 4 })).toEqual({
      ok: false,
      rejection: { code: 'invalid', why: 'round_limit', detail: 'round 4 is past the limit of 4 rounds' },
    });
    expect(check(encodeEnvelope(makeEnvelope({ round: 0 })))).toMatchObject({ ok: false, rejection: { code: 'invalid' } });
  });

  it('refuses an envelope of an unknown format version as outdated', () => {
    const bytes = encodeEnvelope(makeEnvelope());
    bytes[0] = 7;
    expect(check(bytes)).toEqual({
      ok: false,
      rejection: { code: 'outdated', why: 'envelope_version', detail: 'envelope format version 7; this server reads versions 1 and 2' },
    });
  });

  it('refuses a version-0 envelope (older than every format it reads) as sealed by an earlier release', () => {
    const bytes = encodeEnvelope(makeEnvelope());
    bytes[0] = 0;
    expect(check(bytes)).toEqual({
      ok: false,
      rejection: {
        code: 'outdated',
        why: 'envelope_version',
        detail:
          'envelope format version 0; this server reads versions 1 and 2, sealed by an earlier release of Roundtrip (the user starts again)',
      },
    });
  });

  it('refuses garbage as invalid', () => {
    const invalid = {
      ok: false,
      rejection: { code: 'invalid', why: 'not_envelope', detail: 'the sealed payload is not a Roundtrip state envelope' },
    };
    expect(check(new Uint8Array(0))).toEqual(invalid);
    expect(check(new TextEncoder().encode('\u0002 this is not an envelope at all, just text'))).toEqual(invalid);
    const random = nacl.randomBytes(200);
    random[0] = ENVELOPE_VERSION;
    expect(check(random)).toEqual(invalid);
  });

  it('checks expiry before the binding, so an old state for another principal reads as expired', () => {
    const result = check(encodeEnvelope(makeEnvelope({ exp: NOW - 5 })), { binding: { ...binding, sub: tag(9, TAG_BYTES.sub) } });
    expect(result).toMatchObject({ ok: false, rejection: { code: 'expired' } });
  });
});
