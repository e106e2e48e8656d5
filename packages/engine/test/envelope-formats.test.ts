// Envelope formats by version: a release reads every format in ENVELOPE_FORMATS, so a deploy that changes the
// format keeps the states sealed before it open until they expire. A conversation whose state was sealed in
// format 1 (before machine versions were carried: read as sealed by version '0') goes on to its result; a format
// this release does not know is refused as outdated, naming the versions it reads.
import { describe, expect, it } from 'vitest';
import { openState, sealState } from '../src/internal.ts';
import { ENVELOPE_FORMATS, ENVELOPE_VERSION } from '../src/state-envelope.ts';
import { makeSubmitTool, type SubmitCounter, validDetails } from './adversarial-tool.ts';
import { accept, complete, inputRequired, makeEngine, refused, sharedKeyring } from './support.ts';

/** Where the machine version's length byte sits in a format-2 envelope: after version, iat, exp and five tags. */
const VERSION_AT = 1 + 4 + 4 + 4 + 6 + 4 + 9 + 8;

/** The same envelope in format 1: no machine version in the header (the machine must be one that declares none). */
function asFormatOne(plaintext: Uint8Array): Uint8Array {
  const length = plaintext[VERSION_AT]!;
  const out = new Uint8Array(plaintext.length - 1 - length);
  out.set(plaintext.subarray(0, VERSION_AT));
  out.set(plaintext.subarray(VERSION_AT + 1 + length), VERSION_AT);
  out[0] = 1;
  return out;
}

function resealed(state: string, change: (plaintext: Uint8Array) => Uint8Array): string {
  const opened = openState(sharedKeyring, state);
  if (!opened.ok) throw new Error('the state did not open');
  return sealState(sharedKeyring, change(opened.plaintext));
}

const args = { account: 'acct_1' };

describe('envelope formats', () => {
  it('seals format 2 and reads formats 1 and 2', () => {
    expect(ENVELOPE_VERSION).toBe(2);
    expect(Object.keys(ENVELOPE_FORMATS)).toEqual(['1', '2']);
  });

  it('continues a conversation whose state was sealed in format 1, to its result', async () => {
    const counter: SubmitCounter = { runs: 0 };
    const test = makeEngine([makeSubmitTool(counter)]);
    const state = inputRequired(await test.call({ name: 'submit_request', arguments: args })).requestState;
    const old = resealed(state!, (plaintext) => {
      expect(plaintext[0]).toBe(2);
      expect(new TextDecoder().decode(plaintext.subarray(VERSION_AT + 1, VERSION_AT + 1 + plaintext[VERSION_AT]!))).toBe('0');
      return asFormatOne(plaintext);
    });
    const details = accept(validDetails);
    const next = inputRequired(
      await test.call({ name: 'submit_request', arguments: args, requestState: old, inputResponses: { details } }),
    );
    expect(Object.keys(next.inputRequests ?? {})).toEqual(['confirm']);
    const confirm = { confirm: accept({ confirm: true }) };
    const outcome = await test.call({ name: 'submit_request', arguments: args, requestState: next.requestState, inputResponses: confirm });
    expect(complete(outcome).result.isError).toBeFalsy();
    expect(counter.runs).toBe(1);
  });

  it('refuses a state of a format this release does not read as outdated, naming the versions it reads', async () => {
    const test = makeEngine([makeSubmitTool({ runs: 0 })]);
    const state = inputRequired(await test.call({ name: 'submit_request', arguments: args })).requestState;
    const future = resealed(state!, (plaintext) => {
      const copy = plaintext.slice();
      copy[0] = 9;
      return copy;
    });
    const outcome = await test.call({ name: 'submit_request', arguments: args, requestState: future, inputResponses: {} });
    expect(outcome).toMatchObject(refused('outdated'));
    expect(test.logs.map((entry) => entry.message ?? '').join('\n')).toContain(
      'envelope format version 9; this server reads versions 1 and 2',
    );
  });
});
