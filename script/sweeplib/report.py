"""Turns the sweep's runs into its outputs: per-cell means with 95% confidence
intervals, the Table II layout (table.md), the factorial effects
(effects.md), the comparison with the paper (paper.md), results.csv and
results.json.

A run is a dict with at least `cc`, `scheduler`, `repeat`, `tps` and
`abort_rate` (paceline-bench's JSON plus the sweep's cell fields).
"""
import csv
import math
import os

from . import design, factorial

METRICS = (("tps", "tps"), ("abort_rate", "abort rate"))
CSV_FIELDS = ("cc", "scheduler", "repeat", "seed", "tps", "abort_rate", "commits", "aborts", "aborts_per_commit",
              "user_aborts", "retry_limit_failures", "errors", "steals", "latency_mean_ms", "latency_p99_ms",
              "seconds", "check_ok", "elapsed_s")


def summarize(runs):
    """(cc, scheduler) -> {n, tps, tps_ci, abort_rate, abort_rate_ci, tps_median}."""
    cells = {}
    for run in runs:
        cells.setdefault((run["cc"], run["scheduler"]), []).append(run)
    out = {}
    for key, rs in cells.items():
        s = {"n": len(rs)}
        for metric, _ in METRICS:
            s[metric], s[metric + "_ci"] = factorial.mean_ci([r[metric] for r in rs])
        tps = sorted(r["tps"] for r in rs)
        s["tps_median"] = (tps[(len(tps) - 1) // 2] + tps[len(tps) // 2]) / 2
        out[key] = s
    return out


def analyses(runs, ccs, alpha=0.05):
    """The factorial analysis of each metric under each cc over the 16
    policies: {(cc, metric): factorial.Analysis}. Cells with unequal repeats
    (an interrupted sweep) are trimmed to the smallest count."""
    result = {}
    for cc in ccs:
        for metric, _ in METRICS:
            obs = {}
            for p in design.policies():
                obs[p.coded] = [r[metric] for r in sorted(runs, key=lambda r: r["repeat"])
                                if r["cc"] == cc and r["scheduler"] == p.scheduler]
            r = min(len(v) for v in obs.values())
            if r == 0:
                continue
            result[(cc, metric)] = factorial.analyze(design.FACTOR_NAMES, {k: v[:r] for k, v in obs.items()}, alpha)
    return result


def _fmt(value, ci, metric):
    if value is None or math.isnan(value):
        return "–"
    if metric == "tps":
        text = f"{value:,.0f}"
        return text if math.isnan(ci) else f"{text} ± {ci:,.0f}"
    text = f"{value:.3f}"
    return text if math.isnan(ci) else f"{text} ± {ci:.3f}"


def _policy_rows():
    """(scheduler, group cells) per Table II row: the four group columns, each
    printed only where the group starts, as in the paper."""
    rows = [(name, [label, "", "", ""]) for name, label in design.BASELINES]
    previous = (None,) * 4
    for p in design.policies():
        cols = []
        for i, level in enumerate(p.levels):
            same_prefix = p.levels[: i + 1] == previous[: i + 1]
            cols.append("" if same_prefix else level.capitalize())
        rows.append((p.scheduler, cols))
        previous = p.levels
    return rows


def table_md(summary, ccs, title):
    """Table II's layout: rows Original, Hard Partition, then the 16 policies;
    per cc a tps column and an abort rate column (mean ± 95% CI)."""
    head = ["Weight", "Aggregation", "Form", "Granularity"]
    for cc in ccs:
        head += [f"{design.cc_label(cc)} tps", f"{design.cc_label(cc)} abort rate"]
    lines = [f"{title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * 4 + "---:|" * (2 * len(ccs))]
    for scheduler, cols in _policy_rows():
        cells = list(cols)
        for cc in ccs:
            s = summary.get((cc, scheduler))
            for metric, _ in METRICS:
                cells.append(_fmt(s[metric], s[metric + "_ci"], metric) if s else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def effects_md(analysis_by_key, ccs):
    """One table per cc and metric: each main effect and interaction, its
    value with confidence interval, the share of variation it explains, and
    whether it is significant; rows sorted by share."""
    out = []
    for cc in ccs:
        for metric, metric_label in METRICS:
            a = analysis_by_key.get((cc, metric))
            if a is None:
                continue
            conf = round(100 * (1 - a.alpha))
            out.append(f"### {design.cc_label(cc)}, {metric_label}: mean {_num(a.mean, metric)}, "
                       f"{a.repeats} repeat(s) per policy")
            out.append("")
            out.append(f"| effect | q (per ±1 of the factor) | {conf}% CI | % of variation | significant |")
            out.append("|---|---:|---|---:|---|")
            for e in sorted(a.effects, key=lambda e: -e.percent):
                ci = "–" if math.isnan(e.ci_low) else f"[{_num(e.ci_low, metric)}, {_num(e.ci_high, metric)}]"
                sig = {True: "yes", False: "no", None: "– (one repeat)"}[e.significant]
                out.append(f"| {e.name} | {_num(e.q, metric)} | {ci} | {e.percent:.1f} | {sig} |")
            out.append(f"| error (between repeats) | | | {a.error_percent:.1f} | |")
            out.append("")
    levels = ", ".join(f"{name}: {lo} = -1, {hi} = +1" for name, (lo, hi) in design.FACTORS)
    out.append(f"Coding: {levels}. A positive q means the +1 level raises the metric; "
               "each level's mean is the grand mean ± q.")
    return "\n".join(out) + "\n"


def _num(x, metric):
    return f"{x:,.1f}" if metric == "tps" else f"{x:.4f}"


def load_paper(path):
    """The paper's Table II: scheduler -> {cc: (tps, abort_rate)} for occ and 2pl."""
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {r["scheduler"]: {cc: (float(r[f"{cc}_tps"]), float(r[f"{cc}_abort_rate"])) for cc in ("occ", "2pl")}
                for r in rows}


def paper_md(summary, ccs, paper):
    """Ours next to the paper's Table II, throughput as a ratio to each side's
    own Original (the machines differ, the shape can be compared), abort
    rates as they are; then the paper's own factorial effects (one run per
    cell, so no significance)."""
    ccs = [cc for cc in ccs if cc in ("occ", "2pl")]
    head = ["scheduler"]
    for cc in ccs:
        label = design.cc_label(cc)
        head += [f"{label} tps/Original ours", f"paper", f"{label} abort rate ours", "paper"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (4 * len(ccs))]
    for scheduler in design.schedulers():
        cells = [design.row_label(scheduler)]
        for cc in ccs:
            # Each side's Original: ours retried as the paper's authors did.
            ours, base = summary.get((cc, scheduler)), summary.get((cc, "original")) or summary.get((cc, "random"))
            theirs = paper.get(scheduler, paper["random"])[cc]
            ratio = ours["tps"] / base["tps"] if ours and base and base["tps"] else math.nan
            cells += [f"{ratio:.2f}", f"{theirs[0] / paper['random'][cc][0]:.2f}",
                      f"{ours['abort_rate']:.3f}" if ours else "–", f"{theirs[1]:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    runs = [{"cc": cc, "scheduler": s, "repeat": 1, "tps": v[cc][0], "abort_rate": v[cc][1]}
            for s, v in paper.items() for cc in ("occ", "2pl")]
    lines += ["", "The paper's own effects (its Table II, one run per cell):", ""]
    lines.append(effects_md(analyses(runs, ccs), ccs))
    return "\n".join(lines) + "\n"


def csv_rows(runs):
    for r in sorted(runs, key=lambda r: (r["cc"], design.schedulers().index(r["scheduler"]), r["repeat"])):
        yield {
            "cc": r["cc"], "scheduler": r["scheduler"], "repeat": r["repeat"], "seed": r.get("seed"),
            "tps": r["tps"], "abort_rate": r["abort_rate"], "commits": r.get("commits"), "aborts": r.get("aborts"),
            "aborts_per_commit": r.get("aborts_per_commit"), "user_aborts": r.get("user_aborts"),
            "retry_limit_failures": r.get("retry_limit_failures"), "errors": r.get("errors"),
            "steals": r.get("steals"), "latency_mean_ms": r.get("latency", {}).get("mean_ms"),
            "latency_p99_ms": r.get("latency", {}).get("p99_ms"), "seconds": r.get("seconds"),
            "check_ok": r.get("check", {}).get("ok", ""), "elapsed_s": r.get("elapsed_s"),
        }


def write_csv(path, runs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for row in csv_rows(runs):
            w.writerow(row)


def analysis_json(a):
    return {"mean": a.mean, "repeats": a.repeats, "error_percent": a.error_percent, "alpha": a.alpha,
            "effects": [{"name": e.name, "factors": list(e.factors), "q": e.q, "percent": e.percent,
                         "ci_low": None if math.isnan(e.ci_low) else e.ci_low,
                         "ci_high": None if math.isnan(e.ci_high) else e.ci_high,
                         "significant": e.significant} for e in a.effects]}


def results_json(config, runs, summary, analysis_by_key):
    def clean(x):
        return None if isinstance(x, float) and math.isnan(x) else x
    return {
        "config": config,
        "cells": [{"cc": cc, "scheduler": s, "label": design.row_label(s),
                   **{k: clean(v) for k, v in summary[(cc, s)].items()}}
                  for cc in config["ccs"] for s in design.schedulers() if (cc, s) in summary],
        "effects": [{"cc": cc, "metric": metric, **analysis_json(a)} for (cc, metric), a in analysis_by_key.items()],
        "runs": runs,
    }


def write_text(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
