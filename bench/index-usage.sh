#!/usr/bin/env bash
# Which PostgreSQL indexes no query of the server suite can use (issue 31, ADR 0033 "per index").
#
# The suite runs against a database of its own where the planner may not scan a table whole
# (enable_seqscan off: any index a query can use beats a sequential scan, whatever the tables' sizes)
# and auto_explain logs every plan. Each index of the migrated schema that no plan names is printed.
# Unique indexes keep their rows unique whether or not a plan reads them; an index printed here may
# still serve a query at scale that the suite's small tables make the planner answer otherwise — look
# at its queries with EXPLAIN on large tables before dropping it.
#
#   bash bench/index-usage.sh [postgres://postgres@127.0.0.1:5432] [test files…]   (about twice the suite's time)
set -euo pipefail
cd "$(dirname "$0")/.."
server="${1:-postgres://postgres@127.0.0.1:5432}"
shift || true
log="${PG_LOG:-$(ls /var/log/postgresql/postgresql-*-main.log | head -n 1)}"
db=index_usage

psql -q "$server/postgres" -v ON_ERROR_STOP=1 <<SQL
drop database if exists $db;
create database $db;
alter database $db set session_preload_libraries = 'auto_explain';
alter database $db set auto_explain.log_min_duration = 0;
alter database $db set auto_explain.log_nested_statements = on;
alter database $db set enable_seqscan = off;
SQL

from=$(($(stat -c %s "$log") + 1))
TEST_DATABASE_URL="$server/$db" npx vitest run --project server-postgres --reporter dot "$@" >&2
used=$(tail -c "+$from" "$log" |
  grep -oE '(Index Scan|Index Only Scan)( Backward)? using [a-z0-9_]+|Bitmap Index Scan on [a-z0-9_]+' |
  sed -E 's/.* (using|on) //' | sort -u)

# The indexes as the migrations make them, in a schema of their own.
psql -q "$server/$db" -c 'create schema migrated'
BENCH_DATABASE_URL="$server/$db" BENCH_PG_SCHEMA=migrated node --import tsx bench/lib/migrate-only.ts >/dev/null
psql -At "$server/$db" -c "select indexname || ' ' || (case when indexdef like 'CREATE UNIQUE%' then 'unique' else 'plain' end)
  from pg_indexes where schemaname = 'migrated' order by indexname" |
  while read -r name kind; do
    grep -qx "$name" <<<"$used" || echo "not in any plan: $name ($kind)"
  done
psql -q "$server/postgres" -c "drop database $db"
