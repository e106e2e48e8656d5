// The tests a flow's conditions make, one comparison each: what decides its branches. Conversations
// tell states apart by which of them hold, and pick answers on both sides of each.
import { type Condition, evaluateCondition } from '../conditions.ts';

/** One comparison of a condition: `when.attendees gt 5`, as a condition of its own. */
export interface AtomicTest {
  /** `form.field` or `input.<argument>`. */
  readonly path: string;
  readonly op: string;
  readonly operand: unknown;
  readonly condition: Condition;
}

const COMBINATORS = new Set(['all', 'any', 'not']);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The comparisons inside one condition, combinators opened. */
function testsIn(condition: unknown, out: AtomicTest[]): void {
  if (!isRecord(condition)) return;
  for (const [key, value] of Object.entries(condition)) {
    if (COMBINATORS.has(key)) {
      for (const inner of Array.isArray(value) ? value : [value]) testsIn(inner, out);
    } else if (isRecord(value)) {
      for (const [op, operand] of Object.entries(value)) {
        out.push({ path: key, op, operand, condition: { [key]: { [op]: operand } } as unknown as Condition });
      }
    }
  }
}

/** Every condition a machine config holds (in its guards' params), each comparison once, in the order met. */
export function conditionTests(config: unknown): AtomicTest[] {
  const found: AtomicTest[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isRecord(node)) return;
    const guard = node.guard;
    if (isRecord(guard) && isRecord(guard.params) && guard.params.condition !== undefined) testsIn(guard.params.condition, found);
    for (const value of Object.values(node)) visit(value);
  };
  visit(config);
  const seen = new Set<string>();
  return found.filter((test) => {
    const id = JSON.stringify([test.path, test.op, test.operand]);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Which of `tests` hold for `values` (`{ input, <form>: answer }`), as a string of 0s and 1s. */
export function testSignature(tests: readonly AtomicTest[], values: unknown): string {
  return tests.map((test) => (evaluateCondition(test.condition, values) ? '1' : '0')).join('');
}
