#!/usr/bin/env bash
# Starts the machine's PostgreSQL cluster (Debian packaging) and makes a role and a
# database for the test run. Prints the connection URL on stdout; idempotent.
set -euo pipefail
if ! command -v pg_lsclusters >/dev/null; then
  echo "postgresql is not installed (apt-get install -y postgresql)" >&2
  exit 1
fi
read -r ver name _ < <(pg_lsclusters --no-header | head -n1) || true
if [ -z "${ver:-}" ]; then
  ver=$(ls /usr/lib/postgresql | sort -n | tail -n1)
  name=main
  pg_createcluster "$ver" "$name" >&2
fi
pg_ctlcluster "$ver" "$name" start >&2 2>/dev/null || true
port=$(pg_lsclusters --no-header | awk -v v="$ver" -v n="$name" '$1==v && $2==n {print $3}')
as_pg() { runuser -u postgres -- "$@"; }
for _ in $(seq 1 30); do as_pg psql -p "$port" -qtAc 'select 1' >/dev/null 2>&1 && break; sleep 1; done
as_pg psql -p "$port" -qtAc "select 1 from pg_roles where rolname='kuvert'" | grep -q 1 \
  || as_pg psql -p "$port" -qc "create role kuvert login superuser password 'kuvert'" >&2
as_pg psql -p "$port" -qtAc "select 1 from pg_database where datname='kuvert_test'" | grep -q 1 \
  || as_pg psql -p "$port" -qc "create database kuvert_test owner kuvert" >&2
# On CI the cluster is thrown away with the machine: no waiting for the disk on each commit
# (every test server creates and drops a schema; the suite commits thousands of small
# transactions). A developer's own cluster is left as it is.
if [ -n "${CI:-}" ]; then
  as_pg psql -p "$port" -qc "alter system set fsync = off" -c "alter system set synchronous_commit = off" \
    -c "alter system set full_page_writes = off" -c "select pg_reload_conf()" >/dev/null
fi
echo "postgres://kuvert:kuvert@127.0.0.1:${port}/kuvert_test"
