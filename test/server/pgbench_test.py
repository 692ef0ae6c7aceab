#!/usr/bin/env python3
"""End-to-end test of paceline-server with pgbench: `pgbench -i -s 1` (the
default steps: DROP/CREATE, COPY FROM STDIN with FREEZE, VACUUM, primary
keys), then runs with -M simple/extended/prepared, a custom script that
sends each transaction as one message (\\;) and a pipeline script with
-M extended and -M prepared; all succeed, and the balances add up
afterwards. Run by ctest with the server binary as the only argument."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
DURATION = "5"  # seconds per pgbench run, as the issue asks (-T 5); seven runs

ONE_MESSAGE = """\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN \\;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid \\;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid \\;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid \\;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid \\;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP) \\;
END;
"""

PIPELINE = """\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
\\startpipeline
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
\\endpipeline
"""


class PgbenchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=4").start()
        cls.dir = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()
        code, err = cls.server.stop()
        assert code == 0, err

    def run_tool(self, *args, timeout=120):
        p = subprocess.run(list(args), capture_output=True, text=True, env=self.server.env(), timeout=timeout)
        return p.returncode, p.stdout, p.stderr

    def sums(self):
        code, out, err = self.run_tool(
            "psql", "-X", "-At", "-c", "SELECT sum(abalance) FROM pgbench_accounts", "-c",
            "SELECT sum(delta) FROM pgbench_history", "-c", "SELECT sum(bbalance) FROM pgbench_branches", "-c",
            "SELECT sum(tbalance) FROM pgbench_tellers", "-c", "SELECT count(*) FROM pgbench_history")
        self.assertEqual(code, 0, err)
        return out.split("\n")[:5]

    def bench(self, *args):
        code, out, err = self.run_tool("pgbench", "-n", "-c", "4", "-T", DURATION, *args)
        self.assertEqual(code, 0, err + out)
        m = re.search(r"number of transactions actually processed: (\d+)", out)
        self.assertTrue(m and int(m.group(1)) > 0, out)
        m = re.search(r"number of failed transactions: (\d+)", out)
        self.assertTrue(m and int(m.group(1)) == 0, out)
        return out

    def script(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_builtin_script_without_retries_rarely_fails(self):
        # pgbench's built-in tpcb-like as a new user runs it: interactive
        # blocks (a round trip per statement), nothing retried
        # (--max-tries=1). All 8 clients update the one branch; from cold,
        # the first conflicts teach the scheduler, then the blocks of the
        # branch (and of each teller) run one after the other in their
        # conflict lanes. Without lanes a third of them failed (40001).
        code, out, err = self.run_tool("pgbench", "-i", "-s", "1")
        self.assertEqual(code, 0, err + out)
        code, out, err = self.run_tool("pgbench", "-n", "-M", "prepared", "-c", "8", "-j", "2", "-T", DURATION,
                                       "--max-tries=1")
        self.assertEqual(code, 0, err + out)
        processed = int(re.search(r"number of transactions actually processed: (\d+)", out).group(1))
        m = re.search(r"number of failed transactions: (\d+)", out)
        failed = int(m.group(1)) if m else 0
        self.assertGreater(processed, 0, out)
        self.assertLess(failed / (processed + failed), 0.01, out)  # the target: at most 1%
        accounts, history, branches, tellers, rows = self.sums()
        self.assertEqual(int(rows), processed)  # every commit, and only those, left its history row
        self.assertEqual(accounts, history)     # no balance drift
        self.assertEqual(branches, history)
        self.assertEqual(tellers, history)

    def test_init_and_runs(self):
        code, out, err = self.run_tool("pgbench", "-i", "-s", "1")
        self.assertEqual(code, 0, err + out)
        self.assertIn("done in", err)
        code, out, err = self.run_tool("psql", "-X", "-At", "-c", "SELECT count(*) FROM pgbench_accounts", "-c",
                                       "SELECT count(*) FROM pgbench_tellers")
        self.assertEqual(out, "100000\n10\n", err)

        # Interactive transactions (BEGIN in its own message) run outside the
        # run queues; serialization failures on the one branch are retried
        # by pgbench (unlimited tries within -T), so none fails in the end.
        for mode in ("simple", "extended", "prepared"):
            with self.subTest(mode=mode):
                self.bench("-M", mode, "--max-tries=0")
        # Whole transactions: scheduled and retried inside the server.
        one = self.script("one_message.sql", ONE_MESSAGE)
        self.bench("-M", "simple", "-f", one)
        pipe = self.script("pipeline.sql", PIPELINE)
        for mode in ("extended", "prepared"):
            with self.subTest(pipeline=mode):
                self.bench("-M", mode, "-f", pipe)

        accounts, history, branches, tellers, rows = self.sums()
        self.assertGreater(int(rows), 0)
        self.assertEqual(accounts, history)
        self.assertEqual(branches, history)
        self.assertEqual(tellers, history)

        # The scheduler learnt from the runs.
        code, out, err = self.run_tool("psql", "-X", "-At", "-c", "SHOW paceline.hot_references")
        self.assertEqual(code, 0, err)
        self.assertIn("bid=1", out)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
