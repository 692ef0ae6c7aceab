"""2^k factorial analysis with replication, by the sign-table method (Jain,
The Art of Computer Systems Performance Analysis, ch. 17-18).

Each of the 2^k design points (a -1/+1 level per factor) has r observations.
With y_i the mean of point i and x_iS the product of the codes of the factors
in S, the effect of the factor set S (a main effect when S has one factor, an
interaction otherwise) is

    q_S = (1 / 2^k) * sum_i x_iS * y_i,       q_0 = the grand mean,

so that y = q_0 + sum_S q_S x_S fits the point means exactly. The variation
is split as SST = sum_S 2^k r q_S^2 + SSE, where SSE is the squared deviation
of each observation from its point mean; each effect explains
100 * 2^k r q_S^2 / SST percent of it. With r >= 2 the standard error of an
effect is s_e / sqrt(2^k r), s_e^2 = SSE / (2^k (r - 1)), and an effect is
significant when its (1 - alpha) confidence interval, q_S -/+ t * s_q with
t from Student's t at 2^k (r - 1) degrees of freedom, excludes zero.
"""
import itertools
import math
from dataclasses import dataclass

from scipy import stats


@dataclass
class Effect:
    name: str            # "weight", "weight x form", ...
    factors: tuple       # the factor names in the set
    q: float             # the effect (half the change from level -1 to +1 for a main effect)
    percent: float       # percentage of the variation (SST) it explains
    ci_low: float = math.nan
    ci_high: float = math.nan
    significant: object = None  # True/False with repeats; None without (r = 1)


@dataclass
class Analysis:
    factors: tuple
    mean: float          # q_0
    repeats: int
    effects: list        # Effect per non-empty factor set, by size then factor order
    error_percent: float  # SSE's share of SST (experimental error)
    sst: float
    alpha: float

    def by_name(self):
        return {e.name: e for e in self.effects}


def effect_name(factor_set):
    return " x ".join(factor_set)


def analyze(factors, observations, alpha=0.05):
    """Analyses a replicated 2^k design.

    factors: the k factor names. observations: dict mapping each of the 2^k
    tuples of -1/+1 codes (in the order of `factors`) to its list of
    observations; every point needs the same number r >= 1 of them.
    Raises ValueError when a point is missing or the repeats differ."""
    k = len(factors)
    points = list(itertools.product((-1, 1), repeat=k))
    missing = [p for p in points if not observations.get(p)]
    if missing:
        raise ValueError(f"design point(s) without observations: {missing}")
    extra = [p for p in observations if p not in points]
    if extra:
        raise ValueError(f"not a design point of {k} factors: {extra}")
    counts = {len(observations[p]) for p in points}
    if len(counts) != 1:
        raise ValueError(f"every design point needs the same number of repeats, got {sorted(counts)}")
    r = counts.pop()
    n_points = len(points)
    means = {p: sum(observations[p]) / r for p in points}
    grand = sum(means.values()) / n_points
    sse = sum((y - means[p]) ** 2 for p in points for y in observations[p])
    sst = sum((y - grand) ** 2 for p in points for y in observations[p])
    dof = n_points * (r - 1)
    if r >= 2:
        s_q = math.sqrt(sse / dof) / math.sqrt(n_points * r)
        t = stats.t.ppf(1 - alpha / 2, dof)
    effects = []
    for size in range(1, k + 1):
        for subset in itertools.combinations(range(k), size):
            q = sum(math.prod(p[i] for i in subset) * means[p] for p in points) / n_points
            ss = n_points * r * q * q
            e = Effect(name=effect_name([factors[i] for i in subset]),
                       factors=tuple(factors[i] for i in subset), q=q,
                       percent=100.0 * ss / sst if sst > 0 else 0.0)
            if r >= 2:
                e.ci_low, e.ci_high = q - t * s_q, q + t * s_q
                e.significant = bool(e.ci_low > 0 or e.ci_high < 0)
            effects.append(e)
    return Analysis(factors=tuple(factors), mean=grand, repeats=r, effects=effects,
                    error_percent=100.0 * sse / sst if sst > 0 else 0.0, sst=sst, alpha=alpha)


def mean_ci(values, confidence=0.95):
    """Mean and half-width of its confidence interval (Student's t); the
    half-width is nan for fewer than two values."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, stats.t.ppf(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n)
