#!/usr/bin/env bash
# docker-compose's `scale` profile: a streaming replica of the `postgres` service. On an empty
# volume, a base backup of the primary with -R (standby.signal and primary_conninfo written, the
# password taken from PGPASSWORD), then PostgreSQL as a hot standby, with feedback so that the
# primary's vacuum does not cancel its longer reads. max_connections must be at least the primary's.
set -euo pipefail
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_basebackup -h postgres -U replicator -D "$PGDATA" -R -X stream -c fast; do
    echo "the primary is not ready for a base backup yet; trying again"
    rm -rf "${PGDATA:?}"/*
    sleep 2
  done
  chmod 0700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c hot_standby_feedback=on -c max_connections=300
