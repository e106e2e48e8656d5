#!/usr/bin/env bash
# The official MCP conformance suite against the Roundtrip fixture (apps/conformance): `pnpm conformance`, and
# a block of .ci/run. Serves the fixture over HTTP on a free port (`pnpm conformance:serve`), waits until it
# answers, runs every server scenario that MCP 2026-07-28 requires with the empty baseline
# apps/conformance/expected-failures.yaml, prints a summary line, and fails on any failure or warning of a
# required scenario or of a scenario of the tasks extension (tasks-*, SEP-2663: run by the suite beside the
# required ones, not scored by the revision, held to the same bar by scripts/conformance-summary.mjs). The server
# is stopped however the run ends.
#
# The suite and the fixture run on the Node of the `node` devDependency (Node 22, as every pnpm script does):
# node_modules/.bin comes first on PATH here too, so `bash scripts/conformance.sh` works as `pnpm conformance`
# does, after the install. Results are kept in $CONFORMANCE_RESULTS when set (a scratch folder otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE=@modelcontextprotocol/conformance@0.2.0-alpha.12
REVISION=2026-07-28
BASELINE=apps/conformance/expected-failures.yaml
say() { printf 'conformance: %s\n' "$*" >&2; }

scratch="$(mktemp -d)"
server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  # the server runs in its own process group (pnpm, tsx, node): SIGTERM drains it, SIGKILL if it will not go
  kill -TERM -- "-$server_pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 -- "-$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$server_pid" 2>/dev/null || true
  server_pid=""
}
trap 'stop_server; rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM

# ─── Node 22 for the suite ─────────────────────────────────────────────────────────────────────────
PATH="$PWD/node_modules/.bin:$PATH"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  say "the suite needs Node 22, and node is $(node -v): install first (npx -y pnpm@10.34.9 install --frozen-lockfile)"
  exit 1
fi
suite() { npx -y "$SUITE" "$@"; }
say "the suite $SUITE and the fixture on Node $(node -v)"

# ─── the fixture on a free port ────────────────────────────────────────────────────────────────────
log="$scratch/server.log"
# job control on for this one command: it runs in a process group of its own, whose id is its pid
set -m
PORT=0 npx -y pnpm@10.34.9 -s conformance:serve >"$log" 2>&1 &
server_pid=$!
set +m
url=""
for _ in $(seq 1 300); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    say "the fixture stopped before it served anything; its log:"
    cat "$log" >&2
    exit 1
  fi
  # the startup line names the URL, with the port the system chose; then the URL must answer
  [ -n "$url" ] || url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$log" | head -n 1 || true)"
  if [ -n "$url" ] && node -e 'fetch(process.argv[1]).then(() => process.exit(0), () => process.exit(1))' "$url"; then break; fi
  sleep 0.1
done
if [ -z "$url" ] || ! node -e 'fetch(process.argv[1]).then(() => process.exit(0), () => process.exit(1))' "$url"; then
  say "the fixture did not answer within 30 seconds; its log:"
  cat "$log" >&2
  exit 1
fi
say "the fixture answers at $url"

# ─── the suite ─────────────────────────────────────────────────────────────────────────────────────
results="${CONFORMANCE_RESULTS:-$scratch/results}"
mkdir -p "$results"
suite list --server --requirements "$REVISION" >"$scratch/required.txt"
started=$SECONDS
status=0
suite server --url "$url" --requirements "$REVISION" --expected-failures "$BASELINE" -o "$results" >"$scratch/suite.log" 2>&1 || status=$?
# the suite's own table lists every scenario it ran: the tasks-* extension and the pending ones are not scored
# by the revision; the summary below counts the tasks-* ones all the same
echo "the suite's report (scenarios not required by $REVISION are listed too; of those, only the tasks-* ones count):"
sed -n '/=== SUMMARY ===/,$p' "$scratch/suite.log"
stop_server
verdict=0
node scripts/conformance-summary.mjs "$results" "$scratch/required.txt" "$REVISION" || verdict=$?
say "the suite ran in $((SECONDS - started)) s"
if [ "$status" -ne 0 ]; then
  say "the suite exited with status $status; its output:"
  cat "$scratch/suite.log" >&2
  say "and the fixture's log:"
  cat "$log" >&2
  exit 1
fi
exit "$verdict"
