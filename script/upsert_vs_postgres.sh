#!/bin/bash
# INSERT .. ON CONFLICT DO UPDATE through paceline-server against
# PostgreSQL 15 on this machine, side by side, interleaved, 3 repeats of
# 6 s, pgbench -M prepared at 8 and 32 clients. Each transaction adds one
# to a counter row, inserting it when absent:
#   INSERT INTO counters VALUES (:k, 1) ON CONFLICT (k) DO UPDATE SET n = counters.n + 1
# spread: k among 100,000 keys (mostly inserts in the first run, then
#         updates); hot: k among 8 keys (every transaction meets others on
#         its row; PostgreSQL's READ COMMITTED waits for the row lock,
#         Paceline retries the conflict inside the server); one: every
#         transaction upserts the same key.
# After the runs each side's sum of n must equal the transactions pgbench
# counted (no lost or doubled upsert) and no key may be there twice.
# Paceline runs with a data directory (--sync=fsync, 8 workers), as
# PostgreSQL does. Needs a running PostgreSQL 15 cluster (pg_ctlcluster 15
# main start) and pgbench. A benchmark, not a test (REPEATS=n, SCRIPTS="one"
# for some of spread, hot and one; default spread and hot).
# Usage: script/upsert_vs_postgres.sh build/src/tools/paceline-server
set -e
BIN=$1
W=$(mktemp -d)
UPSERT="INSERT INTO counters VALUES (:k, 1) ON CONFLICT (k) DO UPDATE SET n = counters.n + 1;"
printf '\\set k random(1, 100000)\n%s\n' "$UPSERT" > $W/spread.sql
printf '\\set k random(1, 8)\n%s\n' "$UPSERT" > $W/hot.sql
printf '\\set k 1\n%s\n' "$UPSERT" > $W/one.sql
chmod 755 $W; chmod 644 $W/*.sql
DATA=$(mktemp -d)
$BIN --port=5499 --data-dir=$DATA --sync=fsync --workers=8 > $W/server.log 2>&1 &
SP=$!
for i in $(seq 50); do psql -h 127.0.0.1 -p 5499 -U tester -d paceline -c "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
SCHEMA="CREATE TABLE counters (k int PRIMARY KEY, n bigint NOT NULL)"
psql -h 127.0.0.1 -p 5499 -U tester -d paceline -qc "$SCHEMA"
runuser -u postgres -- psql -qc "DROP DATABASE IF EXISTS upsertbench" >/dev/null 2>&1
runuser -u postgres -- psql -qc "CREATE DATABASE upsertbench"
runuser -u postgres -- psql -d upsertbench -qc "$SCHEMA"
P_TOTAL=0
Q_TOTAL=0
# "tps transactions failed" of one pgbench run's output.
summary() {
  local tps n failed
  tps=$(grep -oP 'tps = \K[0-9.]+' <<<"$1" | head -1)
  n=$(grep -oP 'number of transactions actually processed: \K[0-9]+' <<<"$1")
  failed=$(grep -oP 'number of failed transactions: \K[0-9]+' <<<"$1" || echo 0)
  echo "${tps:-0} ${n:-0} ${failed:-0}"
}
for rep in $(seq ${REPEATS:-3}); do
  for script in ${SCRIPTS:-spread hot}; do
    for c in 8 32; do
      read -r p pn pf <<<"$(summary "$(pgbench -h 127.0.0.1 -p 5499 -U tester -n -M prepared -c $c -j 2 -T 6 -f $W/$script.sql paceline 2>&1)")"
      read -r q qn qf <<<"$(summary "$(runuser -u postgres -- pgbench -n -M prepared -c $c -j 2 -T 6 -f $W/$script.sql upsertbench 2>&1)")"
      P_TOTAL=$((P_TOTAL + pn))
      Q_TOTAL=$((Q_TOTAL + qn))
      echo "rep=$rep script=$script c=$c paceline=$p postgres=$q failed: paceline=$pf postgres=$qf"
    done
  done
done
CHECK="SELECT sum(n), count(*) - count(DISTINCT k) FROM counters"
echo "paceline: $(psql -h 127.0.0.1 -p 5499 -U tester -d paceline -Atc "$CHECK" | tr '|' ' ') (sum of n, duplicate keys) for $P_TOTAL transactions"
echo "postgres: $(runuser -u postgres -- psql -d upsertbench -Atc "$CHECK" | tr '|' ' ') (sum of n, duplicate keys) for $Q_TOTAL transactions"
kill $SP; wait $SP 2>/dev/null || true
rm -rf $DATA $W
