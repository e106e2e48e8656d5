// Amounts are kept in integer cents; this is the one place they become text.

/**
 * Formats an amount in cents as dollars, e.g. 4900 → `$49.00`, 123456 → `$1,234.56`.
 *
 * @example
 * formatCents(4900); // '$49.00'
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`formatCents: expected a whole number of cents, got ${cents}.`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
