#!/usr/bin/env python3
"""End-to-end test of paceline-bench: tiny TPC-C, YCSB, SmallBank and TATP
runs (closed loop, open loop, statement latency, --check, moving hot sets,
the time series and queue lengths) with --json parsed and checked, and
invalid flags refused at start (exit 2) with the valid values listed. Run by ctest
with the binary's path as the only argument."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BINARY = None
TINY_TPCC = ["--warehouses=1", "--items=100", "--tpcc-customers=30", "--workers=3", "--warmup=0.2",
             "--duration=0.5", "--progress=false"]


def run(*args):
    p = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


class PacelineBenchTest(unittest.TestCase):
    def run_json(self, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out.json")
            code, out, err = run(*args, "--json=" + path)
            self.assertEqual(code, 0, err + out)
            with open(path) as f:
                return json.load(f), out

    def test_tpcc_closed_loop_json_and_check(self):
        j, out = self.run_json(*TINY_TPCC, "--mix=standard", "--cc=2pl-wait-die", "--check")
        self.assertEqual(j["settings"]["workload"], "tpcc")
        self.assertEqual(j["settings"]["cc"], "2pl-wait-die")
        self.assertEqual(j["settings"]["scheduler"], "adaptive")  # the default
        self.assertEqual(j["settings"]["mix"], "standard")
        self.assertEqual(j["settings"]["clients"], "6")  # 2 per worker by default
        self.assertEqual(j["mode"], "closed")
        self.assertGreater(j["commits"], 0)
        self.assertGreater(j["tps"], 0)
        self.assertEqual(j["errors"], 0)
        self.assertTrue(0 <= j["abort_rate"] <= 1)
        total = j["commits"] + j["aborts"]
        self.assertAlmostEqual(j["abort_rate"], j["aborts"] / total if total else 0, places=9)
        self.assertEqual([t["name"] for t in j["types"]],
                         ["NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel"])
        self.assertEqual(len(j["queues"]), 3)
        for key in ("mean_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms"):
            self.assertIn(key, j["latency"])
        self.assertLessEqual(j["latency"]["p50_ms"], j["latency"]["max_ms"])
        self.assertTrue(j["check"]["ok"], j["check"]["report"])
        self.assertIn("consistency 4", j["check"]["report"])
        self.assertGreater(j["load"]["rows"], 0)
        # The table on stdout says the same.
        self.assertIn("committed tps", out)
        self.assertIn("consistency check: passed", out)
        self.assertIn("per run queue", out)

    def test_open_loop_with_statement_latency(self):
        j, _ = self.run_json(*TINY_TPCC, "--rate=200", "--stmt-latency-us=20", "--scheduler=round-robin")
        self.assertEqual(j["mode"], "open")
        self.assertEqual(j["offered_rate"], 200)
        self.assertEqual(j["settings"]["stmt_latency_us"], "20")
        self.assertEqual(j["settings"]["scheduler"], "round-robin")
        self.assertGreater(j["commits"], 0)

    def test_ycsb_with_check(self):
        j, out = self.run_json("--workload=ycsb", "--ycsb-records=500", "--ycsb-fields=2", "--ycsb-field-length=10",
                               "--ycsb-theta=0.99", "--workers=3", "--warmup=0.1", "--duration=0.4",
                               "--progress=false", "--check", "--cc=2pl")
        self.assertEqual(j["settings"]["workload"], "ycsb")
        self.assertEqual([t["name"] for t in j["types"]], ["ReadOnly", "ReadWrite"])
        self.assertTrue(j["check"]["ok"], j["check"]["report"])
        self.assertGreater(j["commits"], 0)

    def test_smallbank_and_tatp_with_check_series_and_queue_lengths(self):
        for workload, size, types in [
                ("smallbank", "--smallbank-accounts=200",
                 ["Amalgamate", "Balance", "DepositChecking", "SendPayment", "TransactSavings", "WriteCheck"]),
                ("tatp", "--tatp-subscribers=200",
                 ["GetSubscriberData", "GetNewDestination", "GetAccessData", "UpdateSubscriberData",
                  "UpdateLocation", "InsertCallForwarding", "DeleteCallForwarding"])]:
            j, out = self.run_json("--workload=" + workload, size, "--hot-records=5", "--hot-shift-s=0.2",
                                   "--workers=3", "--clients=24", "--warmup=0.1", "--duration=0.5",
                                   "--series-ms=100", "--progress=false", "--check", "--scheduler=partition",
                                   "--partition-domain=" + ("custid" if workload == "smallbank" else "s_id"))
            self.assertEqual(j["settings"]["workload"], workload)
            self.assertEqual([t["name"] for t in j["types"]], types)
            self.assertTrue(j["check"]["ok"], j["check"]["report"])
            self.assertGreater(j["commits"], 0)
            self.assertEqual(len(j["series"]), 5)
            self.assertEqual(sum(p["commits"] for p in j["series"]), sum(t["commits"] for t in j["types"]))
            self.assertEqual(j["hot_shifts_s"], [0.2, 0.4])
            self.assertEqual(len(j["queue_length"]["per_queue"]), 3)
            self.assertGreater(j["queue_length"]["samples"], 0)
            self.assertIn("queue length", out)
            self.assertIn("series (every 0.1 s; * = the hot set moved", out)

    def test_plot_series_draws_runs_and_refuses_files_without_a_series(self):
        plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "script", "plot_series.py")
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for scheduler in ["random", "partition"]:
                path = os.path.join(d, scheduler + ".json")
                code, out, err = run("--workload=ycsb", "--ycsb-records=500", "--ycsb-fields=2",
                                     "--ycsb-field-length=10", "--hot-shift-s=0.2", "--workers=2", "--warmup=0.1",
                                     "--duration=0.5", "--series-ms=100", "--progress=false",
                                     "--scheduler=" + scheduler, "--partition-domain=ycsb_key", "--json=" + path)
                self.assertEqual(code, 0, err)
                paths.append(path)
            png = os.path.join(d, "series.png")
            p = subprocess.run(["/usr/bin/python3", plot, "--out=" + png, "--title=test", *paths],
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            empty = os.path.join(d, "empty.json")
            with open(empty, "w") as f:
                json.dump({"settings": {}}, f)
            p = subprocess.run(["/usr/bin/python3", plot, "--out=" + png, empty], capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(p.returncode, 2)
            self.assertIn("no \"series\"", p.stderr)

    def test_progress_lines_go_to_stderr(self):
        code, out, err = run("--warehouses=1", "--items=100", "--tpcc-customers=30", "--workers=2",
                             "--warmup=0", "--duration=2.5")
        self.assertEqual(code, 0, err)
        self.assertIn("tps", err)
        self.assertIn("abort rate", err)
        self.assertNotIn("in flight", out)

    def test_conflict_aware_scheduler_reports_what_it_learned(self):
        # A contended tiny TPC-C (one warehouse, statement latency): the
        # scheduler learns from aborts during a random warm-up, then places.
        j, out = self.run_json(*TINY_TPCC, "--scheduler=count-max-canonical-all", "--steal=false",
                               "--history-warmup=100", "--history-learning=frozen", "--stmt-latency-us=20",
                               "--top-references=5", "--check")
        s = j["settings"]
        self.assertEqual((s["scheduler"], s["steal"], s["state"], s["history_learning"], s["history_warmup"]),
                         ("count-max-canonical-all", "false", "cumulative", "frozen", "100"))
        self.assertTrue(j["check"]["ok"], j["check"]["report"])
        sched = j["scheduler"]
        self.assertGreaterEqual(sched["picks"], j["commits"])
        self.assertEqual(sched["warmup_picks"], 100)
        self.assertFalse(sched["warming_up"])
        self.assertGreater(sched["history_references"], 0)
        self.assertLessEqual(len(j["hot_references"]), 5)
        weights = [h["weight"] for h in j["hot_references"]]
        self.assertEqual(weights, sorted(weights, reverse=True))
        for h in j["hot_references"]:
            self.assertGreater(h["aborts"], 0)
            self.assertEqual(len(h["queued"]), 3)
        self.assertIn("scheduler: ", out)
        # A baseline learns nothing and says so.
        j, out = self.run_json(*TINY_TPCC, "--scheduler=partition")
        self.assertEqual(j["hot_references"], [])
        self.assertEqual(j["scheduler"]["picks"], 0)

    def test_invalid_flags_fail_at_start_listing_valid_values(self):
        cases = [
            (["--workload=tpch"], "valid workloads: tpcc, ycsb, smallbank, tatp"),
            (["--workload=smallbank", "--smallbank-accounts=10", "--hot-records=11"],
             "--hot-records must be between 0 and 10 (--smallbank-accounts): 11"),
            (["--workload=tatp", "--tatp-subscribers=5", "--hot-records=6"], "--hot-records must be between 0 and 5"),
            (["--workload=smallbank", "--hot-fraction=1.5"], "--hot-fraction must be in [0, 1]: 1.5"),
            (["--workload=ycsb", "--hot-shift-s=0"], "--hot-shift-s must be positive"),
            (["--workload=ycsb", "--hot-shift-s=-2"], "--hot-shift-s must be positive"),
            (["--hot-shift-s=5"], "needs --tpcc-hot-warehouses"),
            (["--warehouses=2", "--tpcc-hot-warehouses=3"], "--tpcc-hot-warehouses must be between 0 and 2"),
            (["--series-ms=0"], "--series-ms must be at least 1"),
            (["--bogus"], "unknown flag --bogus"),
            (["--cc=mvcc"], "2pl-wait-die"),
            (["--scheduler=smart"], "round-robin"),
            (["--mix=most"], "valid values: paper"),
            (["--clients=4", "--rate=100"], "not both"),
            (["--target-latency-ms=500", "--rate=100"], "--target-latency-ms"),
            (["--warehouses=0"], "--warehouses must be"),
            (["--workload=ycsb", "--ycsb-theta=1.5"], "--ycsb-theta"),
            (["--duration=0"], "--duration"),
            (["--no-such-flag=1"], "unknown flag --no-such-flag"),
            (["--scheduler=count-max"], "count-max-canonical-all"),
            (["--state=sometimes"], "--state must be inflight or cumulative"),
            (["--history-learning=frozen"], "needs a --history-warmup"),
            (["--history-warmup=soon"], "neither a number of transactions"),
            (["--reference-sources=select"], "--reference-sources must be keys or where or all"),
            (["--steal-threshold=0"], "--steal-threshold must be at least 1"),
            (["--sync=sometimes"], "valid: fsync, fdatasync, off"),
            (["--load=maybe"], "--load must be yes, no or auto"),
        ]
        for args, message in cases:
            code, out, err = run(*args, "--items=100", "--tpcc-customers=30")
            self.assertEqual(code, 2, (args, err))
            self.assertIn(message, err, args)
            self.assertEqual(out, "", args)

    def test_tpcc_survives_sigkill_with_a_data_directory(self):
        # TPC-C with a data directory, killed (SIGKILL) mid-run at several
        # points; each restart recovers, attaches to the recovered tables
        # and must pass TPC-C's consistency conditions (a half-applied
        # NewOrder or Payment would break them).
        import shutil
        import signal
        d = tempfile.mkdtemp(prefix="paceline-tpcc-crash-")
        try:
            flags = [*TINY_TPCC[:-2], "--data-dir=" + d, "--checkpoint-interval-s=1", "--cc=occ"]
            for kill_after in (1, 2, 3):  # progress lines (seconds of running) before the kill
                p = subprocess.Popen([BINARY, *flags, "--duration=60", "--progress=true"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                lines = 0
                for line in p.stderr:
                    if " tps " in line:
                        lines += 1
                        if lines == kill_after:
                            break
                p.send_signal(signal.SIGKILL)
                p.communicate()
                self.assertEqual(lines, kill_after, "paceline-bench stopped before its kill point")
                code, out, err = run(*flags, "--duration=0.3", "--progress=false", "--check")
                self.assertEqual(code, 0, err + out)
                self.assertIn("attaching to the recovered tpcc", err)
                self.assertRegex(err, r"recovered .*log records")
        finally:
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
