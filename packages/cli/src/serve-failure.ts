// What `roundtrip serve` says when the server it started stopped at start, over stdio and over HTTP alike: a
// setting problem in the words of the command line (a variable given by flag is named by its flag), a
// definition problem against the module, anything else (a bug) with its stack. Exit code 1 either way.
import { RoundtripDefinitionError } from '@roundtrip/engine';
import { RoundtripConfigError } from '@roundtrip/mcp';
import type { CommandIo } from './command-io.ts';
import { EXIT } from './exit-codes.ts';
import type { ServeOptions } from './serve-options.ts';
import type { ServerModule } from './server-module.ts';

/** Writes why `served` did not start to stderr; returns the exit code. */
export function reportServeFailure(io: CommandIo, served: ServerModule, options: ServeOptions, error: unknown): number {
  if (error instanceof RoundtripConfigError) {
    const byFlag = options.settings.find((s) => s.variable === error.setting);
    const message = byFlag ? error.message.replaceAll(byFlag.variable, byFlag.flag) : error.message;
    io.err.write(`roundtrip serve: cannot start ${served.name}: ${message}\n`);
  } else if (error instanceof RoundtripDefinitionError) {
    io.err.write(`roundtrip serve: cannot serve ${served.path}: ${error.message}\n`);
  } else {
    io.err.write(`roundtrip serve: cannot start ${served.name}: ${(error as Error).stack ?? String(error)}\n`);
  }
  return EXIT.failed;
}
