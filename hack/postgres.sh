#!/usr/bin/env bash
# Makes sure the machine's PostgreSQL answers on 127.0.0.1:5432 and has the `test` database
# the integration tests use (ATRIUM_TEST_DATABASE_URL overrides both).
set -euo pipefail
[ -n "${ATRIUM_TEST_DATABASE_URL:-}" ] && exit 0
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  command -v pg_ctlcluster >/dev/null || { echo "PostgreSQL is not running on 127.0.0.1:5432 and pg_ctlcluster is missing; install Debian's postgresql or set ATRIUM_TEST_DATABASE_URL" >&2; exit 1; }
  echo "[atrium] starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname = 'test'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -c "create database test" >/dev/null
