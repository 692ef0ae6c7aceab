#!/usr/bin/python3
"""End-to-end test of script/sweep --quick against the real paceline-bench:
interrupted with SIGINT after a few cells (those stay whole, nothing partial
is left), resumed with the same flags (finished cells are reused, not run
again), then every output checked: table.md, effects.md, paper.md,
results.csv, results.json and the two PNGs hold every cell. Also: flags the
sweep owns are refused, a failing paceline-bench stops the sweep with its
command and exit status, and cells of other settings are not mixed in.
Run by ctest as: sweep_test.py SCRIPT BENCH."""
import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

SCRIPT = BENCH = None
CCS = ("occ", "2pl")
N_SCHEDULERS = 19
REPEATS = 2  # --quick's default


def cell_files(out):
    found = []
    for root, _, files in os.walk(os.path.join(out, "cells")):
        found += [os.path.join(root, f) for f in files]
    return sorted(found)


class SweepTest(unittest.TestCase):
    def test_interrupt_resume_and_outputs(self):
        with tempfile.TemporaryDirectory() as out:
            cmd = [SCRIPT, "--quick", "--bench", BENCH, "--out", out]
            # 1. Interrupt after three cells have finished (the sweep prints
            #    one line per finished cell on stderr).
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            finished = 0
            for line in proc.stderr:
                if "tps  abort rate" in line:
                    finished += 1
                    if finished == 3:
                        proc.send_signal(signal.SIGINT)
                        break
            rest = proc.stderr.read()
            proc.wait(timeout=120)
            proc.stdout.close()
            proc.stderr.close()
            self.assertEqual(proc.returncode, 130, rest)
            self.assertIn("interrupted", rest)
            self.assertIn(f"--out {out} to resume", rest)
            files = cell_files(out)
            complete = [f for f in files if f.endswith("run1.json") or f.endswith("run2.json")]
            self.assertEqual(files, complete, "a partial or temporary file was left behind")
            self.assertGreaterEqual(len(complete), 3)
            self.assertLess(len(complete), len(CCS) * N_SCHEDULERS * REPEATS)
            before = {}
            for f in complete:
                with open(f) as fh:
                    text = fh.read()
                record = json.loads(text)  # whole, parseable
                self.assertGreater(record["bench"]["commits"], 0)
                before[f] = text
            # 2. Resume: the finished cells are reused as they are.
            p = subprocess.run(cmd + ["--compare-paper"], capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr[-3000:])
            total = len(CCS) * N_SCHEDULERS * REPEATS
            self.assertIn(f"{total} cells (2 cc x 19 schedulers x 2 repeats), {len(complete)} cached, "
                          f"{total - len(complete)} to run", p.stdout)
            for f, text in before.items():
                with open(f) as fh:
                    self.assertEqual(fh.read(), text, f"{f} was run again")
            self.assertIn("Ours next to the paper's Table II", p.stdout)
            self.check_outputs(out)
            # 3. The same folder with other paceline-bench flags is refused.
            p = subprocess.run(cmd + ["--warehouses=3"], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 1)
            self.assertIn("other settings", p.stderr)
            self.assertIn("--fresh", p.stderr)

    def check_outputs(self, out):
        schedulers = None
        with open(os.path.join(out, "results.json")) as f:
            j = json.load(f)
        schedulers = j["config"]["schedulers"]
        self.assertEqual(len(schedulers), N_SCHEDULERS)
        self.assertEqual(schedulers[:3], ["original", "random", "partition"])
        self.assertEqual(len(j["runs"]), len(CCS) * N_SCHEDULERS * REPEATS)
        self.assertEqual({(c["cc"], c["scheduler"]) for c in j["cells"]},
                         {(cc, s) for cc in CCS for s in schedulers})
        for c in j["cells"]:
            self.assertEqual(c["n"], REPEATS)
            self.assertGreater(c["tps"], 0)
            self.assertTrue(0 <= c["abort_rate"] <= 1)
        self.assertEqual({(e["cc"], e["metric"]) for e in j["effects"]},
                         {(cc, m) for cc in CCS for m in ("tps", "abort_rate")})
        for e in j["effects"]:
            self.assertEqual(len(e["effects"]), 15)
            self.assertAlmostEqual(sum(x["percent"] for x in e["effects"]) + e["error_percent"], 100, places=6)
        # Every run's settings are the ones asked for.
        for r in j["runs"]:
            self.assertEqual(r["settings"]["cc"], r["cc"])
            # The paper's Original is random placement retrying at once.
            original = r["scheduler"] == "original"
            self.assertEqual(r["settings"]["scheduler"], "random" if original else r["scheduler"])
            self.assertEqual(r["settings"]["retry_yield"], "false" if original else "true")
            self.assertEqual(r["settings"]["steal"], "true" if r["scheduler"] in ("random", "original") else "false")
            self.assertTrue(r["check"]["ok"])
        with open(os.path.join(out, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual({(r["cc"], r["scheduler"], r["repeat"]) for r in rows},
                         {(cc, s, str(k)) for cc in CCS for s in schedulers for k in range(1, REPEATS + 1)})
        with open(os.path.join(out, "table.md")) as f:
            table = f.read()
        body = [line for line in table.splitlines() if line.startswith("| ") and "Weight" not in line]
        self.assertEqual(len(body), N_SCHEDULERS)
        self.assertTrue(body[0].startswith("| Original |"))
        self.assertTrue(body[1].startswith("| Random |"))
        self.assertTrue(body[2].startswith("| Hard Partition |"))
        self.assertTrue(body[3].startswith("| Fraction | Sum | Literal | Single |"))
        self.assertTrue(body[11].startswith("| Count | Sum | Literal | Single |"))
        for line in body:
            self.assertNotIn("–", line, "a cell without a result")
            self.assertEqual(line.count("±"), 2 * len(CCS))
        with open(os.path.join(out, "effects.md")) as f:
            effects = f.read()
        for header in ("### OCC, tps", "### OCC, abort rate", "### 2PL, tps", "### 2PL, abort rate"):
            self.assertIn(header, effects)
        self.assertIn("| weight x aggregation x form x granularity |", effects)
        with open(os.path.join(out, "paper.md")) as f:
            paper = f.read()
        self.assertIn("| Count Max Canonical Single |", paper)
        self.assertIn("| 1.14 |", paper)  # the paper's 40,612 / 35,567 for OCC
        for png in ("policies.png", "effects.png"):
            with open(os.path.join(out, png), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", png)

    def test_bad_flags_and_failing_runs(self):
        with tempfile.TemporaryDirectory() as out:
            for bad, message in ((["--cc=occ", "--", "--cc=2pl"], "set by the sweep itself"),
                                 (["--warehouses", "8"], "as --name=value"),
                                 (["--repeats=0"], "at least 1")):
                p = subprocess.run([SCRIPT, "--bench", BENCH, "--out", out, *bad], capture_output=True, text=True,
                                   timeout=60)
                self.assertEqual(p.returncode, 2, bad)
                self.assertIn(message, p.stderr)
            p = subprocess.run([SCRIPT, "--quick", "--bench", BENCH, "--out", out, "--no-such-flag=1"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 1)
            self.assertIn("failed (exit 2)", p.stderr)
            self.assertIn("unknown flag --no-such-flag", p.stderr)
            self.assertIn("--no-such-flag=1", p.stderr)
            self.assertEqual([f for f in cell_files(out)], [])


if __name__ == "__main__":
    SCRIPT, BENCH = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
