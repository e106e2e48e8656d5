#!/usr/bin/env bash
# Three instances of the demo server over HTTP behind nginx, on this machine (docs/deploying.md#n-instances):
# one key file, one PostgreSQL database, one issuer's tokens, and nginx round-robin over them from
# docs/deploy/nginx.conf. Runs in the foreground until Ctrl-C or SIGTERM, then stops them all; when one of
# them exits (an instance that cannot start says why), it stops the others and exits too.
# Relative paths are from the checkout's root, wherever it is run from.
#
#   ROUNDTRIP_DB          the PostgreSQL database the instances share (required): the demo's data, and the
#                         effect ledger beside it (ROUNDTRIP_LEDGER unset)
#   ROUNDTRIP_KEY_FILE    the key file they share (required): roundtrip keys new .data/deploy/keys
#   ROUNDTRIP_JWKS, ROUNDTRIP_ISSUER, ROUNDTRIP_AUDIENCE
#                         the tokens they accept (scripts/test-token.mjs makes a test key set and tokens)
#   PROXY_PORT            nginx's port on 127.0.0.1 (8080)
#   PORT_1 PORT_2 PORT_3  the instances' ports on 127.0.0.1 (3001 3002 3003)
#   DEPLOY_DIR            nginx's folder: its config, pid, logs, temporary files (.data/deploy)
#   SERVER                the command of one instance, which reads PORT and ROUNDTRIP_INSTANCE
#                         (node apps/demo/bin/roundtrip-demo-http.mjs, what pnpm serve:http runs)
set -euo pipefail
cd "$(dirname "$0")/../.."

: "${ROUNDTRIP_DB:?set ROUNDTRIP_DB to the PostgreSQL database the three instances share, e.g. postgres://roundtrip:roundtrip@127.0.0.1:5432/postgres}"
: "${ROUNDTRIP_KEY_FILE:?set ROUNDTRIP_KEY_FILE to the key file the three instances share; make one with roundtrip keys new .data/deploy/keys}"
case "$ROUNDTRIP_DB" in
  postgres://* | postgresql://*) ;;
  *) echo "run-three: ROUNDTRIP_DB is not a postgres:// URL: three instances need one database they all reach (a SQLite file is one machine's)" >&2; exit 2 ;;
esac
export ROUNDTRIP_DB ROUNDTRIP_KEY_FILE
PROXY_PORT="${PROXY_PORT:-8080}"
PORT_1="${PORT_1:-3001}" PORT_2="${PORT_2:-3002}" PORT_3="${PORT_3:-3003}"
DEPLOY_DIR="${DEPLOY_DIR:-.data/deploy}"
SERVER="${SERVER:-node apps/demo/bin/roundtrip-demo-http.mjs}"
NGINX="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"

# each process in a group of its own: Ctrl-C reaches this script only, which stops each of them once
set -m
pids=()
stop() {
  trap - EXIT INT TERM
  kill "${pids[@]}" 2>/dev/null || true
  wait || true
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the three instances: the same key file, database and token settings; each its own port and name
for i in 1 2 3; do
  port="PORT_$i"
  PORT="${!port}" ROUNDTRIP_INSTANCE="i$i" $SERVER &
  pids+=("$!")
done

# nginx, from docs/deploy/nginx.conf with the ports filled in
prefix="$(mkdir -p "$DEPLOY_DIR/nginx" && cd "$DEPLOY_DIR/nginx" && pwd)"
sed -e "s/\${PROXY_PORT}/$PROXY_PORT/g" -e "s/\${PORT_1}/$PORT_1/g" -e "s/\${PORT_2}/$PORT_2/g" -e "s/\${PORT_3}/$PORT_3/g" \
  docs/deploy/nginx.conf >"$prefix/nginx.conf"
user=()
# as root, nginx runs its workers as nobody, who may not reach that folder: keep them root's
if [ "$(id -u)" -eq 0 ]; then user=(-g 'user root;'); fi
"$NGINX" -p "$prefix" -e stderr -c "$prefix/nginx.conf" "${user[@]}" &
pids+=("$!")
echo "run-three: http://127.0.0.1:$PROXY_PORT/mcp, round-robin over i1, i2 and i3 on 127.0.0.1:$PORT_1, $PORT_2 and $PORT_3; Ctrl-C stops them" >&2

# until one of them exits: then the others are stopped (stop, on EXIT)
status=0
wait -n || status=$?
echo "run-three: a process exited (status $status); stopping the others" >&2
exit "$status"
