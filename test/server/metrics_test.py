#!/usr/bin/env python3
"""paceline-server's --metrics-port: Prometheus's /metrics, scraped while
clients run. Every page must parse with Prometheus's own Python parser
(prometheus_client) and keep the format's rules (HELP and TYPE for every
family, no series twice, histogram buckets cumulative and ending with
+Inf equal to _count), counters never go down between scrapes, and the
counts move by exactly what the clients did: the commits, rollbacks and
errors (by SQLSTATE) of known statements, a read-validation abort forced
by an interleaving, log records and syncs, a CHECKPOINT. Run by ctest with
the server binary as the only argument."""
import os
import re
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

import psycopg
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")


def check_format(test, text):
    """The exposition format's rules that a parser may let pass; returns
    {(sample name, sorted labels): value} of the page."""
    families = {}
    current = None
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name = line.split(" ")[2]
            test.assertRegex(name, NAME)
            test.assertNotIn(name, families, f"family {name} twice")
            families[name] = None
            current = name
        elif line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            test.assertEqual(name, current, "TYPE must follow its HELP")
            test.assertIn(kind, ("counter", "gauge", "histogram"))
            families[name] = kind
        else:
            test.assertTrue(current and line.startswith(current), f"sample outside its family: {line!r}")
    samples = {}
    for family in text_string_to_metric_families(text):  # Prometheus's parser: raises on bad syntax
        # (the parser names a counter family without its _total)
        declared = families.get(family.name, families.get(family.name + "_total"))
        test.assertEqual(declared, family.type, family.name)
        for s in family.samples:
            key = (s.name, tuple(sorted(s.labels.items())))
            test.assertNotIn(key, samples, f"series twice: {key}")
            samples[key] = s.value
        if family.type == "histogram":
            check_histogram(test, family)
    return samples


def check_histogram(test, family):
    series = {}
    for s in family.samples:
        labels = {k: v for k, v in s.labels.items() if k != "le"}
        entry = series.setdefault(tuple(sorted(labels.items())), {"buckets": [], "count": None})
        if s.name.endswith("_bucket"):
            entry["buckets"].append((float(s.labels["le"]), s.value))
        elif s.name.endswith("_count"):
            entry["count"] = s.value
    for labels, entry in series.items():
        bounds = [b for b, _ in entry["buckets"]]
        counts = [c for _, c in entry["buckets"]]
        test.assertEqual(bounds, sorted(bounds), f"{family.name}{labels}: le out of order")
        test.assertEqual(bounds[-1], float("inf"), f"{family.name}{labels}: no +Inf bucket")
        test.assertEqual(counts, sorted(counts), f"{family.name}{labels}: buckets not cumulative")
        test.assertEqual(counts[-1], entry["count"], f"{family.name}{labels}: +Inf is not _count")


class MetricsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = tempfile.TemporaryDirectory()
        cls.server = ServerProcess(BINARY, "--workers=4", "--cc=occ", "--scheduler=adaptive", "--metrics-port=0",
                                   f"--data-dir={cls.data.name}", "--checkpoint-interval-s=0",
                                   "--checkpoint-log-mb=0").start()
        assert cls.server.metrics_port, "the ready line names no metrics port"
        with cls.connect(autocommit=True) as conn:
            conn.execute("CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)")
            conn.execute("INSERT INTO x SELECT g, 0 FROM generate_series(1, 100) g")

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        cls.data.cleanup()
        assert code == 0, err

    @classmethod
    def connect(cls, **kwargs):
        return psycopg.connect(host="127.0.0.1", port=cls.server.port, dbname="paceline", user="tester",
                               connect_timeout=10, **kwargs)

    def get(self, path):
        url = f"http://127.0.0.1:{self.server.metrics_port}{path}"
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type"), response.read().decode()

    def scrape(self):
        status, content_type, text = self.get("/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(content_type.startswith("text/plain; version=0.0.4"), content_type)
        return check_format(self, text)

    @staticmethod
    def total(samples, name, **labels):
        """The sum of `name`'s series whose labels include `labels`."""
        want = set(labels.items())
        return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))

    def delta(self, before, after, name, **labels):
        return self.total(after, name, **labels) - self.total(before, name, **labels)

    def test_page_and_not_found(self):
        samples = self.scrape()
        names = {n for n, _ in samples}
        for family in ("paceline_info", "paceline_commits_total", "paceline_aborts_total", "paceline_retries_total",
                       "paceline_errors_total", "paceline_queue_length", "paceline_queue_busy_seconds_total",
                       "paceline_lane_waits_total", "paceline_transaction_duration_seconds_bucket",
                       "paceline_request_duration_seconds_count", "paceline_statement_cache_entries",
                       "process_resident_memory_bytes", "paceline_log_bytes_total",
                       "paceline_log_sync_duration_seconds_count", "paceline_checkpoint_age_seconds"):
            if family == "paceline_errors_total" and family not in names:
                continue  # no error sent yet: no series
            self.assertIn(family, names)
        self.assertEqual(self.total(samples, "paceline_info", scheduler="adaptive", cc="occ", workers="4"), 1)
        self.assertEqual(len([1 for n, _ in samples if n == "paceline_queue_length"]), 4)
        self.assertEqual(self.total(samples, "paceline_durable"), 1)
        with self.assertRaises(urllib.error.HTTPError) as e:
            self.get("/nothing-here")
        self.assertEqual(e.exception.code, 404)

    def test_counts_follow_the_clients(self):
        before = self.scrape()
        commits = rollbacks = 0
        with self.connect() as conn:  # blocks: BEGIN, statement, COMMIT or ROLLBACK
            for i in range(20):
                conn.execute("UPDATE x SET v = v + 1 WHERE id = %s", (50 + i,))
                conn.commit()
                commits += 1
            for i in range(5):
                conn.execute("UPDATE x SET v = v + 1 WHERE id = %s", (70 + i,))
                conn.rollback()
                rollbacks += 1
        with self.connect(autocommit=True) as conn:
            for i in range(7):
                with self.assertRaises(psycopg.errors.DivisionByZero):
                    conn.execute("SELECT v / 0 FROM x WHERE id = %s", (i + 1,))
            for i in range(10):  # autocommit statements and one-message transactions
                conn.execute("UPDATE x SET v = v + 1 WHERE id = %s", (80 + i,))
                conn.execute(f"BEGIN; UPDATE x SET v = v + 1 WHERE id = {90 + i}; COMMIT")
                commits += 2
        after = self.scrape()
        self.assertEqual(self.delta(before, after, "paceline_commits_total"), commits)
        self.assertEqual(self.delta(before, after, "paceline_rollbacks_total"), rollbacks)
        self.assertEqual(self.delta(before, after, "paceline_transaction_errors_total"), 7)
        self.assertEqual(self.delta(before, after, "paceline_errors_total", sqlstate="22012"), 7)
        self.assertGreaterEqual(self.delta(before, after, "paceline_request_duration_seconds_count"),
                                commits + rollbacks + 7)
        self.assertGreaterEqual(self.delta(before, after, "paceline_log_records_total"), commits)
        self.assertGreater(self.delta(before, after, "paceline_log_bytes_total"), 0)
        self.assertGreater(self.delta(before, after, "paceline_log_sync_duration_seconds_count"), 0)

    def test_read_validation_abort_is_counted(self):
        """OCC, two sessions: A reads row 1 in a block; B updates row 1 and
        commits; A writes row 1 and commits: A's read is stale, so its
        validation fails (40001) and the abort is counted by its reason."""
        before = self.scrape()
        with self.connect() as a, self.connect(autocommit=True) as b:
            a.execute("SELECT v FROM x WHERE id = 1").fetchone()
            b.execute("UPDATE x SET v = v + 1 WHERE id = 1")
            with self.assertRaises(psycopg.errors.SerializationFailure):
                a.execute("UPDATE x SET v = v + 1 WHERE id = 1")
                a.commit()
            a.rollback()
        after = self.scrape()
        self.assertEqual(self.delta(before, after, "paceline_aborts_total", reason="read-validation", sqlstate="40001"),
                         1)
        self.assertEqual(self.delta(before, after, "paceline_errors_total", sqlstate="40001"), 1)

    def test_checkpoint(self):
        before = self.scrape()
        with self.connect(autocommit=True) as conn:
            conn.execute("CHECKPOINT")
        after = self.scrape()
        self.assertEqual(self.delta(before, after, "paceline_checkpoints_total"), 1)
        self.assertLess(self.total(after, "paceline_checkpoint_age_seconds"),
                        self.total(before, "paceline_checkpoint_age_seconds") + 60)
        self.assertGreater(self.total(after, "paceline_checkpoint_last_duration_seconds"), 0)

    def test_scraped_during_a_contended_run(self):
        """Six clients update five rows in blocks (conflicts, retries by the
        client) while a seventh thread scrapes without pause: every page is
        well formed, no counter goes down, and at the end the commits moved
        by exactly those the clients saw, the 40001 and 40P01 errors by
        those they got."""
        stop = threading.Event()
        seen = {"commits": 0}
        lock = threading.Lock()

        def client(n):
            with self.connect() as conn:
                i = 0
                while not stop.is_set():
                    i += 1
                    try:
                        conn.execute("UPDATE x SET v = v + 1 WHERE id = %s", (1 + (n + i) % 5,))
                        conn.execute("UPDATE x SET v = v + 1 WHERE id = %s", (1 + (n * 7 + i) % 5,))
                        conn.commit()
                        outcome = "commits"
                    except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected) as e:
                        conn.rollback()
                        outcome = e.sqlstate  # 40001, or 40P01 from a lane wait that closed a cycle
                    with lock:
                        seen[outcome] = seen.get(outcome, 0) + 1

        before = self.scrape()
        threads = [threading.Thread(target=client, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        pages = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            pages.append(self.scrape())
        stop.set()
        for t in threads:
            t.join()
        after = self.scrape()
        pages.append(after)
        self.assertGreater(len(pages), 3)
        for earlier, later in zip([before] + pages, pages):
            for (name, labels), value in earlier.items():
                if name.endswith(("_total", "_count", "_bucket", "_sum")):
                    self.assertGreaterEqual(later.get((name, labels), 0), value, f"{name}{labels} went down")
        self.assertGreater(seen["commits"], 0)
        self.assertEqual(self.delta(before, after, "paceline_commits_total"), seen["commits"])
        for code in ("40001", "40P01"):
            self.assertEqual(self.delta(before, after, "paceline_errors_total", sqlstate=code), seen.get(code, 0), code)
        self.assertGreaterEqual(self.delta(before, after, "paceline_aborts_total"), seen.get("40001", 0))
        self.assertEqual(self.delta(before, after, "paceline_lane_deadlocks_total"), seen.get("40P01", 0))


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
