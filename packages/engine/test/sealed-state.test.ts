import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { decodeBase64url, decodePortable, encodeBase64url, encodePortable } from '../src/base64url.ts';
import { createKeyring, generateKey, KEY_BYTES, parseKey, RoundtripDefinitionError } from '../src/index.ts';
import { openState, sealState } from '../src/internal.ts';
import { SEALED_STATE_PREFIX } from '../src/sealed-state.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const encoder = new TextEncoder();
const payload = encoder.encode('{"v":"asking","c":{"orderId":"ord_1"}}');

/** Replaces the character at `index` with a different character of the base64url alphabet. */
function swapChar(text: string, index: number): string {
  const current = ALPHABET.indexOf(text[index]!);
  return text.slice(0, index) + ALPHABET[(current + 1) % 64] + text.slice(index + 1);
}

function splitToken(token: string): { prefix: string; kid: string; body: string } {
  const [prefix, kid, body] = token.split('.') as [string, string, string];
  return { prefix, kid, body };
}

describe.each([
  ['base64url (Buffer where present)', encodeBase64url, decodeBase64url],
  ['base64url (portable, for runtimes without Buffer)', encodePortable, decodePortable],
] as const)('%s', (_name, encodeBase64url, decodeBase64url) => {
  it('round-trips every length from 0 to 70 bytes and matches Node base64url', () => {
    for (let length = 0; length <= 70; length++) {
      const bytes = nacl.randomBytes(length);
      const text = encodeBase64url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(decodeBase64url(text)).toEqual(bytes);
    }
  });

  it('round-trips all 256 byte values', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeBase64url(encodeBase64url(bytes))).toEqual(bytes);
  });

  it('decodes the empty string to no bytes', () => {
    expect(decodeBase64url('')).toEqual(new Uint8Array(0));
  });

  it.each([
    ['a length of 4n+1', 'A'],
    ['a length of 4n+1 after full groups', 'AAAAA'],
    ['non-zero leftover bits after 2 characters', 'AB'],
    ['non-zero leftover bits after 3 characters', 'AAB'],
    ['padding', 'AA=='],
    ['standard base64 plus', 'AA+A'],
    ['standard base64 slash', 'AA/A'],
    ['whitespace', 'AA AA'],
    ['a dot', 'AA.A'],
    ['a non-ASCII letter', 'AAé'],
    ['a character above U+00FF', 'AA\u0100A'],
  ])('rejects text with %s', (_, text) => {
    expect(decodeBase64url(text)).toBeUndefined();
  });
});

describe('seal and open', () => {
  const keyring = createKeyring([generateKey()]);

  it('opens what it sealed, returning the payload and the key id', () => {
    const token = sealState(keyring, payload);
    const opened = openState(keyring, token);
    expect(opened).toEqual({ ok: true, kid: keyring.sealingKid, plaintext: payload });
  });

  it('round-trips an empty payload', () => {
    expect(openState(keyring, sealState(keyring, new Uint8Array(0)))).toEqual({
      ok: true,
      kid: keyring.sealingKid,
      plaintext: new Uint8Array(0),
    });
  });

  it('formats a sealed state as rt1.<kid>.<base64url(nonce ‖ box)> with the sealing key id', () => {
    const token = sealState(keyring, payload);
    expect(SEALED_STATE_PREFIX).toBe('rt1');
    expect(token).toMatch(/^rt1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
    const { kid, body } = splitToken(token);
    expect(kid).toBe(keyring.sealingKid);
    // 24-byte nonce + 16-byte tag + 6-byte header copy + payload
    expect(decodeBase64url(body)!.length).toBe(24 + 16 + 6 + payload.length);
  });

  it('is plain NaCl secretbox: nacl.secretbox.open opens what it seals, and it opens what nacl.secretbox seals', () => {
    const keyText = generateKey();
    const ring = createKeyring([keyText]);
    const key = parseKey(keyText);
    const header = decodeBase64url(ring.sealingKid)!;
    for (const length of [0, 1, 15, 16, 17, 31, 32, 33, 200, 1000]) {
      const bytes = nacl.randomBytes(length);
      const sealed = decodeBase64url(splitToken(sealState(ring, bytes)).body)!;
      const opened = nacl.secretbox.open(sealed.subarray(24), sealed.subarray(0, 24), key);
      expect(opened).toEqual(new Uint8Array([...header, ...bytes]));

      const nonce = nacl.randomBytes(24);
      const box = nacl.secretbox(new Uint8Array([...header, ...bytes]), nonce, key);
      const token = `rt1.${ring.sealingKid}.${encodeBase64url(new Uint8Array([...nonce, ...box]))}`;
      expect(openState(ring, token)).toEqual({ ok: true, kid: ring.sealingKid, plaintext: bytes });
    }
  });

  it('uses a fresh nonce each time, so sealing the same payload twice gives different states', () => {
    expect(sealState(keyring, payload)).not.toBe(sealState(keyring, payload));
  });

  it('never repeats a nonce across many seals (the random bytes are drawn in blocks of 4 KiB, about 170 nonces each)', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const body = decodeBase64url(sealState(keyring, payload).split('.')[2]!)!;
      const nonce = body.subarray(0, 24);
      expect(nonce.some((byte) => byte !== 0)).toBe(true);
      nonces.add(encodeBase64url(nonce));
    }
    expect(nonces.size).toBe(1000);
  });

  it('derives the key id from the key alone, so two keyrings of the same key agree', () => {
    const key = generateKey();
    const a = createKeyring([key]);
    const b = createKeyring([parseKey(key)]);
    expect(a.sealingKid).toBe(b.sealingKid);
    expect(openState(b, sealState(a, payload)).ok).toBe(true);
  });
});

