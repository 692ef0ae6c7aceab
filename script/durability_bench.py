#!/usr/bin/env python3
"""Measures what durability costs: paceline-bench (TPC-C by default) in
memory and with a data directory under each --sync mode, side by side, for
several client counts; runs interleaved repeat-major so that machine drift
hits every variant alike; medians over --repeats. Each durable run gets a
fresh data directory (under --tmp), loads the workload into it and is
deleted afterwards.

  script/durability_bench.py --clients 16,64,256,512 --syncs fsync,fsync+200,off --repeats 3 \\
      -- --warehouses=4 --items=20000 --tpcc-customers=600 --workers=8 --duration=5 --warmup=1

With --recovery-mib N it then measures recovery instead: one run writes at
least N MiB of redo log with checkpoints off and is killed (SIGKILL); a
second paceline-bench opens the directory, and the time it reports for
recovery is printed with the log size, per GiB.

Everything after `--` goes to every paceline-bench run.
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_bench(bench, flags):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [bench, "--progress=false", f"--json={path}"] + flags
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or os.path.getsize(path) == 0:
            sys.exit(f"durability_bench: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def throughput(args, extra):
    variants = ["memory"] + [s for s in args.syncs.split(",") if s]
    clients = [int(c) for c in args.clients.split(",")]
    results = {}  # (clients, variant) -> [json]
    for repeat in range(args.repeats):
        for c in clients:
            for v in variants:
                flags = [f"--clients={c}"] + extra
                d = None
                if v != "memory":
                    d = tempfile.mkdtemp(prefix="paceline-durability-", dir=args.tmp)
                    sync, _, delay = v.partition("+")  # fsync+200: --group-commit-us=200
                    flags += [f"--data-dir={d}", f"--sync={sync}"] + ([f"--group-commit-us={delay}"] if delay else [])
                try:
                    j = run_bench(args.bench, flags)
                finally:
                    if d:
                        shutil.rmtree(d, ignore_errors=True)
                results.setdefault((c, v), []).append(j)
                print(f"  repeat {repeat + 1} clients {c:4d} {v:11s} {j['tps']:10.1f} tps", file=sys.stderr, flush=True)
    print(f"paceline-bench {' '.join(extra)}; {args.repeats} repeats, medians")
    print(f"{'clients':>7} {'variant':>11} {'tps':>10} {'x memory':>9} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'rec/sync':>9} {'syncs/s':>8}  runs (tps)")
    for c in clients:
        base = statistics.median(j["tps"] for j in results[(c, "memory")])
        for v in variants:
            runs = results[(c, v)]
            tps = statistics.median(j["tps"] for j in runs)
            p50 = statistics.median(j["latency"]["p50_ms"] for j in runs)
            p99 = statistics.median(j["latency"]["p99_ms"] for j in runs)
            per_sync = syncs = ""
            if v != "memory":
                logs = [j["log"] for j in runs]
                per_sync = f"{statistics.median(l['records'] / max(1, l['syncs']) for l in logs):.1f}"
                syncs = f"{statistics.median(l['syncs'] / max(1e-9, l['seconds']) for l in logs):.0f}"
            print(f"{c:>7} {v:>11} {tps:>10.0f} {tps / base:>9.2f} {p50:>8.2f} {p99:>8.2f} {per_sync:>9} {syncs:>8}  "
                  + " · ".join(f"{j['tps']:.0f}" for j in runs))


def recovery(args, extra):
    d = tempfile.mkdtemp(prefix="paceline-recovery-", dir=args.tmp)
    try:
        flags = [f"--data-dir={d}", "--sync=off", "--checkpoint-interval-s=0", "--checkpoint-log-mb=0",
                 "--checkpoint-on-close=false", "--duration=3600", "--progress=true"] + extra
        p = subprocess.Popen([args.bench] + flags, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wal = os.path.join(d, "wal")
        started = time.time()
        for _ in p.stderr:  # a line a second
            size = sum(os.path.getsize(os.path.join(wal, f)) for f in os.listdir(wal)) if os.path.isdir(wal) else 0
            if size >= args.recovery_mib << 20 or time.time() - started > 1800:
                break
        p.send_signal(signal.SIGKILL)
        p.communicate()
        proc = subprocess.run([args.bench, f"--data-dir={d}", "--duration=0.2", "--warmup=0", "--progress=false",
                               "--checkpoint-on-close=false", "--check"] + extra,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        m = re.search(r"recovered (?:(\d+) checkpointed rows and )?(\d+) log records \((\d+) bytes\) in ([0-9.e-]+) s",
                      proc.stderr)
        if proc.returncode != 0 or not m:
            sys.exit(f"durability_bench: the recovering run failed ({proc.returncode}):\n{proc.stderr}")
        records, size, seconds = int(m.group(2)), int(m.group(3)), float(m.group(4))
        print(f"recovery: {records} log records, {size / 2**20:.0f} MiB of log, {seconds:.2f} s "
              f"({size / 2**20 / seconds:.0f} MiB/s, {seconds / (size / 2**30):.2f} s per GiB); "
              f"TPC-C consistency check after recovery passed")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", default=os.path.join(ROOT, "build", "src", "tools", "paceline-bench"))
    p.add_argument("--clients", default="16,64,256")
    p.add_argument("--syncs", default="fsync",
                   help="sync modes to compare with memory, e.g. fsync,fdatasync,off; fsync+200 adds "
                        "--group-commit-us=200")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--tmp", default=None, help="where data directories go (default: the system's temp dir)")
    p.add_argument("--recovery-mib", type=int, default=0, help="measure recovery of a log this large instead")
    args, extra = p.parse_known_args()
    extra = [a for a in extra if a != "--"]
    if args.recovery_mib:
        recovery(args, extra)
    else:
        throughput(args, extra)


if __name__ == "__main__":
    main()
