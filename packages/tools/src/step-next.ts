// Where a step goes once answered, as an author writes it: a step name, or rules tried in order, each
// going to a step or ending the flow there. Every kind of step takes one (`next`).
import type { Condition } from './condition-paths.ts';

/** Where a step goes once answered: a step name, `'finish'` (the final action), or rules tried in order. */
export type Next = string | readonly NextRule[];

/**
 * One rule of `next`, applied when `if` holds (no `if`: always): `goto` a step (or `'finish'`), or `end`
 * the flow there with a message for the user, a template like the forms' messages
 * (`{ if: { 'order.found': { eq: false } }, end: 'There is no order {{input.orderId}}.' }`). Nothing is
 * done; the result says why (a tool's is an error result), or `ended` words it.
 */
export type NextRule =
  | { readonly if?: Condition; readonly goto: string; readonly end?: undefined }
  | { readonly if?: Condition; readonly end: string; readonly goto?: undefined };
