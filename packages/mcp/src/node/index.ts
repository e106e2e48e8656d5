// @roundtrip/mcp/node: what every Node transport of Roundtrip shares (stdio, HTTP): its start-up and release
// (runNodeServer), its settings from the environment and the code, key files, the effect ledger it opens (a
// SQLite file or a PostgreSQL URL), its log on stderr and its startup line, and Stately's inspector. Node only:
// kept out of the package's root so that a web-standard runtime never loads it. Every export here is a decision.

// the one class of setting errors, at the root too (the web-standard HTTP handler throws it): re-exported here
export { type ConfigErrorCode, RoundtripConfigError } from '../config-error.ts';
export { defaultKeyFilePath } from './key-file-path.ts';
export { defaultLedgerPath } from './ledger-file-path.ts';
export { readKeyFile } from './load-key-file.ts';
export { openAnswerRelay } from './open-answer-relay.ts';
export type { ServerSettings, ServerSettingsFromCode } from './resolve-server-settings.ts';
export { resolveServerSettings } from './resolve-server-settings.ts';
export type {
  NodeServerOptions,
  NodeTransport,
  NodeTransportStart,
  NodeTransportStarted,
} from './run-node-server.ts';
export { runNodeServer } from './run-node-server.ts';
export type { ServedEngine, ServedEngineOptions } from './serve-engine.ts';
export { openServedEngine } from './serve-engine.ts';
export { reportStartFailure } from './start-failure.ts';
export { startupMessage } from './startup-message.ts';
export { createStderrLog } from './stderr-log.ts';
export type { PretenuringDecision } from './v8-pretenuring.ts';
export type { TierUpDecision } from './v8-tier-up.ts';
export { tuneV8ForServing, type V8Tuning } from './v8-tuning.ts';
