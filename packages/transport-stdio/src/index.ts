// @roundtrip/transport-stdio: serve Roundtrip tools, prompts and resources to desktop MCP hosts over
// stdio (Node only). This file is the package's API contract: every export here is a decision.

export { RoundtripConfigError } from './config-error.ts';
export type { ServerFactoryOptions } from './create-server-factory.ts';
export { createServerFactory } from './create-server-factory.ts';
export type { InspectReporter } from './inspect-reporter.ts';
export { createInspectReporter } from './inspect-reporter.ts';
export { defaultKeyFilePath } from './key-file-path.ts';
export { defaultLedgerPath } from './ledger-file-path.ts';
export { readKeyFile } from './load-key-file.ts';
export type { ServerSettings, ServerSettingsFromCode } from './resolve-server-settings.ts';
export { resolveServerSettings } from './resolve-server-settings.ts';
export type { RunningStdioServer, StdioServerOptions } from './run-stdio-server.ts';
export { mainStdioServer, runStdioServer } from './run-stdio-server.ts';
