#!/usr/bin/python3
"""Tests of script/scheduler_matrix: its arithmetic on synthetic runs (the
recovery after a hot-set move, the t-interval, the physical limit, the
targets' verdicts), and end to end against the real paceline-bench on one
short scenario with a hot set that moves: every run's JSON, matrix.json,
matrix.md and matrix.png are written, random's ratio to itself is 1, the
limit is workers x the one-client tps, and running it again reads every run
back instead of repeating it. Run by ctest as:
scheduler_matrix_test.py SCRIPT BENCH."""
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = BENCH = None


def load_matrix(path):
    loader = importlib.machinery.SourceFileLoader("scheduler_matrix", path)
    spec = importlib.util.spec_from_loader("scheduler_matrix", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def series(tps, every=0.25):
    return [{"t": (i + 1) * every, "seconds": every, "tps": x} for i, x in enumerate(tps)]


class ArithmeticTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = load_matrix(SCRIPT)

    def test_recovery_is_the_worst_move(self):
        # Steady 100; the move at 1.0 s drops it for two intervals (back in
        # the one ending at 1.75 s), the move at 2.0 s for none.
        j = {"series": series([100, 100, 100, 100, 40, 50, 95, 100, 100, 100, 100, 100, 100, 100]),
             "hot_shifts_s": [1.0, 2.0]}
        self.assertAlmostEqual(self.m.recovery_s(j), 0.75)
        # Never back: until the run's end.
        j = {"series": series([100] * 8 + [10] * 8), "hot_shifts_s": [2.0]}
        self.assertAlmostEqual(self.m.recovery_s(j), 2.0)
        self.assertIsNone(self.m.recovery_s({"series": series([1, 2]), "hot_shifts_s": []}))

    def test_interval_and_limit(self):
        lo, hi = self.m.ci95([10.0, 12.0, 14.0])
        self.assertAlmostEqual((lo + hi) / 2, 12.0)
        self.assertAlmostEqual(hi - 12.0, 4.303 * 2.0 / 3 ** 0.5, places=3)
        self.assertEqual(self.m.ci95([5.0]), (5.0, 5.0))
        alone = {"tps": 100.0, "settings": {"cores": "2"}}
        self.assertEqual(self.m.limit_tps(alone, 8, lat0=False), 800.0)
        self.assertEqual(self.m.limit_tps(alone, 8, lat0=True), 200.0)

    def test_targets_say_met_or_missed(self):
        def v(tps, ratio, part=1.0, abort=0.0, limit=1.0, rec=None):
            return {"tps": tps, "ratio_random": ratio, "ratio_partition": part, "abort_rate": abort,
                    "of_limit": limit, "recovery_s": rec}
        row = {"scenario": "tpcc-w8-c64", "cc": "occ",
               "variants": {"random": v(100, 1), "partition": v(130, 1.3), "count-max-canonical": v(60, .6, .46),
                            "adaptive": v(131, 1.31, 1.01, 0.02, 0.9)}}
        lines = self.m.targets([row])
        self.assertIn("met", lines[0])
        self.assertNotIn("missed", lines[0])
        self.assertIn("**missed**", lines[1])  # count-max-canonical 0.46x partition
        moving = {"scenario": "ycsb-theta0.99-moving", "cc": "occ",
                  "variants": {"random": v(100, 1), "adaptive": v(130, 1.3, rec=2.5)}}
        self.assertIn("**missed**", self.m.targets([moving])[0])  # 2.5 s to recover


class EndToEndTest(unittest.TestCase):
    def test_one_moving_scenario_runs_writes_and_resumes(self):
        with tempfile.TemporaryDirectory() as out:
            cmd = [SCRIPT, "--bench", BENCH, "--out-dir", out, "--only", "ycsb-theta0.99-moving", "--repeats", "2",
                   "--duration", "2", "--warmup", "0.2", "--shift", "0.5", "--", "--ycsb-records=2000",
                   "--stmt-latency-us=0", "--clients=16"]
            first = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            self.assertEqual(first.returncode, 0, first.stderr)
            runs = sorted(os.listdir(os.path.join(out, "runs")))
            self.assertEqual(len(runs), 6 * 2, runs)  # 5 schedulers and the one-client run, 2 repeats
            with open(os.path.join(out, "matrix.json")) as f:
                results = json.load(f)
            self.assertEqual(len(results), 1)
            row = results[0]
            self.assertEqual(set(row["variants"]),
                             {"random", "original", "partition", "count-max-canonical", "adaptive"})
            self.assertEqual(row["variants"]["random"]["ratio_random"], 1.0)
            self.assertAlmostEqual(row["limit_tps"], 8 * row["alone_tps"], delta=1e-6 * row["limit_tps"])
            for label, x in row["variants"].items():
                self.assertGreater(x["tps"], 0, label)
                self.assertLessEqual(x["tps_ci95"][0], x["tps_ci95"][1])
                self.assertIsNotNone(x["recovery_s"], label)  # the hot set moved twice
            with open(os.path.join(out, "matrix.md")) as f:
                md = f.read()
            self.assertIn("| ycsb-theta0.99-moving | occ | adaptive |", md)
            self.assertIn("## Targets", md)
            self.assertGreater(os.path.getsize(os.path.join(out, "matrix.png")), 1000)
            # Again: every run is read back, none repeated.
            stamps = {r: os.path.getmtime(os.path.join(out, "runs", r)) for r in runs}
            second = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            self.assertEqual(second.returncode, 0, second.stderr)
            self.assertEqual(stamps, {r: os.path.getmtime(os.path.join(out, "runs", r)) for r in runs})
            self.assertEqual(first.stdout, second.stdout)

    def test_unknown_scenario_is_refused(self):
        r = subprocess.run([SCRIPT, "--bench", BENCH, "--out-dir", "/nonexistent/x", "--only", "nope"],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no scenario matches --only", r.stderr)


if __name__ == "__main__":
    SCRIPT, BENCH = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
