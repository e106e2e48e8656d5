// The verdict of one run of the official conformance suite, from the results it saved (`-o DIR`: one
// `server-<scenario>-<time>/checks.json` per scenario) and the scenarios the spec revision requires (what
// `conformance list --server --requirements <revision>` prints). Prints one summary line, and every check of a
// required scenario that did not succeed; exits 1 when a required scenario is missing, failed or warned.
// The server scenarios of the tasks extension (SEP-2663, `tasks-*`), which the revision lists but does not
// score, are held to the same bar, as Roundtrip serves tasks: each must run with no failure and no warning (one
// the suite skips itself, every check SKIPPED, is reported as skipped).
//
//   node scripts/conformance-summary.mjs <results-dir> <required-list-file> <revision>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const say = (line) => process.stdout.write(`${line}\n`);
const fail = (line) => {
  process.stderr.write(`${line}\n`);
  process.exit(2);
};

const [resultsDir, requiredFile, revision] = process.argv.slice(2);
if (!resultsDir || !requiredFile || !revision) {
  fail('usage: node scripts/conformance-summary.mjs <results-dir> <required-list-file> <revision>');
}

/** The server scenarios of the list: the `- name` lines under its "Server scenarios" heading. */
function requiredScenarios(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Server scenarios'));
  const names = [];
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const item = /^\s+- (\S+)$/.exec(line);
    if (!item) break;
    names.push(item[1]);
  }
  return names;
}

/** The server scenarios of the tasks extension the list names among those it does not score: `- tasks-… [server]`. */
function tasksScenarios(text) {
  return text.split('\n').flatMap((line) => /^\s+- (tasks-\S+) \[server\]$/.exec(line)?.[1] ?? []);
}

/** The checks of each scenario that ran, by scenario name (the folder name without its `server-` and time). */
function resultsByScenario(dir) {
  const results = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name)?.[1];
    if (!entry.isDirectory() || name === undefined) continue;
    try {
      results.set(name, JSON.parse(readFileSync(join(dir, entry.name, 'checks.json'), 'utf8')));
    } catch (error) {
      results.set(name, [{ id: name, status: 'FAILURE', errorMessage: `its checks.json could not be read: ${error.message}` }]);
    }
  }
  return results;
}

const listed = readFileSync(requiredFile, 'utf8');
const required = requiredScenarios(listed);
if (required.length === 0) {
  fail(`conformance: no server scenarios found in ${requiredFile}; did the suite's \`list\` output change?`);
}
const tasks = tasksScenarios(listed);
if (tasks.length === 0) {
  fail(`conformance: no tasks-* server scenarios found in ${requiredFile}; did the suite's \`list\` output change?`);
}
const results = resultsByScenario(resultsDir);
const isMrtr = (name) => name.startsWith('input-required-result-');

const problems = [];
let passed = 0;
let checks = 0;
let failures = 0;
let warnings = 0;
for (const name of required) {
  const scenarioChecks = results.get(name);
  if (!scenarioChecks) {
    problems.push(`  ✗ ${name}: did not run (no results saved)`);
    continue;
  }
  const bad = scenarioChecks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  const succeeded = scenarioChecks.filter((check) => check.status === 'SUCCESS').length;
  checks += scenarioChecks.length;
  failures += bad.filter((check) => check.status === 'FAILURE').length;
  warnings += bad.filter((check) => check.status === 'WARNING').length;
  if (bad.length === 0 && succeeded > 0) passed += 1;
  else if (bad.length === 0) problems.push(`  ✗ ${name}: no check succeeded`);
  for (const check of bad) problems.push(`  ✗ ${name}: ${check.status} ${check.id}${check.errorMessage ? ` (${check.errorMessage})` : ''}`);
}
const mrtr = required.filter(isMrtr);
const mrtrPassed = mrtr.filter((name) => !problems.some((line) => line.startsWith(`  ✗ ${name}:`))).length;

// the tasks extension: not scored by the revision, held to the same bar here
let tasksPassed = 0;
let tasksSkipped = 0;
let tasksChecks = 0;
for (const name of tasks) {
  const scenarioChecks = results.get(name);
  if (!scenarioChecks) {
    problems.push(`  ✗ ${name} (tasks): did not run (no results saved)`);
    continue;
  }
  tasksChecks += scenarioChecks.length;
  const bad = scenarioChecks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  for (const check of bad)
    problems.push(`  ✗ ${name} (tasks): ${check.status} ${check.id}${check.errorMessage ? ` (${check.errorMessage})` : ''}`);
  if (bad.length > 0) continue;
  if (scenarioChecks.some((check) => check.status === 'SUCCESS')) tasksPassed += 1;
  else if (scenarioChecks.length > 0 && scenarioChecks.every((check) => check.status === 'SKIPPED')) tasksSkipped += 1;
  else problems.push(`  ✗ ${name} (tasks): no check succeeded`);
}

const others = [...results.keys()].filter((name) => !required.includes(name) && !tasks.includes(name));
const othersPassed = others.filter((name) =>
  results.get(name).every((check) => check.status !== 'FAILURE' && check.status !== 'WARNING'),
).length;

say(
  `conformance ${revision}: ${passed} of ${required.length} required server scenarios passed (${mrtrPassed} of ${mrtr.length} MRTR); ` +
    `${checks} checks, ${failures} failed, ${warnings} warnings; ` +
    `tasks extension: ${tasksPassed} of ${tasks.length - tasksSkipped} passed (${tasksChecks} checks${tasksSkipped > 0 ? `, ${tasksSkipped} skipped by the suite` : ''}); ` +
    `not scored: ${othersPassed} of ${others.length} passed`,
);
if (problems.length > 0) {
  say(`what did not pass (a warning counts; fix it, the baseline apps/conformance/expected-failures.yaml stays empty):`);
  for (const line of problems) say(line);
  process.exit(1);
}
