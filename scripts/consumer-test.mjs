#!/usr/bin/env node
// The packages as a user gets them: packs every published package with pnpm from a clean state (each
// builds on prepack), checks what each tarball holds, installs the tarballs with plain npm into a new
// project outside the workspace, typechecks a tool written there with a standard NodeNext tsconfig,
// compiles it, runs the server with plain `node` and drives a conversation with it over stdio (see
// consumer-project/); then installs the HTTP transport alone in another project, where npm leaves out
// better-sqlite3 (an optional peer), and serves over HTTP with the ledger in memory.
// Prints one PASS or FAIL line per check; exits 1 on the first failure. `pnpm test:consumer`.
// Set ROUNDTRIP_CONSUMER_KEEP=1 to keep the temporary project for a look.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTarball } from './check-tarball.mjs';
import { nodeHeaders } from './node-headers.mjs';
import { nodeOnlyImports } from './node-only-imports.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The published packages, in dependency order. */
const PACKAGES = ['engine', 'tools', 'mcp', 'transport-stdio', 'transport-http', 'visualize', 'cli'];
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** One line of the report, on stdout. */
const say = (line) => process.stdout.write(`${line}\n`);

function pass(what) {
  say(`PASS ${what} (${seconds()})`);
}
function fail(what, detail) {
  say(`FAIL ${what}`);
  if (detail) say(String(detail).trimEnd().replace(/^/gm, '  '));
  say(`consumer test: FAILED after ${seconds()}${keep ? `; the project is kept in ${work}` : ''}`);
  process.exit(1);
}
/** Runs a command; on failure prints its output under a FAIL line and exits. */
function run(what, command, args, options = {}) {
  try {
    const output = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
    pass(what);
    return output;
  } catch (error) {
    fail(
      what,
      `$ ${command} ${args.join(' ')}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.stdout || error.stderr ? '' : error.message}`,
    );
  }
}

