// What a Node server's main says when its start failed, the same for every transport: a setting or a
// definition problem says what to fix in its message; anything else is a bug, shown with its stack.
import { RoundtripDefinitionError } from '@roundtrip/engine';
import { RoundtripConfigError } from '../config-error.ts';

/**
 * Reports on stderr why the server `name` did not start (`[name] cannot start: …`) and sets the process's
 * exit code to 1. For a program's main: `runStdioServer` and `runHttpServer` throw instead.
 */
export function reportStartFailure(name: string, error: unknown): undefined {
  const explained = error instanceof RoundtripConfigError || error instanceof RoundtripDefinitionError;
  const message = explained ? error.message : ((error as Error).stack ?? String(error));
  process.stderr.write(`[${name}] cannot start: ${message}\n`);
  process.exitCode = 1;
  return undefined;
}
