// The `order_id` argument of every tool and prompt that takes one: an id is short, so a long one is
// refused by validation (with what is wrong) before anything repeats it.
import { z } from 'zod';

/** The longest order id accepted; the shop's ids look like `ord_51`. */
const MAX_ORDER_ID_CHARS = 64;

/** The zod schema of an `order_id` argument. */
export const orderIdArgument = z.string().min(1).max(MAX_ORDER_ID_CHARS).describe("The order's id, e.g. 'ord_51'");
