#!/usr/bin/env python3
"""Crash recovery of paceline-server: concurrent writers record every commit
the server acknowledged; the server is killed with SIGKILL mid-run (several
kill points, with background checkpoints running), restarted on the same
data directory, and must hold every acknowledged commit and no half of any
transaction. Each transaction inserts one row into `a` and one into `b` with
the same id: a torn transaction would leave an id in one table only.
Each transaction also draws from a sequence: a block shows its value to the
client before COMMIT, a one-message transaction stores it in `c`. After
every restart the sequence must continue above every value any client saw
or any committed row holds (it may skip values, never repeat one).

Writers alternate the two paths a transaction takes through the server:
one Query message holding the whole transaction (scheduled on a worker) and
an interactive block over several round trips (run on the connection).
Run by ctest with the server binary as the only argument."""
import os
import random
import shutil
import sys
import tempfile
import threading
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
WRITERS = 4


class CrashTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="paceline-crash-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self):
        return ServerProcess(BINARY, "--data-dir=" + self.dir, "--sync=fsync", "--workers=4",
                             "--checkpoint-interval-s=1").start()

    def connect(self, server):
        return psycopg.connect(host="127.0.0.1", port=server.port, dbname="paceline", user="tester",
                               autocommit=True, connect_timeout=10)

    def run_writers(self, server, base, kill_after):
        """Writers commit until `kill_after` acknowledged commits, then the
        server is killed under them. Returns the acknowledged ids."""
        acked = []
        shown = []  # sequence values a client received
        lock = threading.Lock()
        enough = threading.Event()

        def writer(w):
            conn = self.connect(server)
            n = 0
            try:
                while True:
                    i = base + w * 1_000_000 + n
                    n += 1
                    if n % 2:
                        conn.execute("BEGIN; INSERT INTO a VALUES (%d, %d); INSERT INTO b VALUES (%d, 'w%d'); "
                                     "INSERT INTO c VALUES (nextval('s')); COMMIT" % (i, w, i, w))
                    else:
                        with conn.transaction():
                            conn.execute("INSERT INTO a VALUES (%s, %s)", (i, w))
                            value = conn.execute("SELECT nextval('s')").fetchone()[0]
                            with lock:
                                shown.append(value)
                            conn.execute("INSERT INTO b VALUES (%s, %s)", (i, "w%d" % w))
                    with lock:
                        acked.append(i)
                        if len(acked) >= kill_after:
                            enough.set()
            except psycopg.Error:
                return  # the server died under this writer: expected
            finally:
                try:
                    conn.close()
                except psycopg.Error:
                    pass

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
        for t in threads:
            t.start()
        enough.wait(timeout=120)
        server.kill()
        for t in threads:
            t.join(timeout=60)
        self.assertTrue(enough.is_set(), "the writers did not reach %d commits" % kill_after)
        with lock:
            return list(acked), list(shown)

    def test_acknowledged_commits_survive_sigkill(self):
        server = self.start()
        with self.connect(server) as conn:
            conn.execute("CREATE TABLE a (id INT PRIMARY KEY, w INT NOT NULL)")
            conn.execute("CREATE TABLE b (id INT PRIMARY KEY, note TEXT NOT NULL)")
            conn.execute("CREATE TABLE c (id BIGINT PRIMARY KEY)")
            conn.execute("CREATE SEQUENCE s")
        all_acked = []
        all_shown = []
        rng = random.Random(7)
        for round_ in range(4):  # several kill points
            acked, shown = self.run_writers(server, base=round_ * 10_000_000, kill_after=rng.randint(100, 600))
            all_acked += acked
            all_shown += shown
            server = self.start()  # recovery
            with self.connect(server) as conn:
                a = {r[0] for r in conn.execute("SELECT id FROM a").fetchall()}
                b = {r[0] for r in conn.execute("SELECT id FROM b").fetchall()}
                stored = conn.execute("SELECT coalesce(max(id), 0) FROM c").fetchone()[0]
                after = conn.execute("SELECT nextval('s')").fetchone()[0]
            self.assertGreater(len(all_shown), 0)
            self.assertGreater(after, max(all_shown + [stored]),
                               "a sequence value seen before kill %d would be handed out again" % round_)
            missing = set(all_acked) - a
            self.assertEqual(missing, set(), "acknowledged commits lost after kill %d" % round_)
            self.assertEqual(set(all_acked) - b, set())
            self.assertEqual(a ^ b, set(), "half of a transaction survived kill %d" % round_)
        with self.connect(server) as conn:
            self.assertEqual(conn.execute("CHECKPOINT").statusmessage, "CHECKPOINT")
            log = conn.execute("SHOW paceline.log").fetchone()
            self.assertEqual((log[0], log[1]), (self.dir, "fsync"))
        code, err = server.stop()
        self.assertEqual(code, 0, err)
        # A clean restart after all that still holds everything.
        server = self.start()
        with self.connect(server) as conn:
            count = conn.execute("SELECT count(*) FROM a").fetchone()[0]
        self.assertGreaterEqual(count, len(all_acked))
        code, err = server.stop()
        self.assertEqual(code, 0, err)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
