#!/usr/bin/env python3
"""An ordinary psycopg 3 application against paceline-server: order entry in
interactive transactions (psycopg's default: autocommit off, one round trip
per statement). 16 threads each repeat: read an item's stock, check it,
write the new stock computed by the client (qty - n, the read-modify-write
that loses updates when two run at once), insert the order, commit. Most
orders go to 4 hot items. A 40001/40P01 is rolled back and counted as a
failure (not retried). Asserts: at most 1% of transactions fail (from a
cold start: the first conflicts teach the scheduler, then the conflict lanes
serialise each hot item's blocks), and the ledger holds — for every item,
its stock plus what its committed orders took equals the initial stock (no
lost update, no order without its stock change). Run by ctest with the
server binary as the only argument. The application is
script/order_entry.py."""
import os
import sys
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "script"))
from order_entry import run  # noqa: E402
from server_process import ServerProcess  # noqa: E402

BINARY = None


class OrderEntryTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=8").start()

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    def connect(self, **kwargs):
        return psycopg.connect(host="127.0.0.1", port=self.server.port, dbname="paceline", user="tester",
                               connect_timeout=10, **kwargs)

    def test_hot_items_without_failures_or_lost_updates(self):
        r = run(self.connect, threads=16, seconds=4)
        print(f"order entry: {r['committed']} committed, {r['failed']} failed ({100 * r['failed_share']:.2f}%)",
              file=sys.stderr)
        self.assertEqual(r["errors"], [])
        self.assertGreater(r["committed"], 0)
        self.assertLessEqual(r["failed_share"], 0.01, f"{r['failed']} transactions failed")
        self.assertTrue(r["ledger_ok"], "the stock ledger does not add up")


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
