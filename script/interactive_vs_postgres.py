#!/usr/bin/python3
"""Interactive transactions (BEGIN, one round trip per statement, COMMIT)
against paceline-server and a throwaway PostgreSQL 15, side by side: how
many transactions fail, and at what throughput.

pgbench's built-in scripts (`-b tpcb-like`, `-b simple-update`, ...) are
what every new user runs first; each statement is its own message, so
paceline-server cannot hand the transaction to a run queue whole and runs
it as an interactive block (its conflict lanes are what this measures).
For each --scale it initialises every server with `pgbench -i -s SCALE`,
then for each script and client count runs
`pgbench -n -b SCRIPT -M PROTOCOL -c CLIENTS -j 2 -T SECONDS` against
(--protocol: prepared by default, or simple: each statement a Query message):

  postgres-rc    PostgreSQL 15 at READ COMMITTED (its default), fsync,
                 synchronous_commit and full_page_writes off
  postgres-ser   the same at SERIALIZABLE (PGOPTIONS default_transaction_isolation)
  paceline       paceline-server in memory, conflict lanes on (its default)
  paceline-free  the same with --conflict-lanes=false (blocks run free)
  paceline-one-lane  the same with --max-lanes-per-block=1 (a block's later
                 hot references left to the CC; not in the default --variants)
  paceline-baseline  paceline (same flags) from the binary --baseline-server
                 names: a build before a change, side by side with it

in turn, --repeats times (interleaved: every variant once per round), and
prints per cell the median tps and the median failed share (pgbench's
"number of failed transactions": 40001 / 40P01 returned to the client;
pgbench runs with --max-tries=1, so nothing is retried). The script
`tpcb-one-message` is examples/pgbench/tpcb_one_message.sql (TPC-B with its
statements in ONE message, `-M simple`), which paceline-server hands whole
to its scheduler.

Beside each run it samples the server's own counters from /proc between
the run's first and last second (paceline-server: its process; PostgreSQL:
the postmaster and its children, the backends): CPU time (user + system)
and context switches (voluntary + involuntary, summed over threads) per
transaction, and the server's threads. Both servers share the two cores
with pgbench.

  script/interactive_vs_postgres.py --scales 1,8 --clients 8,32 \\
      --scripts tpcb-like,simple-update --seconds 10 --repeats 3

With --app, it runs instead the psycopg order-entry application of
script/order_entry.py (16 threads, hot items, read-modify-write, no
retries) against each variant, --repeats times, and prints committed
transactions per second, the failed share, and whether its stock ledger
held (READ COMMITTED may lose updates there: it is not serializable).

Needs root (PostgreSQL runs as the `postgres` user), postgresql-15
(apt-get install it first) and postgresql-client and python3-psycopg
(script/setup installs those).
Everything listens on 127.0.0.1 only and is stopped at the end.
"""
import argparse
import contextlib
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import threading  # noqa: E402
import time  # noqa: E402

from pgbench_vs_postgres import SCRIPT as ONE_MESSAGE_SCRIPT  # noqa: E402
from pgbench_vs_postgres import Paceline, Postgres, ROOT  # noqa: E402
import order_entry  # noqa: E402


def isolation_options(variant):
    """libpq `options` that set a PostgreSQL variant's isolation level."""
    isolation = "serializable" if variant == "postgres-ser" else "read committed"
    return "-c default_transaction_isolation=" + isolation.replace(" ", "\\ ")


def pgbench_env(port, user, options=None):
    env = dict(os.environ, PGHOST="127.0.0.1", PGPORT=str(port), PGUSER=user,
               PGDATABASE="postgres" if user == "postgres" else "paceline", PGSSLMODE="disable")
    if options:
        env["PGOPTIONS"] = options
    return env


# What each paceline* variant adds to --server-flags.
PACELINE_VARIANT_FLAGS = {
    "paceline": [],
    "paceline-free": ["--conflict-lanes=false"],
    "paceline-one-lane": ["--max-lanes-per-block=1"],
    "paceline-baseline": [],
}