describe('keyring rotation', () => {
  const oldKey = generateKey();
  const newKey = generateKey();
  const before = createKeyring([oldKey]);
  const during = createKeyring([newKey, oldKey]);
  const after = createKeyring([newKey]);

  it('seals with the first key of the ring', () => {
    expect(during.kids).toEqual([after.sealingKid, before.sealingKid]);
    expect(splitToken(sealState(during, payload)).kid).toBe(after.sealingKid);
  });

  it('opens states sealed with any key of the ring', () => {
    const sealedBefore = sealState(before, payload);
    const sealedDuring = sealState(during, payload);
    expect(openState(during, sealedBefore)).toMatchObject({ ok: true, kid: before.sealingKid });
    expect(openState(during, sealedDuring)).toMatchObject({ ok: true, kid: after.sealingKid });
    expect(openState(after, sealedDuring)).toMatchObject({ ok: true });
  });

  it('refuses a state sealed with a key that is not in the ring as unknown_key', () => {
    expect(openState(after, sealState(before, payload))).toEqual({ ok: false, reason: 'unknown_key' });
    expect(openState(before, sealState(during, payload))).toEqual({ ok: false, reason: 'unknown_key' });
  });
});

describe('refusing altered states', () => {
  const keys = [generateKey(), generateKey()] as const;
  const keyring = createKeyring(keys);
  const token = sealState(keyring, payload);
  const { prefix, kid, body } = splitToken(token);

  it('refuses a state with any single byte of the body flipped as tampered', () => {
    const bytes = decodeBase64url(body)!;
    for (let i = 0; i < bytes.length; i++) {
      for (const mask of [0x01, 0x80]) {
        const altered = Uint8Array.from(bytes);
        altered[i]! ^= mask;
        expect(openState(keyring, `${prefix}.${kid}.${encodeBase64url(altered)}`), `byte ${i} ^ ${mask}`).toEqual({
          ok: false,
          reason: 'tampered',
        });
      }
    }
  });

  it('refuses a state with any single character of the body changed', () => {
    for (let i = 0; i < body.length; i++) {
      const opened = openState(keyring, `${prefix}.${kid}.${swapChar(body, i)}`);
      expect(opened.ok, `character ${i}`).toBe(false);
      if (!opened.ok) expect(['tampered', 'malformed']).toContain(opened.reason);
    }
  });

  it('refuses every truncation of a state', () => {
    for (let length = 0; length < token.length; length++) {
      expect(openState(keyring, token.slice(0, length)).ok, `first ${length} characters`).toBe(false);
    }
  });

  it('refuses a body cut below nonce and tag as malformed', () => {
    const short = encodeBase64url(decodeBase64url(body)!.subarray(0, 24 + 15));
    expect(openState(keyring, `${prefix}.${kid}.${short}`)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each(['A', 'AA', 'AAA', 'AAAA', '-TAMPERED', '=', '.', '.AAAA'])('refuses a state with %j appended', (suffix) => {
    expect(openState(keyring, token + suffix).ok).toBe(false);
  });

  it.each([
    ['another version tag', `rt2.${kid}.${body}`],
    ['an upper-case tag', `RT1.${kid}.${body}`],
    ['no tag', `${kid}.${body}`],
    ['an empty tag', `.${kid}.${body}`],
    ['an extra part', `rt1.${kid}.${body}.x`],
    ['not even dots', 'hello'],
    ['the empty string', ''],
  ])('refuses a state with %s as malformed', (_, text) => {
    expect(openState(keyring, text)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a state whose header kid was swapped for another kid of the ring', () => {
    const otherKid = keyring.kids[1]!;
    expect(otherKid).not.toBe(kid);
    expect(openState(keyring, `${prefix}.${otherKid}.${body}`)).toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses a box that opens under the header key but carries another kid inside as header_mismatch', () => {
    // Forge what a holder of key #2 could build: a valid box under key #2 whose sealed header copy names key #1.
    const [firstKid, secondKid] = keyring.kids as [string, string];
    const key = parseKey(keys[1]);
    const inner = new Uint8Array([...decodeBase64url(firstKid)!, ...payload]);
    const nonce = nacl.randomBytes(24);
    const forged = encodeBase64url(new Uint8Array([...nonce, ...nacl.secretbox(inner, nonce, key)]));
    expect(openState(keyring, `rt1.${secondKid}.${forged}`)).toEqual({ ok: false, reason: 'header_mismatch' });
  });
});

describe('keys', () => {
  it('generates 43-character base64url keys of KEY_BYTES bytes', () => {
    const key = generateKey();
    expect(KEY_BYTES).toBe(32);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseKey(key)).toHaveLength(32);
    expect(generateKey()).not.toBe(key);
  });

  it('parses a key with surrounding whitespace (as read from a key file)', () => {
    const key = generateKey();
    expect(parseKey(`  ${key}\n`)).toEqual(parseKey(key));
  });

  it('refuses text that is not base64url, naming the source and how to make a key', () => {
    expect(() => parseKey('not a key!', 'ROUNDTRIP_KEY')).toThrow(
      /^ROUNDTRIP_KEY: it is not base64url text\. Fix: Generate a key with .*randomBytes\(32\)\.toString\('base64url'\)/,
    );
    expect(() => parseKey(Buffer.from(nacl.randomBytes(32)).toString('base64'))).toThrow(/not base64url|decodes to/);
  });

  it('refuses a key of the wrong length, saying how long it is and must be', () => {
    expect(() => parseKey('AAAA')).toThrow(
      'The key: it decodes to 3 bytes; a state key is exactly 32 bytes. Fix: Give 43 base64url characters (32 random bytes).',
    );
    expect(() => parseKey(encodeBase64url(nacl.randomBytes(33)), 'The key file /etc/roundtrip.key')).toThrow(
      /^The key file \/etc\/roundtrip\.key: it decodes to 33 bytes/,
    );
    expect(() => parseKey('')).toThrow(/decodes to 0 bytes/);
  });

  it('throws key errors as RoundtripDefinitionError with code invalid_key and one problem', () => {
    let caught: unknown;
    try {
      parseKey('AAAA', 'ROUNDTRIP_KEY');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RoundtripDefinitionError);
    expect(caught).toMatchObject({ name: 'RoundtripDefinitionError', code: 'invalid_key' });
    expect((caught as RoundtripDefinitionError).problems).toEqual([
      {
        path: ['ROUNDTRIP_KEY'],
        code: 'invalid_key',
        message: 'it decodes to 3 bytes; a state key is exactly 32 bytes.',
        fix: 'Give 43 base64url characters (32 random bytes).',
      },
    ]);
  });

  it('refuses an empty keyring', () => {
    expect(() => createKeyring([])).toThrow(RoundtripDefinitionError);
    expect(() => createKeyring([])).toThrow(
      'createKeyring: no key was given. Fix: Pass at least one key; generate one with generateKey().',
    );
  });

  it('refuses bad keys in a keyring, naming their position', () => {
    expect(() => createKeyring([generateKey(), 'nope!'])).toThrow(/^Key #2: it is not base64url text\. Fix: Generate a key with/);
    expect(() => createKeyring([nacl.randomBytes(16)])).toThrow(
      'Key #1: it has 16 bytes; a state key is exactly 32 bytes. Fix: Give 32 random bytes.',
    );
  });

  it('accepts raw key bytes and copies them', () => {
    const bytes = nacl.randomBytes(32);
    const keyring = createKeyring([bytes]);
    const token = sealState(keyring, payload);
    bytes.fill(0);
    expect(openState(keyring, token).ok).toBe(true);
  });
});
