// @roundtrip/transport-stdio: serve Roundtrip tools, prompts and resources to desktop MCP hosts over
// stdio (Node only). This file is the package's API contract: every export here is a decision. The
// binding to the SDK's server is @roundtrip/mcp's (createServerFactory), and the settings, key files
// and ledger every Node transport shares are @roundtrip/mcp/node's.

// thrown by runStdioServer for a setting it cannot start with, so its callers can tell one from a bug
export { type ConfigErrorCode, RoundtripConfigError } from '@roundtrip/mcp/node';
export type { RunningStdioServer, StdioServerOptions } from './run-stdio-server.ts';
export { mainStdioServer, runStdioServer } from './run-stdio-server.ts';
