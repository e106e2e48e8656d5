#!/usr/bin/env node
// better-sqlite3 (a native addon) built for the Node that runs the project's scripts: the root `postinstall`.
// pnpm builds it during the install under the Node that runs pnpm (the system's, 20 on a fresh machine), or
// restores that build from its store, while every pnpm script runs on the Node 22 of the `node` devDependency
// (node_modules/.bin comes first on their PATH): there it would fail with ERR_DLOPEN_FAILED (NODE_MODULE_VERSION
// 115 against 127). So this script, run by pnpm after the dependencies are built and so on that Node 22,
// loads better-sqlite3; only when it was built for another Node (or not at all) it compiles it again in its
// package folder with node-gyp against this Node's own headers (scripts/node-headers.mjs), offline, in about a
// minute. Idempotent: once it loads, a later install does nothing (a fraction of a second).
//
// pnpm does not see this build: its store keeps the build it made itself, under its own Node's key
// (linux;x64;node20), and the build folder is removed before compiling, so no file shared with the store
// (pnpm hardlinks them) is written. Needs python3, make and a C++ compiler, as pnpm's own build does.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeHeaders } from './node-headers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`native-build: ${line}\n`);
const node = `Node ${process.versions.node} (NODE_MODULE_VERSION ${process.versions.modules})`;

const folder = dirname(createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json'));
const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
const name = `better-sqlite3 ${version}`;

/** Why better-sqlite3 does not open a database in a fresh process on this Node: '' when it does. */
function loadError() {
  const opened = spawnSync(process.execPath, ['-e', `new (require(${JSON.stringify(folder)}))(':memory:').close()`], {
    encoding: 'utf8',
  });
  return opened.status === 0 ? '' : opened.stderr || `exit status ${opened.status}`;
}

const before = loadError();
if (before === '') process.exit(0);
const built = before.match(/NODE_MODULE_VERSION (\d+)/)?.[1];
if (!built && !/Could not locate the bindings file/.test(before)) {
  say(`${name} does not load on ${node}, and not for want of a build for this Node: ${before.trim()}`);
  process.exit(1);
}
const headers = nodeHeaders();
if (!headers) {
  say(
    `${name} needs compiling for ${node}, but no headers of that Node (include/node) were found next to ${process.execPath}: ` +
      'set npm_config_nodedir to a folder holding them, then run the install again',
  );
  process.exit(1);
}
say(
  `${name} was ${built ? `built for NODE_MODULE_VERSION ${built}` : 'not built'}, the scripts run on ${node}: ` +
    `compiling it for this Node against the headers in ${headers} (offline, about a minute)`,
);
const started = Date.now();
// never write through the files pnpm hardlinked from its store (they hold its own build): a new build folder
rmSync(join(folder, 'build'), { recursive: true, force: true });
// node-gyp from the PATH that pnpm gives its scripts (its own copy, or npm's when pnpm runs under npx)
const gyp = spawnSync('node-gyp', ['rebuild', '--release', `--nodedir=${headers}`], {
  cwd: folder,
  encoding: 'utf8',
  env: { ...process.env, npm_config_nodedir: headers },
  maxBuffer: 64 * 1024 * 1024,
});
if (gyp.status !== 0) {
  const output = `${gyp.stdout ?? ''}${gyp.stderr ?? ''}`.trimEnd().split('\n').slice(-40).join('\n');
  say(`node-gyp failed in ${folder} (${gyp.error?.message ?? `exit status ${gyp.status}`}); the end of its output:`);
  process.stderr.write(`${output}\n`);
  say('node-gyp needs python3, make and a C++ compiler; run this from a pnpm script (`pnpm install`), which puts node-gyp on PATH');
  process.exit(1);
}
const after = loadError();
if (after !== '') {
  say(`${name} was compiled for ${node} but still does not load: ${after.trim()}`);
  process.exit(1);
}
say(`${name} loads on ${node} (compiled in ${Math.round((Date.now() - started) / 1000)} s)`);
