import { canonicalJson } from './digest.ts';

/**
 * What an effect declared with `confirmed` throws, instead of acting, when the value the user
 * confirmed is no longer the live one (the order's amount changed between the question and the
 * answer). The machine gets it as the invoke's `onError` event: ask again with the new value.
 *
 * @example
 * onError: [{ guard: 'amountChanged', target: 'confirming', actions: 'rememberNewAmount' }, { target: 'failed' }]
 * // guards: { amountChanged: ({ event }) => event.error instanceof ConfirmedValueChangedError }
 */
export class ConfirmedValueChangedError extends Error {
  override readonly name = 'ConfirmedValueChangedError';
  /** The invoke id of the effect that did not act. */
  readonly effect: string;
  /** What the user saw and confirmed. */
  readonly shown: unknown;
  /** What the value is now. */
  readonly current: unknown;

  constructor(effect: string, shown: unknown, current: unknown) {
    super(
      `Effect '${effect}' did not act: the user confirmed ${canonicalJson(shown)}, but the value is now ${canonicalJson(current)}. Ask again with the new value.`,
    );
    this.effect = effect;
    this.shown = shown;
    this.current = current;
  }
}
