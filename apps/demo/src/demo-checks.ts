// The scripted demo's checks: each one stops the demo, saying what differed, when a result is not
// what the script expects.
import type { RoundResult } from './demo-transcript.ts';
import { printVerified, textOf } from './demo-transcript.ts';
import type { OrdersStore } from './orders-store.ts';

export class DemoMismatch extends Error {
  override readonly name = 'DemoMismatch';
}

/** Stops the demo when a result differs from what the script expects. */
export function expectThat(ok: boolean, what: string, actual: unknown): asserts ok {
  if (!ok) throw new DemoMismatch(`${what}\n    got: ${typeof actual === 'string' ? actual : JSON.stringify(actual)}`);
}

/** Expects the one question `key` with exactly `message`; returns the state to answer with. */
export function expectQuestion(result: RoundResult, key: string, message: string): string {
  expectThat(result.resultType === 'input_required', 'expected the server to ask (input_required), not to finish', result);
  const request = result.inputRequests?.[key];
  expectThat(
    request?.method === 'elicitation/create' && request.params?.message === message,
    `expected the question ${key}: "${message}"`,
    result.inputRequests,
  );
  expectThat(
    typeof result.requestState === 'string' && result.requestState.startsWith('rt1.'),
    'expected a sealed requestState (rt1.…)',
    result.requestState,
  );
  return result.requestState;
}

/** Expects a final tool result with this text, error flag and structured status. */
export function expectFinal(result: RoundResult, expected: { text: string | RegExp; isError?: boolean; status: string }) {
  expectThat(result.resultType !== 'input_required', 'expected a final result, but the server asked again', result);
  const text = textOf(result);
  const textOk = typeof expected.text === 'string' ? text === expected.text : expected.text.test(text);
  expectThat(
    textOk,
    `expected the text ${String(typeof expected.text === 'string' ? JSON.stringify(expected.text) : expected.text)}`,
    text,
  );
  expectThat(Boolean(result.isError) === Boolean(expected.isError), `expected isError to be ${Boolean(expected.isError)}`, result.isError);
  expectThat(
    result.structuredContent?.status === expected.status,
    `expected structuredContent.status "${expected.status}"`,
    result.structuredContent,
  );
}

/** Expects `count` refund rows for the order (and, when given, that the one refunded exactly `amountCents`). */
export async function expectRefunds(
  store: OrdersStore,
  orderId: string,
  count: number,
  options: { note?: string; amountCents?: number } = {},
): Promise<void> {
  const rows = await store.refundsOf(orderId);
  expectThat(rows.length === count, `expected ${count} refund row${count === 1 ? '' : 's'} for ${orderId} in the database`, rows);
  if (options.amountCents !== undefined)
    expectThat(rows[0]?.amountCents === options.amountCents, `expected the refund of ${orderId} to be ${options.amountCents} cents`, rows);
  const amount = options.amountCents === undefined ? '' : ` of ${options.amountCents} cents`;
  printVerified(`database: ${count} refund row${count === 1 ? '' : 's'}${amount} for ${orderId}${options.note ?? ''}`);
}

/** Flips one character of the sealed part of a state, keeping it well-formed base64url. */
export function tamper(state: string): { forged: string; at: number; from: string; to: string } {
  const at = state.length - 7;
  const from = state[at]!;
  const to = from === 'A' ? 'B' : 'A';
  return { forged: state.slice(0, at) + to + state.slice(at + 1), at, from, to };
}
