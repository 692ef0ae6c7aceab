#!/usr/bin/python3
"""Draws the time series of several paceline-bench runs on one PNG: committed
tps, abort rate and p99 latency over the measured window, one line per run
(labelled by its scheduler, or by LABEL=FILE), the moments the hot set moved
(--hot-shift-s) marked as dashed vertical lines.

    paceline-bench --workload=smallbank --hot-shift-s=5 --scheduler=random --json=random.json
    paceline-bench --workload=smallbank --hot-shift-s=5 --scheduler=partition --json=partition.json
    script/plot_series.py --out=smallbank.png --title="SmallBank, hot set moving every 5 s" \\
        random.json partition.json

Each input is one paceline-bench --json file (its "series", "series_seconds"
and "hot_shifts_s"). Exit 2 on bad usage or a file without a series."""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(spec):
    label, _, path = spec.rpartition("=")
    with open(path) as f:
        j = json.load(f)
    if not j.get("series"):
        raise ValueError(f"{path}: no \"series\" (a paceline-bench --json file from a build with time series?)")
    if not label:
        s = j.get("settings", {})
        label = s.get("scheduler", path)
        if s.get("cc"):
            label += f" ({s['cc']})"
    return label, j


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="paceline-bench --json files, optionally LABEL=FILE")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--title", default="", help="the figure's title")
    args = parser.parse_args()
    try:
        runs = [load(spec) for spec in args.runs]
    except (OSError, ValueError) as e:
        print(f"plot_series.py: {e}", file=sys.stderr)
        return 2

    fig, axes = plt.subplots(3, 1, figsize=(10, 9), sharex=True)
    panels = [("tps", "committed tps"), ("abort_rate", "abort rate"), ("p99_ms", "p99 latency (ms)")]
    shifts = set()
    for label, j in runs:
        # Each point covers (t - seconds, t]: drawn as steps over its interval.
        t = [p["t"] - p["seconds"] for p in j["series"]] + [j["series"][-1]["t"]]
        for ax, (key, _) in zip(axes, panels):
            values = [p[key] for p in j["series"]]
            ax.step(t, values + values[-1:], where="post", label=label)
        shifts.update(j.get("hot_shifts_s", []))
    for ax, (_, name) in zip(axes, panels):
        ax.set_ylabel(name)
        ax.grid(True, alpha=0.3)
        for s in sorted(shifts):
            ax.axvline(s, color="grey", linestyle="--", linewidth=0.8)
    axes[0].legend(loc="best", fontsize="small")
    axes[-1].set_xlabel("seconds into the measured window" + ("  (dashed: the hot set moved)" if shifts else ""))
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"plot_series.py: wrote {args.out} ({len(runs)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
