#!/usr/bin/python3
"""The sweep's 2^k factorial analysis (script/sweeplib/factorial.py) on data
sets whose effects are known: it must recover them exactly, split the
variation into the right shares, and call significant exactly the effects
that stand out of the noise between repeats."""
import itertools
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "script"))
from sweeplib import design, factorial, report  # noqa: E402

FACTORS = ("A", "B", "C", "D")


def model(a, b, c, d):
    return 10 + 3 * a - 2 * b + a * b


def design_points(k=4):
    return list(itertools.product((-1, 1), repeat=k))


class FactorialTest(unittest.TestCase):
    def test_recovers_known_effects_exactly(self):
        obs = {p: [model(*p)] for p in design_points()}
        a = factorial.analyze(FACTORS, obs)
        self.assertEqual(a.repeats, 1)
        self.assertAlmostEqual(a.mean, 10)
        q = {e.name: e.q for e in a.effects}
        self.assertEqual(len(q), 15)  # 4 main effects, 6 + 4 + 1 interactions
        self.assertAlmostEqual(q["A"], 3)
        self.assertAlmostEqual(q["B"], -2)
        self.assertAlmostEqual(q["A x B"], 1)
        for name, value in q.items():
            if name not in ("A", "B", "A x B"):
                self.assertAlmostEqual(value, 0, msg=name)
        # Shares of variation: q^2 / (9 + 4 + 1); no error without repeats.
        pct = {e.name: e.percent for e in a.effects}
        self.assertAlmostEqual(pct["A"], 100 * 9 / 14)
        self.assertAlmostEqual(pct["B"], 100 * 4 / 14)
        self.assertAlmostEqual(pct["A x B"], 100 * 1 / 14)
        self.assertAlmostEqual(a.error_percent, 0)
        self.assertTrue(all(e.significant is None for e in a.effects))

    def test_two_factors(self):
        # The textbook 2^2 example (Jain, ch. 17: memory and cache size):
        # y = 40 + 20 xA + 10 xB + 5 xA xB.
        obs = {(-1, -1): [15], (1, -1): [45], (-1, 1): [25], (1, 1): [75]}
        a = factorial.analyze(("memory", "cache"), obs)
        self.assertAlmostEqual(a.mean, 40)
        self.assertEqual({e.name: round(e.q, 9) for e in a.effects}, {"memory": 20, "cache": 10, "memory x cache": 5})
        self.assertEqual([round(e.percent, 1) for e in a.effects], [76.2, 19.0, 4.8])

    def test_repeats_give_error_and_significance(self):
        # Three repeats per point, m - d, m, m + d: the point means are the
        # model's, so every effect is exact and the zero ones are exactly 0;
        # SSE = 16 * 2d^2 with 32 degrees of freedom, s_q = d / sqrt(48),
        # and the 95% interval is q -/+ t(0.975, 32) * s_q = q -/+ 0.294 d.
        def observations(d):
            return {p: [model(*p) - d, model(*p), model(*p) + d] for p in design_points()}

        a = factorial.analyze(FACTORS, observations(0.3))
        self.assertEqual(a.repeats, 3)
        by = a.by_name()
        self.assertAlmostEqual(by["A"].q, 3)
        self.assertAlmostEqual(by["A"].ci_high - by["A"].q, 2.036933 * 0.3 / math.sqrt(48), places=5)
        self.assertEqual([e.name for e in a.effects if e.significant], ["A", "B", "A x B"])
        self.assertGreater(a.error_percent, 0)
        self.assertAlmostEqual(sum(e.percent for e in a.effects) + a.error_percent, 100)
        # Noise of 5 either side: the interval is +/- 1.47, so A x B (1) is
        # no longer told apart from zero, A and B still are.
        a = factorial.analyze(FACTORS, observations(5))
        self.assertEqual([e.name for e in a.effects if e.significant], ["A", "B"])

    def test_pure_noise_is_not_significant(self):
        obs = {p: [5.0, 5.1, 4.9] for p in design_points()}
        a = factorial.analyze(FACTORS, obs)
        self.assertFalse(any(e.significant for e in a.effects))
        self.assertAlmostEqual(a.error_percent, 100)

    def test_bad_designs_are_refused(self):
        obs = {p: [1.0] for p in design_points()}
        del obs[(1, 1, 1, 1)]
        with self.assertRaisesRegex(ValueError, "without observations"):
            factorial.analyze(FACTORS, obs)
        obs = {p: [1.0, 2.0] for p in design_points()}
        obs[(1, 1, 1, 1)] = [1.0]
        with self.assertRaisesRegex(ValueError, "same number of repeats"):
            factorial.analyze(FACTORS, obs)

    def test_mean_ci(self):
        mean, half = factorial.mean_ci([10, 12, 14])
        self.assertAlmostEqual(mean, 12)
        self.assertAlmostEqual(half, 4.302652729 * 2 / math.sqrt(3), places=6)  # t(0.975, 2) * s / sqrt(n)
        self.assertTrue(math.isnan(factorial.mean_ci([3])[1]))


class DesignTest(unittest.TestCase):
    def test_sixteen_policies_in_table_two_order(self):
        ps = design.policies()
        self.assertEqual(len(ps), 16)
        self.assertEqual(len({p.coded for p in ps}), 16)
        self.assertEqual(ps[0].scheduler, "fraction-sum-literal-single")
        self.assertEqual(ps[-1].scheduler, "count-max-canonical-all")
        self.assertEqual(design.schedulers()[:3], ["original", "random", "partition"])
        self.assertEqual(design.bench_flags("original"),
                         ["--scheduler=random", "--max-retry-pause-us=0", "--retry-yield=false"])
        self.assertEqual(design.bench_flags("count-max-canonical"), ["--scheduler=count-max-canonical"])
        self.assertEqual(ps[14].coded, (-1, 1, 1, -1))  # count-max-canonical-single: the paper's winner

    def test_sweep_analysis_recovers_an_effect_planted_in_runs(self):
        # Runs shaped like the sweep's: tps 1000 + 100 when Max, + 50 more for
        # Max with Canonical; abort rate 0.5 - 0.1 per Count.
        runs = []
        for p in design.policies():
            w, agg, form, _ = p.coded
            for r in (1, 2):
                noise = 1 if r == 1 else -1
                runs.append({"cc": "occ", "scheduler": p.scheduler, "repeat": r,
                             "tps": 1075 + 50 * agg + 25 * agg * form + noise, "abort_rate": 0.4 + 0.1 * w})
        a = report.analyses(runs, ["occ"])
        tps = a[("occ", "tps")].by_name()
        self.assertAlmostEqual(tps["aggregation"].q, 50)
        self.assertAlmostEqual(tps["aggregation x form"].q, 25)
        self.assertAlmostEqual(tps["weight"].q, 0)
        self.assertAlmostEqual(a[("occ", "abort_rate")].by_name()["weight"].q, 0.1)
        table = report.table_md(report.summarize(runs), ["occ"], "t")
        # Table II's layout: a group's label only where it starts; mean ± 95% CI
        # (two repeats 1 apart: t(0.975, 1) * 1 = 12.7).
        self.assertIn("| Count | Sum | Literal | Single | 1,050 ± 13 | 0.300 ± 0.000 |", table)
        self.assertIn("|  |  | Canonical | Single | 1,150 ± 13 | 0.300 ± 0.000 |", table)
        self.assertIn("| Original |  |  |  | – | – |", table)


if __name__ == "__main__":
    unittest.main()
