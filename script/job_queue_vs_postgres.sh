#!/bin/bash
# A job queue on SKIP LOCKED through paceline-server against PostgreSQL 15
# on this machine, side by side, interleaved, 3 repeats of 6 s, pgbench -M
# prepared at 8 and 32 clients. The queue starts with 10,000 jobs; each
# client transaction either enqueues one job or takes one, half and half
# (pgbench weights), so the queue stays about as long as it started:
#   enqueue: INSERT INTO jobs (payload) VALUES (:p)
#   take:    WITH j AS (DELETE FROM jobs WHERE id = (SELECT id FROM jobs
#              ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
#              RETURNING id, payload)
#            INSERT INTO done SELECT id, payload FROM j
# Every taker races for the head of the queue; SKIP LOCKED passes over the
# jobs others hold. Reported: the take transactions per second (the drain
# rate) and the failed transactions of each side. After the runs each
# side's jobs and done together must hold every job once: no job taken
# twice (done's key would refuse it, and none may be in both), none lost.
# The count can exceed the enqueues pgbench reports by the transactions in
# flight when each run's time ends (committed, not counted by pgbench: at
# most 40 per repeat).
# QUEUE=state: jobs stay in the table and are marked done instead, so the
# table grows and only a partial index finds the queued ones quickly:
#   CREATE INDEX jobs_queued ON jobs (id) WHERE state = 'queued'
#   take:    UPDATE jobs SET state = 'done' WHERE id = (SELECT id FROM jobs
#              WHERE state = 'queued' ORDER BY id LIMIT 1
#              FOR UPDATE SKIP LOCKED)
# (checked: every job queued or done once, none lost). PARTIAL=0 leaves
# the partial index out, on both sides.
# Paceline runs with a data directory (--sync=fsync, 8 workers), as
# PostgreSQL does (READ COMMITTED, its default). Needs a running PostgreSQL
# 15 cluster (pg_ctlcluster 15 main start) and pgbench. A benchmark, not a
# test (REPEATS=n).
# Usage: script/job_queue_vs_postgres.sh build/src/tools/paceline-server
set -e
BIN=$1
W=$(mktemp -d)
printf '\\set p random(1, 1000000)\nINSERT INTO jobs (payload) VALUES (:p);\n' > $W/enqueue.sql
if [ "${QUEUE:-}" = state ]; then
  printf '%s\n' "UPDATE jobs SET state = 'done' WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED);" > $W/take.sql
else
  printf '%s\n' "WITH j AS (DELETE FROM jobs WHERE id = (SELECT id FROM jobs ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, payload) INSERT INTO done SELECT id, payload FROM j;" > $W/take.sql
fi
chmod 755 $W; chmod 644 $W/*.sql
DATA=$(mktemp -d)
$BIN --port=5499 --data-dir=$DATA --sync=fsync --workers=8 > $W/server.log 2>&1 &
SP=$!
for i in $(seq 50); do psql -h 127.0.0.1 -p 5499 -U tester -d paceline -c "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
SCHEMA="CREATE TABLE jobs (id bigserial PRIMARY KEY, payload int NOT NULL);
CREATE TABLE done (id bigint PRIMARY KEY, payload int NOT NULL);
INSERT INTO jobs (payload) SELECT g FROM generate_series(1, 10000) AS g;"
if [ "${QUEUE:-}" = state ]; then
  SCHEMA="CREATE TABLE jobs (id bigserial PRIMARY KEY, payload int NOT NULL, state text NOT NULL DEFAULT 'queued');
$([ "${PARTIAL:-1}" = 0 ] || echo "CREATE INDEX jobs_queued ON jobs (id) WHERE state = 'queued';")
INSERT INTO jobs (payload) SELECT g FROM generate_series(1, 10000) AS g;"
fi
psql -h 127.0.0.1 -p 5499 -U tester -d paceline -q -c "$SCHEMA" >/dev/null
runuser -u postgres -- psql -qc "DROP DATABASE IF EXISTS queuebench" >/dev/null 2>&1
runuser -u postgres -- psql -qc "CREATE DATABASE queuebench"
runuser -u postgres -- psql -d queuebench -q -c "$SCHEMA" >/dev/null
# "take-tps failed enqueued" of one pgbench run's output (the second
# script's tps, the first script's transactions).
summary() {
  local tps failed enqueued
  tps=$(grep -A2 'SQL script 2' <<<"$1" | grep -oP 'tps = \K[0-9.]+' | head -1)
  failed=$(grep -oP 'number of failed transactions: \K[0-9]+' <<<"$1" | head -1 || echo 0)
  enqueued=$(grep -A2 'SQL script 1' <<<"$1" | grep -oP ' - \K[0-9]+(?= transactions)' | head -1)
  echo "${tps:-0} ${failed:-0} ${enqueued:-0}"
}
P_JOBS=10000
Q_JOBS=10000
SCRIPTS="-f $W/enqueue.sql@1 -f $W/take.sql@1"
for rep in $(seq ${REPEATS:-3}); do
  for c in 8 32; do
    read -r p pf pe <<<"$(summary "$(pgbench -h 127.0.0.1 -p 5499 -U tester -n -M prepared -c $c -j 2 -T 6 $SCRIPTS paceline 2>&1)")"
    read -r q qf qe <<<"$(summary "$(runuser -u postgres -- pgbench -n -M prepared -c $c -j 2 -T 6 $SCRIPTS queuebench 2>&1)")"
    P_JOBS=$((P_JOBS + pe))
    Q_JOBS=$((Q_JOBS + qe))
    echo "rep=$rep c=$c take-tps: paceline=$p postgres=$q failed: paceline=$pf postgres=$qf"
  done
done
CHECK="SELECT (SELECT count(*) FROM jobs) + (SELECT count(*) FROM done), (SELECT count(*) FROM done), (SELECT count(*) FROM jobs WHERE id IN (SELECT id FROM done))"
LABEL="jobs + done, done, jobs in both"
if [ "${QUEUE:-}" = state ]; then
  CHECK="SELECT count(*), sum(CASE WHEN state = 'done' THEN 1 ELSE 0 END), count(*) - count(DISTINCT id) FROM jobs"
  LABEL="jobs, done, ids twice"
fi
echo "paceline: $(psql -h 127.0.0.1 -p 5499 -U tester -d paceline -Atc "$CHECK" | tr '|' ' ') ($LABEL) for $P_JOBS jobs enqueued"
echo "postgres: $(runuser -u postgres -- psql -d queuebench -Atc "$CHECK" | tr '|' ' ') ($LABEL) for $Q_JOBS jobs enqueued"
kill $SP; wait $SP 2>/dev/null || true
rm -rf $DATA $W