/** pnpm as the workspace runs it: the one running this script, or the version `packageManager` names. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  return ['npx', ['-y', rootManifest.packageManager]];
}

const keep = process.env.ROUNDTRIP_CONSUMER_KEEP === '1';
// the `node` devDependency's command (what runs this script under pnpm) sets NODE_PATH to the workspace's
// modules: the project outside it must find only what npm installed there
delete process.env.NODE_PATH;
const work = mkdtempSync(join(tmpdir(), 'roundtrip-consumer-'));
if (!relative(root, work).startsWith('..')) fail('the temporary project is outside the workspace', `${work} is inside ${root}`);
process.on('exit', () => {
  if (!keep) rmSync(work, { recursive: true, force: true });
});
say(`consumer test in ${work}`);

// ─── build and pack ───────────────────────────────────────────────────────────────────────────────

// from a clean state, as after a fresh clone: nothing builds the packages but their own prepack scripts
for (const name of PACKAGES) rmSync(join(root, 'packages', name, 'dist'), { recursive: true, force: true });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const [pnpm, pnpmArgs] = pnpmCommand();
const filters = PACKAGES.flatMap((name) => ['--filter', `@roundtrip/${name}`]);
run(
  'pnpm pack of every package, unbuilt: each builds on prepack',
  pnpm,
  [...pnpmArgs, '--recursive', ...filters, 'pack', '--pack-destination', tarballs],
  { cwd: root },
);
const files = readdirSync(tarballs).filter((file) => file.endsWith('.tgz'));
if (files.length !== PACKAGES.length) fail(`one tarball per package`, `found ${files.join(', ')}`);
for (const file of files) {
  const problems = checkTarball(join(tarballs, file));
  if (problems.length > 0) fail(`contents of ${file}`, problems.join('\n'));
  pass(`contents of ${file}: dist with declarations, README, LICENSE, no sources or tests, no workspace: versions`);
}

// ─── a new project that installs the tarballs with npm ────────────────────────────────────────────

const project = join(work, 'project');
cpSync(join(root, 'scripts', 'consumer-project'), project, { recursive: true });
const versionOf = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
const clientVersion = JSON.parse(readFileSync(join(root, 'packages', 'cli', 'package.json'), 'utf8')).dependencies[
  '@modelcontextprotocol/client'
];
writeFileSync(
  join(project, 'package.json'),
  `${JSON.stringify({ name: 'roundtrip-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// Install scripts are skipped: the only one that matters is better-sqlite3's, which downloads a prebuilt
// binary or else compiles SQLite for minutes. The workspace's own build of the same version is reused
// when it loads in this Node; otherwise npm rebuilds it here.
run(
  'npm install of the tarballs, zod, xstate and the MCP client in a project outside the workspace',
  npm,
  [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--ignore-scripts',
    ...files.map((file) => join(tarballs, file)),
    `zod@${versionOf('zod')}`,
    `xstate@${versionOf('xstate')}`,
    `@modelcontextprotocol/client@${clientVersion}`,
    `@types/node@${versionOf('@types/node')}`,
  ],
  { cwd: project },
);
const projectRequire = createRequire(join(project, 'package.json'));
const installedSqlite = dirname(projectRequire.resolve('better-sqlite3/package.json'));
const workspaceSqlite = dirname(createRequire(join(root, 'packages', 'engine', 'package.json')).resolve('better-sqlite3/package.json'));
const sqliteVersion = (folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
const opensSqlite = () => {
  try {
    execFileSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: project, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};
if (sqliteVersion(installedSqlite) === sqliteVersion(workspaceSqlite)) {
  cpSync(
    join(workspaceSqlite, 'build', 'Release', 'better_sqlite3.node'),
    join(installedSqlite, 'build', 'Release', 'better_sqlite3.node'),
  );
}
if (opensSqlite()) pass(`better-sqlite3 ${sqliteVersion(installedSqlite)}: the workspace's build loads here`);
else {
  // against this Node's own headers (scripts/node-headers.mjs): npm's nodedir may name another Node's
  const headers = nodeHeaders();
  run('better-sqlite3: npm rebuild (compiles when no prebuilt binary can be downloaded)', npm, ['rebuild', 'better-sqlite3'], {
    cwd: project,
    env: headers ? { ...process.env, npm_config_nodedir: headers } : process.env,
  });
  if (!opensSqlite())
    fail(`better-sqlite3 ${sqliteVersion(installedSqlite)} loads here after the rebuild, on Node ${process.versions.node}`);
}

// the engine and the tools keep their definitions in module-level maps: a second copy would not know the first's
const copiesOf = (name) => {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (path.endsWith(join('node_modules', ...name.split('/')))) found.push(relative(project, path));
      else walk(path);
    }
  };
  walk(join(project, 'node_modules'));
  return found;
};
// and @roundtrip/mcp, a dependency of both the CLI and transport-stdio: one RoundtripConfigError class for both
for (const name of ['@roundtrip/engine', '@roundtrip/tools', '@roundtrip/mcp', 'xstate', 'zod']) {
  const copies = copiesOf(name);
  if (copies.length !== 1) fail(`one copy of ${name} installed`, copies.join('\n'));
}
pass('one copy each of @roundtrip/engine, @roundtrip/tools, @roundtrip/mcp, xstate and zod');

// the root entries an edge runtime loads reach no Node-only module (node:*, better-sqlite3, pg, the SDK's
// stdio); the same walk finds one behind each Node subpath: the check can see what it looks for
for (const [name, subpath, nodeOnly] of [
  ['engine', 'sqlite', 'better-sqlite3'],
  ['mcp', 'node', 'node:os'],
  ['transport-http', 'node', 'node:fs'],
]) {
  const dist = join(project, 'node_modules', '@roundtrip', name, 'dist');
  const rootNodeOnly = nodeOnlyImports(join(dist, 'index.js'));
  if (rootNodeOnly.length > 0) fail(`@roundtrip/${name}'s root entry loads no Node-only module`, rootNodeOnly.join('\n'));
  if (!nodeOnlyImports(join(dist, subpath, 'index.js')).some((line) => line.endsWith(`: ${nodeOnly}`))) {
    fail(`the import walk finds ${nodeOnly} behind @roundtrip/${name}/${subpath}`);
  }
  pass(`@roundtrip/${name}'s root entry loads no Node-only module; its ${subpath} subpath does (${nodeOnly})`);
}

// ─── typecheck and compile with the workspace's TypeScript, a standard tsconfig ──────────────────

run('typecheck and compile the tool with module NodeNext, strict, no allowImportingTsExtensions', process.execPath, [tsc, '-p', project], {
  cwd: project,
});

// ─── run it with plain node, drive a conversation over stdio ──────────────────────────────────────

const drive = run('drive a conversation over stdio with the MCP client, pinned to 2026-07-28', process.execPath, ['drive.mjs'], {
  cwd: project,
  env: { ...process.env, HOME: join(work, 'home') },
  timeout: 60_000,
});
process.stdout.write(`${drive.trimEnd().replace(/^/gm, '  ')}\n`);
// the same conversations through the published command: `roundtrip serve` a JavaScript module, from dist
const served = run(
  'roundtrip serve dist/tools.js: the same conversations over stdio',
  process.execPath,
  ['drive.mjs', join(project, 'node_modules', '@roundtrip', 'cli', 'bin', 'roundtrip-dist.mjs'), 'serve', 'dist/tools.js'],
  { cwd: project, env: { ...process.env, HOME: join(work, 'home') }, timeout: 60_000 },
);
process.stdout.write(`${served.trimEnd().replace(/^/gm, '  ')}\n`);

// ─── the published CLI: plain node from dist, a JavaScript module without tsx ────────────────────

const diagram = run('@roundtrip/visualize as a library: node dist/draw-machines.js', process.execPath, ['dist/draw-machines.js'], {
  cwd: project,
});
if (!diagram.startsWith('stateDiagram-v2')) fail('toMermaid printed a Mermaid state diagram', diagram);

const roundtrip = join(project, 'node_modules', '.bin', 'roundtrip');
run('roundtrip --help runs from dist', roundtrip, ['--help'], { cwd: project });
// the file the CLI's own code spawns (bin/roundtrip.mjs) runs dist too when the package holds no sources
const workspaceBin = join(project, 'node_modules', '@roundtrip', 'cli', 'bin', 'roundtrip.mjs');
run('node @roundtrip/cli/bin/roundtrip.mjs --help runs from dist', process.execPath, [workspaceBin, '--help'], { cwd: project });
// a JavaScript module loads without tsx: it is moved away for this command
const tsx = join(project, 'node_modules', 'tsx');
renameSync(tsx, `${tsx}.away`);
try {
  run(
    'roundtrip visualize dist/tools.js (JavaScript, tsx not installed) writes the machine files',
    roundtrip,
    ['visualize', 'dist/tools.js', '--out', 'machines'],
    {
      cwd: project,
    },
  );
} finally {
  renameSync(`${tsx}.away`, tsx);
}
const written = readdirSync(join(project, 'machines')).sort();
const expected = ['greet', 'plan_trip']
  .flatMap((name) => ['.machine.json', '.machine.ts', '.mmd', '.svg'].map((ext) => `${name}${ext}`))
  .sort();
if (written.join() !== expected.join()) fail('roundtrip visualize wrote every machine file', `the folder holds ${written.join(', ')}`);
pass(`roundtrip visualize wrote ${written.join(', ')}`);
run(
  'roundtrip visualize src/tools.ts --check (TypeScript, through tsx) finds the same files',
  roundtrip,
  ['visualize', 'src/tools.ts', '--out', 'machines', '--check'],
  {
    cwd: project,
  },
);

// ─── an HTTP server without native code: better-sqlite3 is an optional peer of the libraries ─────

// only the HTTP transport and what it needs (no CLI, which brings better-sqlite3 for its zero-config ledger)
const httpOnly = join(work, 'http-only');
mkdirSync(httpOnly);
writeFileSync(
  join(httpOnly, 'package.json'),
  `${JSON.stringify({ name: 'roundtrip-consumer-http', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
);
cpSync(join(root, 'scripts', 'consumer-project', 'serve-http-without-sqlite.mjs'), join(httpOnly, 'serve-http-without-sqlite.mjs'));
const tarballOf = (name) =>
  join(
    tarballs,
    files.find((file) => file.startsWith(`roundtrip-${name}-`)),
  );
run(
  'npm install of @roundtrip/transport-http, @roundtrip/mcp and @roundtrip/engine alone in another project',
  npm,
  [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--ignore-scripts',
    ...['engine', 'mcp', 'transport-http'].map(tarballOf),
    `zod@${versionOf('zod')}`,
    `xstate@${versionOf('xstate')}`,
    `@modelcontextprotocol/client@${clientVersion}`,
  ],
  { cwd: httpOnly },
);
const withoutSqlite = run(
  'an HTTP server on ROUNDTRIP_LEDGER=:memory: serves without better-sqlite3; a SQLite ledger is refused saying what to install',
  process.execPath,
  ['serve-http-without-sqlite.mjs'],
  { cwd: httpOnly, timeout: 60_000 },
);
process.stdout.write(`${withoutSqlite.trimEnd().replace(/^/gm, '  ')}\n`);

say(`consumer test: PASSED in ${seconds()}`);
