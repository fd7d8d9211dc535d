#!/usr/bin/env bash
# The primary's part of docker-compose's `scale` profile, run once when its volume is initialised
# (docker-entrypoint-initdb.d): the role the replica streams as, and the pg_hba line that lets it.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -c "create role replicator with replication login password '${REPLICATION_PASSWORD}'"
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
