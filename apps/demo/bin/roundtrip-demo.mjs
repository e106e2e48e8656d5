#!/usr/bin/env node
// Launches the demo MCP server over stdio (what a desktop host runs). Plain JavaScript so a host can
// start it with `node <this file>` from any folder; the TypeScript sources load through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/server.ts');
