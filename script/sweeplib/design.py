"""The cells of the policy sweep: the paper's 2^4 factorial of scheduling
policies plus its two baselines, in the order of its Table II.

A policy is one level of each of four factors (weight, aggregation, form,
granularity); its scheduler name is `{weight}-{aggregation}-{form}-{granularity}`
(paceline-bench takes the `-single` spelling too). Each factor is coded -1 for
its first level and +1 for its second, so a positive effect in the factorial
analysis means the second level raises the metric.
"""
import itertools
from dataclasses import dataclass

# Factor name -> (level coded -1, level coded +1), in the paper's nesting
# order (Table II groups Fraction/Count, then Sum/Max, Literal/Canonical,
# Single/All). The first level listed in the paper's table is not always the
# -1 level: Table II lists Fraction first, we code count = -1.
FACTORS = (
    ("weight", ("count", "fraction")),
    ("aggregation", ("sum", "max")),
    ("form", ("literal", "canonical")),
    ("granularity", ("single", "all")),
)
FACTOR_NAMES = tuple(name for name, _ in FACTORS)

# Table II lists the levels in this order within each group.
_TABLE_ORDER = (("fraction", "count"), ("sum", "max"), ("literal", "canonical"), ("single", "all"))

# "original" is the paper's Original to the letter: random placement, every
# retry at once without yielding the core (its authors' NO_WAIT with
# immediate retry); "random" is random placement with Paceline's own retry
# (yield, then a growing pause), what our other baselines use.
BASELINES = (("original", "Original"), ("random", "Random"), ("partition", "Hard Partition"))

# paceline-bench flags of a baseline that is not a scheduler name of its own.
_BASELINE_FLAGS = {"original": ["--scheduler=random", "--max-retry-pause-us=0", "--retry-yield=false"]}


def bench_flags(scheduler):
    """The paceline-bench flags that select `scheduler` (a sweep row)."""
    return _BASELINE_FLAGS.get(scheduler, [f"--scheduler={scheduler}"])


@dataclass(frozen=True)
class Policy:
    """One conflict-aware policy: a level per factor."""
    levels: tuple  # (weight, aggregation, form, granularity) level names

    @property
    def scheduler(self):
        return "-".join(self.levels)

    @property
    def coded(self):
        """The policy's -1/+1 code per factor, in FACTORS order."""
        return tuple(-1 if level == lows[0] else 1 for level, (_, lows) in zip(self.levels, FACTORS))

    @property
    def label(self):
        return " ".join(level.capitalize() for level in self.levels)


def policies():
    """The 16 policies in Table II's row order."""
    return [Policy(levels) for levels in itertools.product(*_TABLE_ORDER)]


def schedulers():
    """Every scheduler name the sweep runs: the baselines, then the 16 policies."""
    return [name for name, _ in BASELINES] + [p.scheduler for p in policies()]


def row_label(scheduler):
    """Table II's label for a scheduler name: 'Original', 'Hard Partition', or its levels."""
    for name, label in BASELINES:
        if name == scheduler:
            return label
    return " ".join(part.capitalize() for part in scheduler.split("-"))


def is_placed(scheduler):
    """True for the schedulers whose placement is the point (partition and the
    16 policies): stealing would undo it (docs/results.md, issue 5)."""
    return scheduler not in ("random", "original")


def cc_label(cc):
    return {"occ": "OCC", "2pl": "2PL"}.get(cc, cc.upper())
