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
references each conflict-aware run learned.
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
    p.add_argument("--json-out", default="")
    p.add_argument("extra", nargs="*", help="flags for every paceline-bench run (after --)")
    args = p.parse_args()
    ccs = [c for c in args.cc.split(",") if c]
    variants = [v for v in args.schedulers.split(",") if v]
    runs = {}
    everything = []
    for r in range(args.repeats):
        for cc in ccs:
            for v in variants:
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
            if args.hot:
                for h in js[-1].get("hot_references", [])[: args.hot]:
                    print(f"{'':<16}{h['reference']:<38} aborts {h['aborts']:>8} commits {h['commits']:>8} "
                          f"State {h['queued']}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(everything, f, indent=1)


if __name__ == "__main__":
    main()
