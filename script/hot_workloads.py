#!/usr/bin/python3
"""The baselines the scheduler has to beat on hot spots that are not a
partition key, and on hot sets that move (issue 18): SmallBank and TATP with
their hot defaults, YCSB theta 0.99 and TPC-C with 2 hot warehouses of 8,
the last two with the hot set moving every --shift seconds. Each workload
runs under random, partition (on its key), count-max-canonical (those two
without stealing) and adaptive (with its placement-respecting stealing), plus a
conflict-free limit (the same transactions without a hot set: no hot
records, theta 0, uniform warehouses under partition), interleaved
repeat-major so that machine drift hits every variant alike.

    script/hot_workloads.py --out-dir results/hot --repeats 2

Prints a table per workload (medians: tps, ratio to random, abort rate,
user-abort share, p99, and the mean length of the busiest and of the idlest
run queue: one long queue beside idle ones is placement serialising work,
equal queues with aborts are conflicts) and writes every run's JSON and one series plot per
workload (script/plot_series.py, the first repeat) into --out-dir. Flags
after `--` go to every paceline-bench run."""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_schedulers import run_one  # noqa: E402

COMMON = ["--workers=8", "--clients=64", "--stmt-latency-us=50"]


def workloads(shift):
    s = f"--hot-shift-s={shift}"
    return {
        "smallbank": (["--workload=smallbank"], "custid", ["--hot-records=0"]),
        "tatp": (["--workload=tatp"], "s_id", ["--hot-records=0"]),
        "ycsb": (["--workload=ycsb", "--ycsb-theta=0.99", s], "ycsb_key", ["--ycsb-theta=0"]),
        "tpcc": (["--workload=tpcc", "--warehouses=8", "--items=20000", "--tpcc-customers=600",
                  "--tpcc-hot-warehouses=2", "--hot-fraction=0.9", s], "w_id", None),
    }


def variants(domain, limit):
    # The paper's placement policies run without stealing (an idle worker
    # taking a placed transaction undoes the placement), as the scheduler
    # issue measures them; adaptive with its stealing, which leaves the
    # transactions it pins alone (AdaptiveScheduler::MayMove).
    v = [("random", ["--scheduler=random"]),
         ("partition", ["--scheduler=partition", f"--partition-domain={domain}", "--steal=false"]),
         ("count-max-canonical", ["--scheduler=count-max-canonical", "--steal=false"]),
         ("adaptive", ["--scheduler=adaptive"])]
    if limit is not None:
        v.append(("limit (no hot set, random)", ["--scheduler=random"] + limit))
    return v


def without_hot(args, name):
    # TPC-C's limit: uniform warehouses, each queue owning one under partition.
    if name != "tpcc":
        return args
    return [a for a in args if not a.startswith(("--tpcc-hot-warehouses", "--hot-fraction", "--hot-shift-s"))]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", default="build/src/tools/paceline-bench")
    p.add_argument("--out-dir", required=True)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--warmup", type=float, default=2)
    p.add_argument("--shift", type=float, default=5, help="seconds between hot-set moves (YCSB, TPC-C)")
    p.add_argument("--cc", default="occ")
    p.add_argument("--only", default="", help="comma-separated workloads (default: all four)")
    p.add_argument("extra", nargs="*")
    args = p.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    chosen = {k: v for k, v in workloads(args.shift).items() if not args.only or k in args.only.split(",")}
    timing = [f"--duration={args.duration}", f"--warmup={args.warmup}", "--check"]
    runs = {}
    for r in range(args.repeats):
        for name, (flags, domain, limit) in chosen.items():
            vs = variants(domain, limit)
            if name == "tpcc":
                vs.append(("limit (uniform, partition)",
                           ["--scheduler=partition", "--partition-domain=w_id", "--steal=false"]))
            for label, vflags in vs:
                base = flags if not label.startswith("limit") else without_hot(flags, name)
                j = run_one(args.bench, args.cc, vflags[0].split("=", 1)[1],
                            COMMON + base + vflags[1:] + timing + args.extra)
                j["variant"] = label
                runs.setdefault(name, {}).setdefault(label, []).append(j)
                path = os.path.join(args.out_dir, f"{name}-{label.split()[0]}-{r + 1}.json")
                with open(path, "w") as f:
                    json.dump(j, f, indent=1)
                print(f"  [{r + 1}/{args.repeats}] {name:<10} {label:<28} {j['tps']:>9.0f} tps  "
                      f"abort rate {j['abort_rate']:.3f}", file=sys.stderr, flush=True)
    med = statistics.median
    for name, by_label in runs.items():
        print(f"\n{name} ({args.cc}, 8 workers, 64 clients, 50 us/statement, {args.duration:g} s, "
              f"medians of {args.repeats})")
        print(f"  {'scheduler':<28} {'tps':>9} {'ratio':>6} {'abort rate':>10} {'user abrt':>9} {'p99 ms':>8} "
              f"{'busiest q':>9} {'idlest q':>8}")
        base = med([j["tps"] for j in by_label["random"]])
        for label, js in by_label.items():
            tps = med([j["tps"] for j in js])
            ua = med([j["user_aborts"] / max(1, j["commits"] + j["user_aborts"]) for j in js])
            print(f"  {label:<28} {tps:>9.0f} {tps / base if base else 0:>6.2f} "
                  f"{med([j['abort_rate'] for j in js]):>10.3f} {ua:>9.3f} "
                  f"{med([j['latency']['p99_ms'] for j in js]):>8.2f} "
                  f"{med([max(q['mean'] for q in j['queue_length']['per_queue']) for j in js]):>9.1f} "
                  f"{med([min(q['mean'] for q in j['queue_length']['per_queue']) for j in js]):>8.1f}")
        plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot_series.py")
        files = [f"{label}={os.path.join(args.out_dir, name + '-' + label.split()[0] + '-1.json')}"
                 for label in by_label]
        subprocess.run(["/usr/bin/python3", plot, f"--out={os.path.join(args.out_dir, name + '.png')}",
                        f"--title={name}: series of the first repeat", *files], check=True)


if __name__ == "__main__":
    main()