@contextlib.contextmanager
def servers_for(args, variants, clients):
    """Starts PostgreSQL (when a postgres-* variant is asked for) and one
    paceline-server per paceline* variant; yields ({variant: port},
    {variant: server pid}); stops them."""
    pg = Postgres(args.pg_port, clients) if any(v.startswith("postgres") for v in variants) else None
    pacelines = {}
    try:
        if pg:
            pg.start()
        for v in variants:
            if v.startswith("paceline"):
                extra = args.server_flags.split() + PACELINE_VARIANT_FLAGS[v]
                binary = args.baseline_server if v == "paceline-baseline" else args.server
                pacelines[v] = Paceline(binary, "adaptive", extra)
                pacelines[v].start()
        ports = {v: (args.pg_port if v.startswith("postgres") else pacelines[v].port) for v in variants}
        pids = {v: (pg.postmaster_pid() if v.startswith("postgres") else pacelines[v].proc.pid) for v in variants}
        yield ports, pids
    finally:
        for s in pacelines.values():
            s.stop()
        if pg:
            pg.stop()


def initialise(env, scale):
    subprocess.run(["pgbench", "-i", "-q", "-s", str(scale)], env=env, check=True, capture_output=True, text=True,
                   timeout=1800)


def process_tree(root):
    """`root` and its descendants (pids)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def counters(root):
    """(CPU seconds, context switches, threads) of `root`'s process tree:
    CPU from each process's /proc stat (its threads, dead ones included),
    switches summed over the live threads' status."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu, switches, threads = 0.0, 0, 0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / ticks
            for task in os.listdir(f"/proc/{pid}/task"):
                threads += 1
                with open(f"/proc/{pid}/task/{task}/status") as f:
                    for line in f:
                        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                            switches += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return cpu, switches, threads


def run(env, script, clients, seconds, scale, server_pid=None, protocol="prepared"):
    if script == "tpcb-one-message":
        workload = ["-f", ONE_MESSAGE_SCRIPT, "-M", "simple"]
    else:
        workload = ["-b", script, "-M", protocol]
    cmd = ["pgbench", "-n", *workload, "-s", str(scale), "-c", str(clients), "-j", "2", "-T", str(seconds),
           "--max-tries=1"]
    samples = []
    done = threading.Event()

    def sample():  # at the run's first and last second, while its connections live
        if server_pid is None or seconds < 3 or done.wait(1.0):
            return
        samples.append((time.monotonic(), counters(server_pid)))
        if not done.wait(seconds - 2.0):
            samples.append((time.monotonic(), counters(server_pid)))
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds + 600)
    finally:
        done.set()
        sampler.join()
    text = out.stdout + out.stderr
    tps = re.search(r"tps = ([\d.]+)", text)
    processed = re.search(r"number of transactions actually processed: (\d+)", text)
    failed = re.search(r"number of failed transactions: (\d+)", text)
    if not tps or not processed:
        sys.exit(f"interactive_vs_postgres: pgbench failed ({script}, {clients} clients):\n{text[-2000:]}")
    ok = int(processed.group(1))
    bad = int(failed.group(1)) if failed else 0
    r = {"tps": float(tps.group(1)), "failed_share": bad / max(1, ok + bad), "failed": bad}
    if len(samples) == 2:
        (t0, (cpu0, sw0, _)), (t1, (cpu1, sw1, threads)) = samples
        txns = max(1.0, r["tps"] * (t1 - t0))
        r.update(cpu_us=1e6 * (cpu1 - cpu0) / txns, switches=(sw1 - sw0) / txns, threads=threads)
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default=os.path.join(ROOT, "build", "src", "tools", "paceline-server"))
    p.add_argument("--baseline-server", help="the paceline-server binary of variant paceline-baseline")
    p.add_argument("--scales", default="1,2,8")
    p.add_argument("--clients", default="8,32")
    p.add_argument("--scripts", default="tpcb-like,simple-update")
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--protocol", default="prepared", choices=["prepared", "simple", "extended"],
                   help="pgbench -M for the built-in scripts (tpcb-one-message is always simple)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--variants", default="postgres-rc,postgres-ser,paceline,paceline-free")
    p.add_argument("--server-flags", default="--workers=8 --cc=occ --data-dir=",
                   help="paceline-server flags (space-separated); the default runs it in memory")
    p.add_argument("--pg-port", type=int, default=55498)
    p.add_argument("--app", action="store_true", help="the psycopg order-entry application instead of pgbench")
    args = p.parse_args()
    known = {"postgres-rc", "postgres-ser", *PACELINE_VARIANT_FLAGS}
    unknown = [v for v in args.variants.split(",") if v not in known]
    if unknown:
        p.error(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    if "paceline-baseline" in args.variants.split(",") and not args.baseline_server:
        p.error("variant paceline-baseline needs --baseline-server")
    if args.app:
        return run_app(args)
    clients = [int(c) for c in args.clients.split(",")]
    scripts = args.scripts.split(",")
    variants = args.variants.split(",")
    results = {}  # (variant, scale, script, clients) -> [runs]
    for scale in [int(s) for s in args.scales.split(",")]:
        with servers_for(args, variants, max(clients)) as (ports, pids):
            for port in set(ports.values()):
                initialise(pgbench_env(port, "postgres" if port == args.pg_port else "paceline"), scale)
            for script in scripts:
                for n in clients:
                    for repeat in range(args.repeats):
                        for v in variants:
                            if v.startswith("postgres"):
                                env = pgbench_env(ports[v], "postgres", isolation_options(v))
                            else:
                                env = pgbench_env(ports[v], "paceline")
                            r = run(env, script, n, args.seconds, scale, pids.get(v), args.protocol)
                            results.setdefault((v, scale, script, n), []).append(r)
                            print(f"  {v} scale {scale} {script} c{n} #{repeat + 1}: {r['tps']:.0f} tps, "
                                  f"{100 * r['failed_share']:.2f}% failed{format_counters(r)}",
                                  file=sys.stderr, flush=True)
    print(f"pgbench built-in scripts, -M {args.protocol}, {args.seconds} s, medians of {args.repeats} (interleaved); "
          f"paceline-server {args.server_flags} --scheduler=adaptive")
    print("server CPU and context switches per transaction, and its threads: medians, sampled from /proc")
    print(f"{'variant':<14} {'scale':>5} {'script':<16} {'clients':>7} {'tps':>9} {'failed %':>9} {'cpu us':>7} "
          f"{'switches':>8} {'threads':>7}  runs (tps/failed %)")
    for (v, scale, script, n), runs in sorted(results.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][3])):
        tps = statistics.median(r["tps"] for r in runs)
        failed = statistics.median(r["failed_share"] for r in runs)
        measured = [r for r in runs if "cpu_us" in r]
        cpu = f"{statistics.median(r['cpu_us'] for r in measured):.1f}" if measured else "-"
        switches = f"{statistics.median(r['switches'] for r in measured):.2f}" if measured else "-"
        threads = f"{statistics.median(r['threads'] for r in measured):.0f}" if measured else "-"
        each = " ".join(f"{r['tps']:.0f}/{100 * r['failed_share']:.2f}" for r in runs)
        print(f"{v:<14} {scale:>5} {script:<16} {n:>7} {tps:>9.0f} {100 * failed:>9.2f} {cpu:>7} {switches:>8} "
              f"{threads:>7}  {each}")


