#!/usr/bin/env bash
# Runs a command in a clean copy of a commit, with the bench/ folder of HEAD laid over it: the benches
# measure committed code while other work changes the checkout, and "before" figures come from the same
# bench script. The installed packages are this checkout's (node_modules linked, the workspace
# packages' own node_modules copied, so workspace links point into the copy).
#   bash bench/at-commit.sh HEAD npx tsx bench/e2e-vs-sdk.bench.ts stdio
#   bash bench/at-commit.sh 67fb36f npx tsx bench/e2e-vs-sdk.bench.ts stdio
set -euo pipefail
if [ "$#" -lt 2 ]; then
  echo "usage: bash bench/at-commit.sh <commit> <command…>  (e.g. bash bench/at-commit.sh HEAD npx tsx bench/e2e-vs-sdk.bench.ts)" >&2
  exit 2
fi
commit=$1
shift
root=$(git rev-parse --show-toplevel)
[ -d "$root/node_modules" ] || { echo "no node_modules in $root: run npx -y pnpm@10.34.9 install first" >&2; exit 2; }
dest=$(mktemp -d "${TMPDIR:-/tmp}/roundtrip-at-commit-XXXXXX")
trap 'rm -rf "$dest"' EXIT
git -C "$root" archive "$commit" | tar -x -C "$dest"
git -C "$root" archive HEAD bench | tar -x -C "$dest"
ln -s "$root/node_modules" "$dest/node_modules"
for modules in "$root"/packages/*/node_modules "$root"/apps/*/node_modules; do
  target="$dest/${modules#"$root"/}"
  [ -d "$(dirname "$target")" ] && cp -a "$modules" "$target"
done
echo "== $(git -C "$root" log -1 --format='%h %s' "$commit" | cut -c1-100)" >&2
cd "$dest"
"$@"
