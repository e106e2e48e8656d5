#!/usr/bin/env node
// The `roundtrip` command as published: the compiled JavaScript in dist/ runs with plain `node`.
// (In the workspace, bin/roundtrip.mjs runs the TypeScript sources instead.) tsx is loaded only when
// the command is pointed at a TypeScript module (.ts, .mts, .cts), so a JavaScript module loads without it.
import { main } from '../dist/main.js';

const args = process.argv.slice(2);
if (args.some((arg) => /\.[cm]?tsx?$/.test(arg))) {
  const { register } = await import('tsx/esm/api');
  register();
}
process.exitCode = await main(args, { out: process.stdout, err: process.stderr, cwd: process.cwd() });
