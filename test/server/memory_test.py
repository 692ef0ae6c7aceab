#!/usr/bin/env python3
"""paceline-server's memory comes back (issue 45, part 4): after a burst of
distinct ~100 KB statements and of garbled ones (mutations of the fuzz
corpus: truncations, random bytes, huge literals, deep parentheses, long
identifiers, many statements in one message) on several connections, then
DISCARD ALL and disconnect, the server's resident memory returns to at most
its level before plus the statement cache's bound (--statement-cache-mb);
every error carries a SQLSTATE. SHOW paceline.memory reports the figures,
the cache within its bound; a statement that would hold more than
--statement-memory-mb fails with 54000 and the server goes on. Raw protocol
over sockets (script/memory_burst.py's client). Run by ctest with the
server binary as the only argument."""
import os
import random
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "script"))
from server_process import ServerProcess  # noqa: E402
import memory_burst  # noqa: E402

BINARY = None
CACHE_MB = 8


def rss_bytes(pid):
    return memory_burst.rss_kb(pid) * 1024


def memory(port):
    return {name: int(value) for name, value in memory_burst.show_memory(port)}


class MemoryTest(unittest.TestCase):
    def setUp(self):
        self.server = ServerProcess(BINARY, "--statement-cache-mb=%d" % CACHE_MB, "--statement-memory-mb=64",
                                    "--workers=2").start()
        self.pid = self.server.proc.pid

    def tearDown(self):
        code, err = self.server.stop()
        self.assertEqual(code, 0, err)

    def wait_for_rss_at_most(self, bound, seconds=10):
        """RSS once it is at most `bound` (the connections' threads trim as
        they end, after the client has gone), or the last seen at the
        deadline."""
        deadline = time.monotonic() + seconds
        while True:
            rss = rss_bytes(self.pid)
            if rss <= bound or time.monotonic() > deadline:
                return rss
            time.sleep(0.05)

    def test_a_burst_leaves_at_most_the_cache_bound_behind(self):
        port = self.server.port
        c = memory_burst.Client(port)
        c.query("CREATE TABLE t (k INT PRIMARY KEY, v TEXT)")
        c.query("INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 1000) AS s(i)")
        c.close()
        before = rss_bytes(self.pid)
        rng = random.Random(45)
        corpus, words = memory_burst.load_corpus()
        garbled = [memory_burst.garble(rng, corpus, words) for _ in range(100)]
        st = memory_burst.run_parallel(port, 4, garbled, lambda cl, m: cl.query(m))
        self.assertEqual(st["no_sqlstate"], 0, st)
        self.assertEqual(st["statements"] + st["reconnects"], len(garbled), st)
        st = memory_burst.run_parallel(port, 4, range(30),
                                       lambda cl, i: cl.query(memory_burst.distinct_statement(i, 100_000)))
        self.assertEqual(st["errors"], 0, st)
        bound = before + CACHE_MB * 2**20 + 16 * 2**20  # plus slack: code pages touched, thread stacks
        rss = self.wait_for_rss_at_most(bound)
        self.assertLessEqual(rss, bound, "resident %.1f MB after the burst, %.1f MB before" %
                             (rss / 2**20, before / 2**20))
        m = memory(port)
        self.assertLessEqual(m["statement_cache_bytes"] + m["statement_cache_key_list_bytes"],
                             m["statement_cache_capacity_bytes"], m)
        self.assertEqual(m["statement_cache_capacity_bytes"], CACHE_MB * 2**20)
        self.assertGreater(m["statement_cache_entries"], 0, m)
        self.assertGreater(m["resident_bytes"], 0, m)
        self.assertGreater(m["heap_in_use_bytes"], 0, m)

    def test_a_statement_past_its_memory_limit_fails_with_54000(self):
        c = memory_burst.Client(self.server.port)
        try:
            rows, errors = c.query("SELECT a, b FROM generate_series(1, 1000000) a, generate_series(1, 30) b")
            self.assertEqual(errors, ["54000"])
            self.assertLess(rss_bytes(self.pid), 512 * 2**20)
            rows, errors = c.query("SELECT 1")
            self.assertEqual((len(rows), errors), (1, []))
        finally:
            c.close()


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
