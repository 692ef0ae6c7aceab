#!/usr/bin/env python3
"""Runs paceline-bench once per (cc, scheduler[, repeat]) and prints them side
by side: committed tps, abort rate, p99 latency, and each run's ratio to the
first scheduler of its cc. Runs are interleaved (repeat-major) so that machine
drift hits every variant alike; with --repeats > 1 the medians are shown.

  script/compare_schedulers.py --bench build/src/tools/paceline-bench \\
      --cc occ,2pl --schedulers random,partition,count-max-canonical \\
      -- --warehouses=4 --workers=8 --duration=10

Everything after `--` goes to every paceline-bench run. --json-out saves all
runs' JSON (a list) for later analysis; --hot N prints the N heaviest
references each conflict-aware run learned (adaptive: its hot references
and their home queue); --loads prints each queue's share of the commits
and its mean length (of the last run of each variant): placement that
serialises work shows as one long queue beside idle ones. --limit adds
the physical limit: workers x the throughput of one client alone (random,
--clients=1, run in every repeat), the most the workers could do if no
transaction ever waited for another.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run_one(bench, cc, scheduler, extra):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [bench, f"--cc={cc}", f"--scheduler={scheduler}", "--progress=false", f"--json={path}"] + extra
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode not in (0, 1) or os.path.getsize(path) == 0:
            sys.exit(f"compare_schedulers: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
        with open(path) as f:
            j = json.load(f)
        if "check" in j and not j["check"]["ok"]:
            sys.exit(f"compare_schedulers: consistency check FAILED after {' '.join(cmd)}:\n{j['check']['report']}")
        return j
    finally:
        os.unlink(path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", default="build/src/tools/paceline-bench")
    p.add_argument("--cc", default="occ,2pl", help="comma-separated concurrency controls")
    p.add_argument("--schedulers", default="random,partition,count-max-canonical",
                   help="comma-separated schedulers; the first is the baseline of the ratios. "
                        "NAME:extra-flag[:extra-flag] adds flags to that variant only "
                        "(e.g. partition:--steal=false)")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--hot", type=int, default=0, help="print this many hot references per run")
    p.add_argument("--loads", action="store_true", help="print per-queue commit shares and mean lengths")
    p.add_argument("--limit", action="store_true", help="also run one client alone: the physical limit")
    p.add_argument("--json-out", default="")
    p.add_argument("extra", nargs="*", help="flags for every paceline-bench run (after --)")
    args = p.parse_args()
    ccs = [c for c in args.cc.split(",") if c]
    variants = [v for v in args.schedulers.split(",") if v]
    runs_of = variants + (["random:--clients=1"] if args.limit and "random:--clients=1" not in variants else [])
    runs = {}
    everything = []
    for r in range(args.repeats):
        for cc in ccs:
            for v in runs_of:
                name, *flags = v.split(":")
                j = run_one(args.bench, cc, name, args.extra + flags)
                j["variant"] = v
                everything.append(j)
                runs.setdefault((cc, v), []).append(j)
                print(f"  [{r + 1}/{args.repeats}] {cc:<14} {v:<40} {j['tps']:>10.0f} tps  "
                      f"abort rate {j['abort_rate']:.3f}", file=sys.stderr, flush=True)
    med = lambda xs: statistics.median(xs)
    print(f"{'cc':<14} {'scheduler':<40} {'tps':>10} {'ratio':>7} {'abort rate':>11} {'p99 ms':>9} {'steals':>7}")
    for cc in ccs:
        base = med([j["tps"] for j in runs[(cc, variants[0])]])
        for v in variants:
            js = runs[(cc, v)]
            tps = med([j["tps"] for j in js])
            commits = sum(j["commits"] for j in js)
            steals = med([j["steals"] / max(1, j["commits"]) for j in js])
            print(f"{cc:<14} {v:<40} {tps:>10.0f} {tps / base if base else 0:>7.2f} "
                  f"{med([j['abort_rate'] for j in js]):>11.3f} {med([j['latency']['p99_ms'] for j in js]):>9.2f} "
                  f"{steals:>7.2f}")
            if args.loads:
                j = js[-1]
                commits = [q["commits"] for q in j.get("queues", [])]
                total = max(1, sum(commits))
                lengths = [q["mean"] for q in j.get("queue_length", {}).get("per_queue", [])]
                print(f"{'':<16}{'commits per queue %':<38} " + " ".join(f"{100 * c / total:>4.0f}" for c in commits))
                print(f"{'':<16}{'mean queue length':<38} " + " ".join(f"{x:>4.1f}" for x in lengths))
            if args.hot:
                for h in js[-1].get("hot_references", [])[: args.hot]:
                    print(f"{'':<16}{h['reference']:<38} aborts {h['aborts']:>8} commits {h['commits']:>8} "
                          f"State {h['queued']}")
        if args.limit:
            alone = runs[(cc, "random:--clients=1")]
            limit = med([int(j["settings"]["workers"]) * j["tps"] for j in alone])
            print(f"{cc:<14} {'limit: workers x one client alone':<40} {limit:>10.0f} "
                  f"{limit / base if base else 0:>7.2f}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(everything, f, indent=1)


if __name__ == "__main__":
    main()
