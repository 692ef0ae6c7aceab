#!/usr/bin/python3
"""Before/after of an engine change: two paceline-bench binaries (say, one
built from main and one from a branch) run the same configurations
interleaved (before, after, before, after, ...), REPEATS times each, and the
medians and per-repeat ratios are printed as a Markdown table.

  script/compare_bench_builds.py OLD_BENCH NEW_BENCH [--repeats 3] [--out DIR]

Configurations: TPC-C paper and standard mixes under OCC, the standard mix
under 2PL, YCSB theta 0.9 under OCC; random placement, 8 workers, 64
clients, 50 us per statement (so 8 workers overlap on a small machine)."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

COMMON = ["--workers=8", "--clients=64", "--duration=4", "--warmup=1", "--stmt-latency-us=50", "--scheduler=random"]
TPCC = ["--workload=tpcc", "--warehouses=8", "--items=20000", "--tpcc-customers=600"]
CONFIGS = [
    ("occ, TPC-C paper mix", TPCC + ["--cc=occ", "--mix=paper"]),
    ("occ, TPC-C standard mix", TPCC + ["--cc=occ", "--mix=standard"]),
    ("2pl, TPC-C standard mix", TPCC + ["--cc=2pl", "--mix=standard"]),
    ("occ, YCSB theta 0.9", ["--workload=ycsb", "--cc=occ", "--ycsb-theta=0.9", "--ycsb-records=100000"]),
]


def run(binary, args, out):
    with open(out + ".txt", "w") as log:
        subprocess.run([binary, *args, *COMMON, "--json=" + out + ".json"], stdout=log, stderr=subprocess.STDOUT,
                       check=True)
    with open(out + ".json") as f:
        return json.load(f)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", default=None, help="keep each run's output and JSON here")
    a = p.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="compare_bench_")
    os.makedirs(out, exist_ok=True)
    print("| configuration | before tps | after tps | ratio (per repeat) | before abort rate | after abort rate |")
    print("|---|---|---|---|---|---|")
    for i, (name, args) in enumerate(CONFIGS):
        old, new = [], []
        for r in range(a.repeats):
            old.append(run(a.old, args, os.path.join(out, "c%d-old-%d" % (i, r))))
            new.append(run(a.new, args, os.path.join(out, "c%d-new-%d" % (i, r))))
        ratios = [n["tps"] / o["tps"] for o, n in zip(old, new)]
        print("| %s | %.0f | %.0f | %.2f (%s) | %.3f | %.3f |" % (
            name, statistics.median(o["tps"] for o in old), statistics.median(n["tps"] for n in new),
            statistics.median(ratios), ", ".join("%.2f" % x for x in ratios),
            statistics.median(o["abort_rate"] for o in old), statistics.median(n["abort_rate"] for n in new)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
