// Whether the demo server keeps its effect ledger in its own database (and so runs refund_order's refund in
// the ledger's transaction): yes unless ROUNDTRIP_LEDGER names another place.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerInDatabase } from '../src/db-location.ts';

describe('ledgerInDatabase', () => {
  const file = resolve('data/orders.db');
  const url = 'postgres://demo:secret@db.internal:5432/shop';

  it('is true without ROUNDTRIP_LEDGER, or blank, or naming the same file (relative or not) or the same URL', () => {
    expect(ledgerInDatabase(file, {})).toBe(true);
    expect(ledgerInDatabase(file, { ROUNDTRIP_LEDGER: '  ' })).toBe(true);
    expect(ledgerInDatabase(file, { ROUNDTRIP_LEDGER: 'data/orders.db' })).toBe(true);
    expect(ledgerInDatabase(url, { ROUNDTRIP_LEDGER: url })).toBe(true);
  });

  it('is false for another file, another URL (another schema too), a URL beside a file, and :memory:', () => {
    expect(ledgerInDatabase(file, { ROUNDTRIP_LEDGER: 'data/ledger.db' })).toBe(false);
    expect(ledgerInDatabase(url, { ROUNDTRIP_LEDGER: `${url}?options=-c%20search_path%3Dledger` })).toBe(false);
    expect(ledgerInDatabase(file, { ROUNDTRIP_LEDGER: url })).toBe(false);
    expect(ledgerInDatabase(file, { ROUNDTRIP_LEDGER: ':memory:' })).toBe(false);
  });
});
