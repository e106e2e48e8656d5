#!/usr/bin/env node
// The `roundtrip` command. Plain JavaScript so it runs with `node`; the TypeScript sources (and the
// modules it is pointed at) load through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2), { out: process.stdout, err: process.stderr, cwd: process.cwd() });
