#!/usr/bin/env node
// Launches the demo MCP server over Streamable HTTP at http://127.0.0.1:$PORT/mcp (PORT 3000 by
// default): `pnpm serve:http`. Plain JavaScript so it runs with `node` from any folder; the TypeScript
// sources load through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/http-server.ts');
