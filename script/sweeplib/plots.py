"""The sweep's figures (PNG, matplotlib without a display):
policies.png — throughput and abort rate of every scheduler, mean with 95%
confidence interval as error bars, one column of panels per cc;
effects.png — the share of variation each factor and interaction explains,
per cc and metric, significant effects in a darker colour."""
import math
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from . import design  # noqa: E402
from .report import METRICS  # noqa: E402


def _err(x):
    return 0.0 if x is None or math.isnan(x) else x


def _bounded_errors(values, halves, low, high):
    """Error bars of mean ± half-width, clipped to the metric's range [low, high]."""
    below = [min(h, v - low) for v, h in zip(values, halves)]
    above = [h if high is None else min(h, high - v) for v, h in zip(values, halves)]
    return [below, above]


def _title(fig, text):
    fig.suptitle("\n".join(textwrap.wrap(text, 150)), fontsize=9)


def policies_png(path, summary, ccs, title):
    names = design.schedulers()
    fig, axes = plt.subplots(2, len(ccs), figsize=(6.5 * len(ccs), 9), squeeze=False, sharex=True)
    # Original, Random, Hard Partition, then Fraction and Count policies.
    colours = ["#7f7f7f", "#bcbcbc", "#2ca02c"] + ["#1f77b4"] * 8 + ["#d62728"] * 8
    legend = [Patch(color=c, label=t) for c, t in (("#7f7f7f", "Original (random, retry at once)"),
                                                  ("#bcbcbc", "Random (Paceline's retry)"),
                                                  ("#2ca02c", "Hard Partition"),
                                                  ("#1f77b4", "Fraction policies"), ("#d62728", "Count policies"))]
    for col, cc in enumerate(ccs):
        for row, (metric, label) in enumerate(METRICS):
            ax = axes[row][col]
            cells = [summary.get((cc, n)) for n in names]
            values = [c[metric] if c else 0 for c in cells]
            halves = [_err(c[metric + "_ci"]) if c else 0 for c in cells]
            errors = _bounded_errors(values, halves, 0.0, 1.0 if metric == "abort_rate" else None)
            ax.bar(range(len(names)), values, yerr=errors, capsize=2, color=colours)
            ax.set_title(f"{design.cc_label(cc)}: {label}")
            ax.set_ylabel(label)
            if metric == "abort_rate":
                ax.set_ylim(0, max(1e-3, min(1.0, max(v + e for v, e in zip(values, errors[1])) * 1.1)))
            ax.grid(axis="y", alpha=0.3)
            ax.set_xticks(range(len(names)))
            ax.set_xticklabels([design.row_label(n) for n in names], rotation=90, fontsize=8)
    axes[0][0].legend(handles=legend, fontsize=7, loc="upper right")
    _title(fig, title + " (error bars: 95% CI of the mean, clipped to the metric's range)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def effects_png(path, analysis_by_key, ccs, title):
    keys = [(cc, m) for cc in ccs for m, _ in METRICS if (cc, m) in analysis_by_key]
    if not keys:
        return
    fig, axes = plt.subplots(len(ccs), 2, figsize=(13, 4.5 * len(ccs)), squeeze=False)
    for (cc, metric) in keys:
        ax = axes[ccs.index(cc)][[m for m, _ in METRICS].index(metric)]
        a = analysis_by_key[(cc, metric)]
        effects = a.effects
        labels = [e.name.replace(" x ", "×") for e in effects] + ["error"]
        values = [e.percent for e in effects] + [a.error_percent]
        colours = ["#1f4e79" if e.significant else "#9dc3e6" for e in effects] + ["#bfbfbf"]
        ax.barh(range(len(labels)), values, color=colours)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("% of variation explained")
        metric_label = dict(METRICS)[metric]
        ax.set_title(f"{design.cc_label(cc)}: {metric_label} (dark: significant at "
                     f"{round(100 * (1 - a.alpha))}%)" if a.repeats > 1 else f"{design.cc_label(cc)}: {metric_label}")
        ax.grid(axis="x", alpha=0.3)
    _title(fig, title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
