"""script/sweep: the paper's 2^k policy sweep (its Table II), reproduced and
extended with repeats, confidence intervals and a factorial analysis.

Runs paceline-bench (--json) once per cell: every cc of --cc under each of
the 19 schedulers (original = the paper's Original to the letter: random
placement, every retry at once without yielding; random = random placement
with Paceline's retry; partition = its Hard Partition; and the 16 policies
{count|fraction}-{sum|max}-{literal|canonical}-{single|all}), --repeats times, repeat-major and shuffled within a repeat so
that machine drift hits every cell alike. Each finished cell is saved at once
under OUT/cells/, so an interrupted sweep (Ctrl-C, SIGTERM, a crash) resumes
where it stopped when run again with the same flags and --out; --fresh redoes
everything. Then it writes into OUT: table.md (Table II's layout, mean ± 95%
CI), effects.md (main effects and interactions of the four factors, share of
variation, significance), paper.md (ours next to the paper's numbers as
ratios to each side's Original), results.csv (one row per run),
results.json (config, cells, effects, every run), policies.png, effects.png.

Every flag this script does not know is passed to each paceline-bench run as
it is written (as `--name=value`; everything after `--` too), over these
defaults, the contended setting of docs/results.md:
  --workload=tpcc --mix=paper --warehouses=4 --items=20000 --tpcc-customers=600
  --workers=8 --duration=4 --warmup=1 --stmt-latency-us=50 --check
--quick replaces them with a tiny TPC-C and 2 repeats (about 2 minutes on 2
cores); --target-latency-ms=500 measures every cell at the paper's fixed mean
response time (each cell then takes several runs). Partition and the 16
policies also get --placement-flags (default --steal=false: an idle worker
that steals undoes any placement); original and random keep paceline-bench's
stealing.

Examples:
  script/sweep                                    # the default sweep, about 25 minutes
  script/sweep --quick --out /tmp/q               # a quick one
  script/sweep --cc=occ,2pl,2pl-wait-die --repeats=5 --warehouses=8 --compare-paper
  script/sweep --out results/sweep-20261123-120000   # resume an interrupted sweep (same flags)
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

from . import design

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEFAULT_BENCH_ARGS = {
    "workload": "tpcc", "mix": "paper", "warehouses": "4", "items": "20000", "tpcc-customers": "600",
    "workers": "8", "duration": "4", "warmup": "1", "stmt-latency-us": "50", "check": "true",
}
QUICK_BENCH_ARGS = {
    "workload": "tpcc", "mix": "paper", "warehouses": "2", "items": "500", "tpcc-customers": "30",
    "workers": "4", "duration": "0.3", "warmup": "0.1", "stmt-latency-us": "50", "check": "true",
}
# Flags the sweep sets itself for every run.
OWN_FLAGS = {"cc", "scheduler", "json", "seed", "progress"}


class SweepError(Exception):
    pass


def parse_args(argv):
    p = argparse.ArgumentParser(prog="script/sweep", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bench", default="", help="paceline-bench binary (default: build/src/tools/paceline-bench, "
                   "built first with script/build)")
    p.add_argument("--cc", default="occ,2pl", help="comma-separated concurrency controls (default occ,2pl)")
    p.add_argument("--repeats", type=int, default=None, help="runs per cell (default 3; 2 with --quick)")
    p.add_argument("--seed", type=int, default=42, help="paceline-bench --seed of repeat 1; repeat r uses seed + r - 1")
    p.add_argument("--placement-flags", default="--steal=false",
                   help="extra paceline-bench flags, space-separated, for partition and the 16 policies")
    p.add_argument("--out", default="", help="results folder (default results/sweep-YYYYmmdd-HHMMSS)")
    p.add_argument("--fresh", action="store_true", help="discard the cells already in --out and redo them all")
    p.add_argument("--quick", action="store_true", help="a tiny configuration, 2 repeats, about 2 minutes")
    p.add_argument("--compare-paper", action="store_true",
                   help="print the paper's Table II next to ours (ratios to each side's Original)")
    p.add_argument("--cell-timeout", type=float, default=1800, help="seconds one paceline-bench run may take")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level of the effects (default 0.05)")
    args, rest = p.parse_known_args(argv)
    args.ccs = [c for c in args.cc.split(",") if c]
    if not args.ccs:
        p.error("--cc names no concurrency control")
    if args.repeats is None:
        args.repeats = 2 if args.quick else 3
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    try:
        args.bench_args = bench_args(rest, QUICK_BENCH_ARGS if args.quick else DEFAULT_BENCH_ARGS)
    except SweepError as e:
        p.error(str(e))
    args.placement = args.placement_flags.split()
    return args


def bench_args(passed, defaults):
    """The paceline-bench flags of every run: defaults, overridden by the
    flags passed through (each `--name=value` or a bare `--name`)."""
    merged = dict(defaults)
    for token in passed:
        if token == "--":
            continue
        if not token.startswith("--"):
            raise SweepError(f"unexpected argument {token!r}: pass paceline-bench flags as --name=value")
        name, eq, value = token[2:].partition("=")
        name = name.replace("_", "-")
        if name in OWN_FLAGS:
            raise SweepError(f"--{name} is set by the sweep itself" +
                             (" (use its --cc)" if name == "cc" else " (use its --seed)" if name == "seed" else ""))
        merged[name] = value if eq else "true"
    return [f"--{k}={v}" for k, v in merged.items()]


class Sweep:
    """The cells of one sweep, their files under OUT/cells, and running them."""

    def __init__(self, args, schedulers, is_placed):
        self.args = args
        self.out = args.out
        self.cells_dir = os.path.join(self.out, "cells")
        self.schedulers = schedulers
        self.is_placed = is_placed
        # What makes two runs of one cell comparable: a cached cell is reused
        # only under the same paceline-bench flags and seed.
        self.key = {"bench_args": args.bench_args, "placement_flags": args.placement, "seed": args.seed}

    def cells(self):
        """Every (repeat, cc, scheduler), repeat-major, shuffled within a repeat."""
        order = []
        for r in range(1, self.args.repeats + 1):
            block = [(r, cc, s) for cc in self.args.ccs for s in self.schedulers]
            random.Random(self.args.seed * 1009 + r).shuffle(block)
            order += block
        return order

    def path(self, repeat, cc, scheduler):
        return os.path.join(self.cells_dir, cc, scheduler, f"run{repeat}.json")

    def prepare(self):
        """Creates OUT (or checks that its cached cells were made with the same flags)."""
        key_path = os.path.join(self.out, "sweep-key.json")
        if self.args.fresh and os.path.isdir(self.cells_dir):
            shutil.rmtree(self.cells_dir)
        if os.path.exists(key_path) and os.path.isdir(self.cells_dir):
            with open(key_path) as f:
                old = json.load(f)
            if old != self.key:
                diff = [f"{k}: {old.get(k)} -> {self.key[k]}" for k in self.key if old.get(k) != self.key[k]]
                raise SweepError(f"{self.out} holds cells of a sweep with other settings ({'; '.join(diff)}); "
                                 "use --fresh to redo them or another --out")
        os.makedirs(self.cells_dir, exist_ok=True)
        with open(key_path, "w") as f:
            json.dump(self.key, f, indent=1)

    def command(self, repeat, cc, scheduler, json_path):
        extra = self.args.placement if self.is_placed(scheduler) else []
        return ([self.args.bench, f"--cc={cc}", *design.bench_flags(scheduler), f"--seed={self.args.seed + repeat - 1}",
                 "--progress=false", f"--json={json_path}"] + self.args.bench_args + extra)

    def run_cell(self, repeat, cc, scheduler):
        """Runs one cell and saves it (atomically: a cell file is whole or absent)."""
        final = self.path(repeat, cc, scheduler)
        os.makedirs(os.path.dirname(final), exist_ok=True)
        partial = final + ".partial"
        cmd = self.command(repeat, cc, scheduler, partial)
        start = time.monotonic()
        # A session of its own: a Ctrl-C at the terminal reaches the sweep,
        # which then stops this run itself (below).
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            _, err = proc.communicate(timeout=self.args.cell_timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise SweepError(f"{' '.join(cmd)} took more than {self.args.cell_timeout:.0f} s (--cell-timeout)")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.returncode not in (0, 1) and os.path.exists(partial):
                os.unlink(partial)
        if proc.returncode not in (0, 1) or not os.path.exists(partial) or os.path.getsize(partial) == 0:
            raise SweepError(f"{' '.join(cmd)} failed (exit {proc.returncode}):\n{err.strip()[-2000:]}")
        with open(partial) as f:
            result = json.load(f)
        os.unlink(partial)
        if "check" in result and not result["check"]["ok"]:
            failed = final.replace(".json", ".failed.json")
            with open(failed, "w") as f:
                json.dump(result, f, indent=1)
            raise SweepError(f"consistency check FAILED after {' '.join(cmd)} (saved in {failed}):\n"
                             f"{result['check']['report']}")
        record = {"cc": cc, "scheduler": scheduler, "repeat": repeat, "seed": self.args.seed + repeat - 1,
                  "command": cmd, "elapsed_s": round(time.monotonic() - start, 2), "bench": result}
        tmp = final + ".tmp"
        with open(tmp, "w") as f:
            json.dump(record, f)
        os.replace(tmp, final)
        return record

    def load(self, repeat, cc, scheduler):
        try:
            with open(self.path(repeat, cc, scheduler)) as f:
                return json.load(f)
        except (FileNotFoundError, json.JSONDecodeError):
            return None


def flatten(record):
    """A cell record as one run for the reports: paceline-bench's fields at the
    top (its scheduler bookkeeping renamed scheduler_stats), the cell's over them."""
    run = dict(record["bench"])
    run["scheduler_stats"] = run.pop("scheduler", None)
    for k in ("cc", "scheduler", "repeat", "seed", "elapsed_s"):
        run[k] = record[k]
    return run


