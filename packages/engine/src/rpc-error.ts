// The JSON-RPC error an MRTR method answers with instead of a round (unknown name, invalid arguments).
import type { StepOutcome } from './step-outcome.ts';

export const rpcError = <T>(code: number, message: string, data?: Record<string, string | string[]>): StepOutcome<T> => ({
  type: 'error',
  error: { code, message, ...(data === undefined ? {} : { data }) },
});
