#!/bin/sh
set -eu
BIN=/usr/lib/postgresql/15/bin
mkdir -p "$PGDATA" && chown -R postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pw
  chown postgres /tmp/pw
  su postgres -c "$BIN/initdb -D '$PGDATA' -U '$POSTGRES_USER' --pwfile=/tmp/pw --auth-host=scram-sha-256 --auth-local=trust" >/dev/null
  rm /tmp/pw
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  su postgres -c "$BIN/pg_ctl -D '$PGDATA' -o '-c listen_addresses=' -w start" >/dev/null
  su postgres -c "psql -U '$POSTGRES_USER' -d postgres -c 'create database \"$POSTGRES_DB\"'" >/dev/null
  su postgres -c "$BIN/pg_ctl -D '$PGDATA' -m fast -w stop" >/dev/null
fi
exec su postgres -c "exec $BIN/postgres -D '$PGDATA' -c listen_addresses='*'"