def build_bench():
    """Builds paceline-bench with script/build (which installs what is missing)."""
    proc = subprocess.run([os.path.join(ROOT, "script", "build")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if proc.returncode != 0:
        raise SweepError(f"script/build failed:\n{proc.stdout[-3000:]}")
    return os.path.join(ROOT, "build", "src", "tools", "paceline-bench")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    try:
        return _main(args)
    except SweepError as e:
        print(f"script/sweep: {e}", file=sys.stderr)
        return 1


def _main(args):
    if not args.bench:
        args.bench = build_bench()
    if not os.access(args.bench, os.X_OK):
        raise SweepError(f"--bench {args.bench} is not an executable")
    if not args.out:
        args.out = os.path.join(ROOT, "results", time.strftime("sweep-%Y%m%d-%H%M%S"))
    # The heavy imports (scipy, matplotlib) after the build has installed them.
    from tqdm import tqdm

    from . import plots, report

    sweep = Sweep(args, design.schedulers(), design.is_placed)
    sweep.prepare()
    cells = sweep.cells()
    records = {c: sweep.load(*c) for c in cells}
    todo = [c for c in cells if records[c] is None]
    print(f"script/sweep: {len(cells)} cells ({len(args.ccs)} cc x {len(sweep.schedulers)} schedulers x "
          f"{args.repeats} repeats), {len(cells) - len(todo)} cached, {len(todo)} to run; results in {args.out}",
          flush=True)
    print(f"  paceline-bench {' '.join(args.bench_args)}  (placed schedulers also: {' '.join(args.placement)})",
          flush=True)

    # SIGTERM stops the sweep the way Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    bar = tqdm(total=len(cells), initial=len(cells) - len(todo), unit="cell", dynamic_ncols=True,
               file=sys.stderr, smoothing=0.1)
    try:
        for c in todo:
            repeat, cc, scheduler = c
            bar.set_postfix_str(f"{cc} {scheduler} run {repeat}")
            records[c] = sweep.run_cell(*c)
            b = records[c]["bench"]
            bar.write(f"  run {repeat} {cc:<14} {scheduler:<32} {b['tps']:>9.0f} tps  abort rate "
                      f"{b['abort_rate']:.3f}  ({records[c]['elapsed_s']:.1f} s)", file=sys.stderr)
            bar.update(1)
    except KeyboardInterrupt:
        bar.close()
        done = sum(1 for c in cells if records[c] is not None)
        print(f"\nscript/sweep: interrupted; {done} of {len(cells)} cells are complete in {args.out}. "
              f"Run the same command with --out {args.out} to resume.", file=sys.stderr)
        return 130
    bar.close()

    runs = [flatten(records[c]) for c in cells]
    summary = report.summarize(runs)
    analysis = report.analyses(runs, args.ccs, args.alpha)
    config = {"ccs": args.ccs, "repeats": args.repeats, "seed": args.seed, "bench_args": args.bench_args,
              "placement_flags": args.placement, "quick": args.quick, "bench": args.bench,
              "schedulers": sweep.schedulers, "alpha": args.alpha}
    title = (f"paceline-bench {' '.join(args.bench_args)}; placed: {' '.join(args.placement)}; "
             f"{args.repeats} repeat(s), mean ± 95% CI")
    table = report.table_md(summary, args.ccs, f"Table II, measured: {title}")
    effects = report.effects_md(analysis, args.ccs)
    paper = report.paper_md(summary, args.ccs, report.load_paper(os.path.join(os.path.dirname(__file__),
                                                                               "paper_table_ii.csv")))
    report.write_text(os.path.join(args.out, "table.md"), table)
    report.write_text(os.path.join(args.out, "effects.md"), effects)
    report.write_text(os.path.join(args.out, "paper.md"), paper)
    report.write_csv(os.path.join(args.out, "results.csv"), runs)
    report.write_text(os.path.join(args.out, "results.json"),
                      json.dumps(report.results_json(config, runs, summary, analysis), indent=1))
    plots.policies_png(os.path.join(args.out, "policies.png"), summary, args.ccs, title)
    plots.effects_png(os.path.join(args.out, "effects.png"), analysis, args.ccs, title)
    print()
    print(table)
    print(effects)
    if args.compare_paper:
        print("Ours next to the paper's Table II (tps as a ratio to each side's own Original):\n")
        print(paper)
    print(f"script/sweep: wrote table.md, effects.md, paper.md, results.csv, results.json, policies.png, "
          f"effects.png in {args.out}")
    return 0
