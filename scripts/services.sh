#!/usr/bin/env bash
# The services some tests need, on loopback only: Debian's PostgreSQL (for the PostgreSQL effect ledger's
# tests) and nginx (installed only; the proxy tests start their own). Idempotent: installs what is
# missing (apt-get update once, only then), starts the PostgreSQL cluster listening on 127.0.0.1 if it is
# down, and makes sure the test role exists. Needs root, or sudo.
#
# It prints one line on stdout, the connection URL the tests read, as a shell export:
#
#   eval "$(bash scripts/services.sh)"     # sets ROUNDTRIP_TEST_PG=postgres://roundtrip:roundtrip@127.0.0.1:5432/postgres
#   npx vitest run packages/engine/test    # the PostgreSQL tests now run (a database per test worker, kept between runs; see packages/engine/test/postgres-worker-database.ts)
#
# Everything else goes to stderr. The role `roundtrip` (password `roundtrip`, CREATEDB, no superuser)
# can reach the server from 127.0.0.1 only: a test credential, never a production one.
set -euo pipefail

ROLE=roundtrip
PASSWORD=roundtrip
say() { printf 'services: %s\n' "$*" >&2; }

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { say "run this as root, or install sudo: it installs Debian packages and starts PostgreSQL"; exit 1; }
  as_root=(sudo)
fi
root() { "${as_root[@]}" "$@"; }

missing=()
dpkg -s postgresql >/dev/null 2>&1 || missing+=(postgresql)
dpkg -s nginx >/dev/null 2>&1 || missing+=(nginx)
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]} (Debian)"
  # services must not start on install (nginx would take port 80 on every address): a policy that says so,
  # unless the machine has its own (containers usually do)
  made_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | root tee /usr/sbin/policy-rc.d >/dev/null
    root chmod 755 /usr/sbin/policy-rc.d
    made_policy=1
  fi
  root apt-get update -qq >/dev/null
  root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ -n "$made_policy" ]; then root rm -f /usr/sbin/policy-rc.d; fi
fi

# the newest installed major version, and its cluster `main` (Debian's package makes it; made here if not)
version="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)"
[ -n "$version" ] || { say "PostgreSQL is installed but /usr/lib/postgresql is empty: reinstall it (apt-get install --reinstall postgresql-common postgresql)"; exit 1; }
if ! pg_lsclusters -h "$version" main >/dev/null 2>&1; then
  say "creating the PostgreSQL $version cluster 'main'"
  root pg_createcluster "$version" main >&2
fi

# loopback only, and room for the test files that run at once: each demo instance on PostgreSQL holds the
# ledger's, the task store's, the job queue's and the answer relay's connections (about 25 at a peak), and up to
# three files start three instances each beside the other tests (Debian's postgresql.conf includes conf.d)
conf="/etc/postgresql/$version/main/conf.d/roundtrip-loopback.conf"
wanted="listen_addresses = '127.0.0.1'
max_connections = 400"
if [ "$(cat "$conf" 2>/dev/null || true)" != "$wanted" ]; then
  printf '%s\n' "$wanted" | root tee "$conf" >/dev/null
  if [ "$(pg_lsclusters -h "$version" main | awk '{print $4}')" = online ]; then
    say "restarting PostgreSQL $version to listen on 127.0.0.1 only, with room for 400 connections"
    root pg_ctlcluster "$version" main restart >&2
  fi
fi
port="$(pg_lsclusters -h "$version" main | awk '{print $3}')"
if [ "$(pg_lsclusters -h "$version" main | awk '{print $4}')" != online ]; then
  say "starting PostgreSQL $version (cluster main, 127.0.0.1:$port)"
  root pg_ctlcluster "$version" main start >&2
fi
for _ in $(seq 1 100); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.1
done
pg_isready -q -h 127.0.0.1 -p "$port" || {
  say "PostgreSQL $version did not accept connections on 127.0.0.1:$port; see /var/log/postgresql/postgresql-$version-main.log"
  exit 1
}

# the test role: may create (and drop) its own databases, nothing more
root runuser -u postgres -- psql -q -X -p "$port" -v ON_ERROR_STOP=1 -d postgres >&2 <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  ELSE
    ALTER ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END
\$\$;
SQL

say "PostgreSQL $version is up on 127.0.0.1:$port (role $ROLE); nginx is installed, not started"
printf 'export ROUNDTRIP_TEST_PG=%s\n' "postgres://$ROLE:$PASSWORD@127.0.0.1:$port/postgres"
