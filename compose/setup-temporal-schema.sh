#!/bin/sh
# One-shot schema setup for docker-compose.temporal.yml, run in the temporalio/admin-tools image
# (the server image no longer creates its own schema; temporalio/auto-setup, which did, is deprecated).
# Creates Temporal's two PostgreSQL databases if missing and brings each schema to the version the
# image ships; running it again on existing databases only applies pending schema updates.
set -eu
: "${POSTGRES_SEEDS:?the PostgreSQL host}"
: "${POSTGRES_USER:?}"
: "${SQL_PASSWORD:?}"
PORT="${DB_PORT:-5432}"
SCHEMA_DIR=/etc/temporal/schema/postgresql/v12

until nc -z -w 5 "$POSTGRES_SEEDS" "$PORT"; do
  echo "setup-temporal-schema: waiting for $POSTGRES_SEEDS:$PORT"
  sleep 2
done

for db in temporal temporal_visibility; do
  case "$db" in
    temporal) dir="$SCHEMA_DIR/temporal/versioned" ;;
    *) dir="$SCHEMA_DIR/visibility/versioned" ;;
  esac
  sql() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$PORT" -u "$POSTGRES_USER" --db "$db" "$@"; }
  sql create || echo "setup-temporal-schema: database $db exists"
  sql setup-schema -v 0.0 || echo "setup-temporal-schema: $db already has a schema"
  sql update-schema -d "$dir"
done
echo "setup-temporal-schema: done"
