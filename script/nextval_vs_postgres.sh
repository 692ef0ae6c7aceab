#!/bin/bash
# nextval's rate through paceline-server against PostgreSQL 15 on this
# machine, side by side, interleaved, 3 repeats of 6 s: pgbench -M prepared
# with `SELECT nextval(..)` alone (autocommit), two nextval calls in a
# BEGIN .. COMMIT block, and an INSERT into a table keyed by a serial
# column (the id drawn by its DEFAULT), at 8 and 32 clients. Paceline runs with a data
# directory (--sync=fsync, 8 workers), as PostgreSQL does. Needs a running
# PostgreSQL 15 cluster (pg_ctlcluster 15 main start) and pgbench.
# A benchmark, not a test (REPEATS=n for n repeats; SCRIPTS="serial" for
# some of nextval, block and serial). Usage: script/nextval_vs_postgres.sh build/src/tools/paceline-server
set -e
BIN=$1
W=$(mktemp -d)
printf "SELECT nextval('bench_seq');\n" > $W/nextval.sql
printf "BEGIN;\nSELECT nextval('bench_seq');\nSELECT nextval('bench_seq');\nCOMMIT;\n" > $W/block.sql
printf "INSERT INTO bench_rows (v) VALUES (1);\n" > $W/serial.sql
chmod 755 $W; chmod 644 $W/*.sql
DATA=$(mktemp -d)
$BIN --port=5499 --data-dir=$DATA --sync=fsync --workers=8 > $W/server.log 2>&1 &
SP=$!
for i in $(seq 50); do psql -h 127.0.0.1 -p 5499 -U tester -d paceline -c "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
psql -h 127.0.0.1 -p 5499 -U tester -d paceline -qc "CREATE SEQUENCE bench_seq" \
  -c "CREATE TABLE bench_rows (id serial PRIMARY KEY, v int)"
runuser -u postgres -- psql -qc "DROP DATABASE IF EXISTS seqbench" >/dev/null 2>&1
runuser -u postgres -- psql -qc "CREATE DATABASE seqbench" 
runuser -u postgres -- psql -d seqbench -qc "CREATE SEQUENCE bench_seq" \
  -c "CREATE TABLE bench_rows (id serial PRIMARY KEY, v int)"
for rep in $(seq ${REPEATS:-3}); do
  for script in ${SCRIPTS:-nextval block serial}; do
    for c in 8 32; do
      p=$(pgbench -h 127.0.0.1 -p 5499 -U tester -n -M prepared -c $c -j 2 -T 6 -f $W/$script.sql paceline 2>&1 | grep -oP 'tps = \K[0-9.]+' | head -1)
      q=$(runuser -u postgres -- pgbench -n -M prepared -c $c -j 2 -T 6 -f $W/$script.sql seqbench 2>&1 | grep -oP 'tps = \K[0-9.]+' | head -1)
      echo "rep=$rep script=$script c=$c paceline=$p postgres=$q"
    done
  done
done
kill $SP; wait $SP 2>/dev/null || true
rm -rf $DATA $W