def format_counters(r):
    if "cpu_us" not in r:
        return ""
    return f", server {r['cpu_us']:.1f} us CPU, {r['switches']:.2f} switches per transaction, {r['threads']} threads"


def run_app(args):
    import psycopg
    variants = args.variants.split(",")
    results = {}
    with servers_for(args, variants, 16) as (ports, _):
        for repeat in range(args.repeats):
            for v in variants:
                if v.startswith("postgres"):
                    kw = dict(port=ports[v], user="postgres", dbname="postgres", options=isolation_options(v))
                else:
                    kw = dict(port=ports[v], user="paceline", dbname="paceline")

                def connect(kw=kw, **extra):
                    return psycopg.connect(host="127.0.0.1", connect_timeout=10, **kw, **extra)
                r = order_entry.run(connect, threads=16, seconds=args.seconds)
                results.setdefault(v, []).append(r)
                print(f"  {v} order entry #{repeat + 1}: {r['tps']:.0f} tps, {100 * r['failed_share']:.2f}% failed, "
                      f"ledger {'ok' if r['ledger_ok'] else 'BROKEN'} {r['errors'][:1]}", file=sys.stderr, flush=True)
    print(f"psycopg order entry (script/order_entry.py: 16 threads, 80% of orders on 4 hot items), {args.seconds} s, "
          f"medians of {args.repeats} (interleaved); paceline-server {args.server_flags} --scheduler=adaptive")
    print(f"{'variant':<14} {'tps':>8} {'failed %':>9} {'ledger':>8}  runs (tps/failed %)")
    for v, runs in results.items():
        tps = statistics.median(r["tps"] for r in runs)
        failed = statistics.median(r["failed_share"] for r in runs)
        ledger = "ok" if all(r["ledger_ok"] for r in runs) else "BROKEN"
        each = " ".join(f"{r['tps']:.0f}/{100 * r['failed_share']:.2f}" for r in runs)
        print(f"{v:<14} {tps:>8.0f} {100 * failed:>9.2f} {ledger:>8}  {each}")


if __name__ == "__main__":
    main()
