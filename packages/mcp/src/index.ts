// @roundtrip/mcp: the binding of Roundtrip's engine to the official MCP SDK's server, for every
// transport and both eras. This file is the package's API contract: every export here is a decision.
// It reaches no `node:` module and no native code, so a web-standard runtime can load it; what only
// Node can run (settings from the environment, key files, the SQLite ledger, the stderr log) is
// behind the `@roundtrip/mcp/node` subpath.

export { type ConfigErrorCode, type ConfigErrorOptions, RoundtripConfigError } from './config-error.ts';
export type { ServerFactoryOptions } from './create-server-factory.ts';
export { createServerFactory } from './create-server-factory.ts';
export type { InspectReporter } from './inspect-reporter.ts';
export { createInspectReporter } from './inspect-reporter.ts';
