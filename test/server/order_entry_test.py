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
server binary as the only argument."""
import os
import random
import sys
import threading
import time
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
THREADS = 16
SECONDS = 4
ITEMS = 100
HOT_ITEMS = 4
INITIAL_STOCK = 1_000_000


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
        with self.connect(autocommit=True) as conn:
            conn.execute("CREATE TABLE stock (item INT PRIMARY KEY, qty BIGINT NOT NULL)")
            conn.execute("CREATE TABLE orders (client INT NOT NULL, seq INT NOT NULL, item INT NOT NULL, "
                         "n INT NOT NULL, PRIMARY KEY (client, seq))")
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO stock VALUES (%s, %s)", [(i, INITIAL_STOCK) for i in range(ITEMS)])
        committed = [0] * THREADS
        failed = [0] * THREADS
        errors = []
        deadline = time.monotonic() + SECONDS

        def client(t):
            rng = random.Random(t)
            try:
                with self.connect() as conn:  # autocommit off: psycopg opens a block per transaction
                    seq = 0
                    while time.monotonic() < deadline:
                        item = rng.randrange(HOT_ITEMS) if rng.random() < 0.8 else rng.randrange(ITEMS)
                        n = rng.randint(1, 5)
                        try:
                            qty = conn.execute("SELECT qty FROM stock WHERE item = %s", (item,)).fetchone()[0]
                            if qty < n:
                                conn.rollback()
                                continue
                            conn.execute("UPDATE stock SET qty = %s WHERE item = %s", (qty - n, item))
                            conn.execute("INSERT INTO orders VALUES (%s, %s, %s, %s)", (t, seq, item, n))
                            conn.commit()
                            seq += 1
                            committed[t] += 1
                        except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
                            conn.rollback()
                            failed[t] += 1
            except Exception as e:  # noqa: BLE001 - reported by the test below
                errors.append(repr(e))

        threads = [threading.Thread(target=client, args=(t,)) for t in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self.assertEqual(errors, [])
        total = sum(committed) + sum(failed)
        print(f"order entry: {sum(committed)} committed, {sum(failed)} failed ({100 * sum(failed) / max(1, total):.2f}%)",
              file=sys.stderr)
        self.assertGreater(sum(committed), 0)
        self.assertLessEqual(sum(failed) / total, 0.01, f"{sum(failed)} of {total} transactions failed")
        with self.connect(autocommit=True) as conn:
            stock = dict(conn.execute("SELECT item, qty FROM stock").fetchall())
            taken = dict(conn.execute("SELECT item, sum(n) FROM orders GROUP BY item").fetchall())
            orders = conn.execute("SELECT count(*) FROM orders").fetchone()[0]
        self.assertEqual(orders, sum(committed))
        for item in range(ITEMS):
            self.assertEqual(stock[item] + int(taken.get(item, 0)), INITIAL_STOCK, f"item {item}")


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
