/**
 * `compute` remembering its last argument and result: for a value every request of a client repeats (its
 * request target, its URL), computed once instead of each time. Only for a pure `compute` whose result is
 * not changed by its users (a string); a throw is not remembered.
 */
export function memoLast<A, R>(compute: (arg: A) => R): (arg: A) => R {
  let last: { arg: A; result: R } | undefined;
  return (arg) => {
    if (last !== undefined && last.arg === arg) return last.result;
    const result = compute(arg);
    last = { arg, result };
    return result;
  };
}
