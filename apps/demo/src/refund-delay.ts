// How long the demo's payment provider takes to refund one order (refund_customer): a slow provider.

const DEFAULT_REFUND_MS = 2000;
const MAX_REFUND_MS = 600_000;

/**
 * `ROUNDTRIP_DEMO_REFUND_MS` (whole milliseconds, 0 to 600000), else 2000: how long refund_customer's
 * payment provider takes for each order it refunds. Throws an Error naming the variable and what it
 * takes when the value is not such a number.
 *
 * @example
 * demoRefundMs({ ROUNDTRIP_DEMO_REFUND_MS: '1' }); // 1
 */
export function demoRefundMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ROUNDTRIP_DEMO_REFUND_MS?.trim();
  if (!raw) return DEFAULT_REFUND_MS;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_REFUND_MS) {
    throw new Error(
      `ROUNDTRIP_DEMO_REFUND_MS is ${JSON.stringify(raw)}; set it to how long the demo's payment provider takes to refund one order, ` +
        `in whole milliseconds from 0 to ${MAX_REFUND_MS} (default ${DEFAULT_REFUND_MS}), or unset it.`,
    );
  }
  return Number(raw);
}

/** Waits `ms` like a provider call would, or rejects as soon as `signal` fires (nothing is refunded then). */
export function providerDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
