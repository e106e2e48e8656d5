#!/usr/bin/env node
// The `roundtrip` command. Plain JavaScript so it runs with `node`. In the workspace, the TypeScript
// sources (and the modules it is pointed at) load through tsx; in the published package, which holds no
// sources, it is bin/roundtrip-dist.mjs (the compiled dist/), so code that points at this file works in both.
import { existsSync } from 'node:fs';

const sources = new URL('../src/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import(sources.href);
  process.exitCode = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, cwd: process.cwd() });
} else {
  await import('./roundtrip-dist.mjs');
}
