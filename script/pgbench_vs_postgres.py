#!/usr/bin/python3
"""Runs the same pgbench workload against paceline-server and against a
throwaway PostgreSQL 15 (Debian's postgresql-15; fsync, synchronous_commit
and full_page_writes off, for fairness to an in-memory engine), one after
the other on this machine, and prints tps and latency side by side.

The workload is pgbench's TPC-B-like transaction sent as ONE message per
transaction (statements joined with `\\;`), so that paceline-server can hand
each transaction whole to its scheduler. For each --scale it initialises
both databases with `pgbench -i -s SCALE`, then runs `pgbench -n -s SCALE
-c CLIENTS -j 2 -T SECONDS -M simple -f examples/pgbench/tpcb_one_message.sql`
on each; with
--schedulers, Paceline runs once per scheduler (a fresh server each).

  script/pgbench_vs_postgres.py --scales 1,8 --clients 8 --seconds 20 \\
      --schedulers random,adaptive

Needs root (PostgreSQL runs as the `postgres` user) and the packages
postgresql-15 and postgresql-client (apt-get install them first).
Everything listens on 127.0.0.1 only and is stopped at the end.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PG_BIN = "/usr/lib/postgresql/15/bin"

SCRIPT = os.path.join(ROOT, "examples", "pgbench", "tpcb_one_message.sql")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def pgbench(port, db, scale, clients, seconds, script, user):
    env = dict(os.environ, PGHOST="127.0.0.1", PGPORT=str(port), PGUSER=user, PGDATABASE=db, PGSSLMODE="disable")
    run(["pgbench", "-i", "-q", "-s", str(scale)], env=env, timeout=1800)
    # -s again: a custom script's :scale is what -s says (default 1), not
    # the number of branches -i created.
    out = run(["pgbench", "-n", "-s", str(scale), "-c", str(clients), "-j", "2", "-T", str(seconds), "-M", "simple",
               "-f", script],
              env=env, timeout=seconds + 600).stdout
    tps = float(re.search(r"tps = ([\d.]+)", out).group(1))
    latency = float(re.search(r"latency average = ([\d.]+) ms", out).group(1))
    failed = re.search(r"number of failed transactions: (\d+)", out)
    return {"tps": tps, "latency_ms": latency, "failed": int(failed.group(1)) if failed else 0}


class Postgres:
    def __init__(self, port, clients):
        self.port = port
        self.max_connections = clients + 10  # pgbench's clients, and room for psql
        self.dir = tempfile.mkdtemp(prefix="pgbench-vs-")
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = os.path.join(self.dir, "data")

    def as_postgres(self, *cmd):
        return run(["runuser", "-u", "postgres", "--", *cmd], timeout=300)

    def start(self):
        self.as_postgres(f"{PG_BIN}/initdb", "-D", self.data, "-A", "trust", "-U", "postgres")
        self.as_postgres(f"{PG_BIN}/pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "start",
                         "-o", f"-p {self.port} -k {self.dir} -h 127.0.0.1 -c fsync=off -c synchronous_commit=off "
                         f"-c full_page_writes=off -c max_connections={self.max_connections} -c shared_buffers=1GB")

    def postmaster_pid(self):
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def stop(self):
        try:
            self.as_postgres(f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class Paceline:
    def __init__(self, binary, scheduler, extra):
        self.cmd = [binary, "--listen=127.0.0.1", "--port=0", f"--scheduler={scheduler}", *extra]

    def start(self):
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"port[ =:]+(\d+)", line)
        if not m:
            self.proc.kill()
            sys.exit(f"pgbench_vs_postgres: no ready line from {' '.join(self.cmd)}: {line!r} "
                     f"{self.proc.stderr.read()}")
        self.port = int(m.group(1))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default=os.path.join(ROOT, "build", "src", "tools", "paceline-server"))
    p.add_argument("--scales", default="1,8")
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--schedulers", default="random,adaptive")
    p.add_argument("--server-flags", default="--workers=8 --cc=occ --data-dir=",
                   help="paceline-server flags besides --scheduler (space-separated); the default runs it in "
                        "memory (no data directory), as PostgreSQL runs with fsync off")
    p.add_argument("--pg-port", type=int, default=55499)
    args = p.parse_args()
    script = SCRIPT
    rows = []
    for scale in [int(s) for s in args.scales.split(",")]:
        pg = Postgres(args.pg_port, args.clients)
        pg.start()
        try:
            r = pgbench(args.pg_port, "postgres", scale, args.clients, args.seconds, script, "postgres")
        finally:
            pg.stop()
        rows.append(("PostgreSQL 15 (fsync off)", scale, r))
        print(f"  postgres scale {scale}: {r}", file=sys.stderr, flush=True)
        for scheduler in args.schedulers.split(","):
            server = Paceline(args.server, scheduler, args.server_flags.split())
            server.start()
            try:
                r = pgbench(server.port, "paceline", scale, args.clients, args.seconds, script, "paceline")
            finally:
                server.stop()
            rows.append((f"paceline-server {scheduler}", scale, r))
            print(f"  paceline {scheduler} scale {scale}: {r}", file=sys.stderr, flush=True)
    print(f"pgbench TPC-B-like, one message per transaction, {args.clients} clients, {args.seconds} s, "
          f"paceline-server {args.server_flags}")
    print(f"{'server':<44} {'scale':>5} {'tps':>10} {'latency ms':>11} {'failed':>7}")
    for name, scale, r in rows:
        print(f"{name:<44} {scale:>5} {r['tps']:>10.0f} {r['latency_ms']:>11.2f} {r['failed']:>7}")


if __name__ == "__main__":
    main()
