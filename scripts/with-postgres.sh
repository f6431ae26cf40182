#!/usr/bin/env bash
# Runs CMD... next to a throwaway PostgreSQL server (make test, make bench-store):
#   scripts/with-postgres.sh CMD [ARG...]
# initdb into a fresh temporary folder, a server that listens on a Unix socket in that folder
# only (listen_addresses=''), RUNUS_TEST_POSTGRES exported as its URI for CMD; the server is
# stopped and the folder removed when CMD ends, whatever its exit status (trap EXIT). Run as
# root, the server runs as the `postgres` user, which owns the folder. CMD's exit status is
# this script's. RUNUS_TEST_POSTGRES_DATA and RUNUS_TEST_POSTGRES_BIN name the server's data
# folder and binaries, for a benchmark that stops and restarts it (make bench-store).
#
# PG_BIN: the server's binaries (default /usr/lib/postgresql/15/bin).
# PG_DURABLE=0: fsync and synchronous_commit off (tests: a crash loses nothing that matters
# there); the default 1 keeps PostgreSQL's durable defaults (benchmarks against SQLite's
# synchronous=FULL, record 0400).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: scripts/with-postgres.sh CMD [ARG...]" >&2
  exit 2
fi

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "with-postgres: no $PG_BIN/initdb; install postgresql-15 (make deps-test) or set PG_BIN" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/runus-pg.XXXXXX)
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  as_server() { runuser -u postgres -- "$@"; }
else
  as_server() { "$@"; }
fi
chmod 700 "$dir"

stop_server() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_server "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 \
      || as_server "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap stop_server EXIT
trap 'exit 130' INT TERM  # through the EXIT trap

# Local connections only (the socket lives in a folder only its owner can enter): trust.
as_server "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }

# The settings go into postgresql.conf (not pg_ctl -o), so that a plain `pg_ctl start` brings
# the same server back (make bench-store stops and starts it to time an outage).
{
  echo "listen_addresses = ''"
  echo "unix_socket_directories = '$dir'"
  echo "max_connections = 200"
  if [ "${PG_DURABLE:-1}" = 0 ]; then
    echo "fsync = off"
    echo "synchronous_commit = off"
    echo "full_page_writes = off"
  fi
} >>"$dir/data/postgresql.conf"
as_server "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }

export RUNUS_TEST_POSTGRES="postgresql:///postgres?host=$dir&user=postgres"
# For benchmarks that stop and start the server: its data folder and pg_ctl.
export RUNUS_TEST_POSTGRES_DATA="$dir/data" RUNUS_TEST_POSTGRES_BIN="$PG_BIN"
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on $dir (RUNUS_TEST_POSTGRES)" >&2
status=0
"$@" || status=$?
exit $status
