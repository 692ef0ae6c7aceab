#!/usr/bin/env python3
"""Conflict lanes through paceline-server (psycopg 3, interactive blocks:
autocommit off, one round trip per statement). After conflicts on row 1
give the scheduler evidence, a block that updates row 1 holds its lane
(SHOW paceline.lanes) and a second block waits in it. Then the holder stops
talking: past --idle-in-transaction-timeout the server ends its connection
(25P03), rolls its block back and gives its lane to the waiter, which
commits. Also: a block whose statement does not parse lets go of its lane
at once (the block is failed, as in PostgreSQL), before the client's
ROLLBACK. And 300 blocks queued in one lane, each holding a server thread
while it waits, never keep the holder's next statements and its COMMIT
unserved (the server's connection threads grow). Run by ctest with the server binary as the only argument."""
import os
import sys
import threading
import time
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
IDLE_TIMEOUT_MS = 3000
QUEUED_BLOCKS = 300


class LanesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=4", "--cc=occ", "--scheduler=adaptive",
                                   "--history-half-life-ms=600000", f"--max-connections={QUEUED_BLOCKS + 20}",
                                   "--lock-timeout-ms=300000",
                                   f"--idle-in-transaction-timeout={IDLE_TIMEOUT_MS}").start()
        with cls.connect_to(cls.server, autocommit=True) as conn:
            conn.execute("CREATE TABLE x (id INT PRIMARY KEY, v INT NOT NULL)")
            conn.execute("INSERT INTO x VALUES (1, 0), (2, 0), (3, 0), (4, 0)")

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    @staticmethod
    def connect_to(server, **kwargs):
        return psycopg.connect(host="127.0.0.1", port=server.port, dbname="paceline", user="tester",
                               connect_timeout=10, **kwargs)

    def connect(self, **kwargs):
        conn = self.connect_to(self.server, **kwargs)
        self.addCleanup(conn.close)
        return conn

    def show(self, what):
        with self.connect_to(self.server, autocommit=True) as conn:
            return conn.execute("SHOW " + what).fetchall()

    def aborts_of(self, reference):
        for row in self.show("paceline.hot_references"):
            if row[0] == reference:
                return row[1]
        return 0

    def make_hot(self, row):
        """Four clients update `row` in blocks until the scheduler blames
        id=<row> for two aborts (the evidence that lanes it)."""
        stop = threading.Event()

        def client():
            with self.connect_to(self.server) as conn:
                while not stop.is_set():
                    try:
                        conn.execute("UPDATE x SET v = v + 1 WHERE id = %s", (row,))
                        conn.commit()
                    except psycopg.errors.SerializationFailure:
                        conn.rollback()

        threads = [threading.Thread(target=client) for _ in range(4)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while self.aborts_of(f"id={row}") < 2 and time.monotonic() < deadline:
            pass  # each look is a round trip to the server
        stop.set()
        for t in threads:
            t.join()
        self.assertGreaterEqual(self.aborts_of(f"id={row}"), 2, f"no evidence for id={row}")

    def lane(self, reference):
        """(holder, waiting) of `reference`'s lane, or None when nobody holds or waits for it."""
        for ref, holder, waiting in self.show("paceline.lanes"):
            if ref == reference:
                return holder, [int(s) for s in waiting.strip("{}").split(",") if s]
        return None

    def wait_until(self, condition, what, seconds=30):
        deadline = time.monotonic() + seconds
        while not condition():
            self.assertLess(time.monotonic(), deadline, what)

    def start_waiter(self, row, add):
        """A second client's block updates `row` (it waits for the lane) and
        commits, in a thread; returns (thread, its session id, outcome)."""
        waiter = self.connect()
        session = int(waiter.execute("SHOW paceline.session_id").fetchone()[0])
        waiter.rollback()
        outcome = {}

        def run():
            try:
                waiter.execute("UPDATE x SET v = v + %s WHERE id = %s", (add, row))
                waiter.commit()
                outcome["ok"] = True
            except psycopg.Error as e:
                outcome["error"] = e

        thread = threading.Thread(target=run)
        thread.start()
        return thread, session, outcome

    def value(self, row):
        with self.connect_to(self.server, autocommit=True) as conn:
            return conn.execute("SELECT v FROM x WHERE id = %s", (row,)).fetchone()[0]

    def holder_and_waiter(self, row):
        """After evidence on `row`: a holder block updates it (+1) and holds
        its lane; a waiter block's update (+100) waits in the lane (in a
        thread). Returns (value before, holder connection, waiter thread,
        waiter outcome)."""
        self.make_hot(row)
        before = self.value(row)
        holder = self.connect()
        holder_id = int(holder.execute("SHOW paceline.session_id").fetchone()[0])
        holder.execute("UPDATE x SET v = v + 1 WHERE id = %s", (row,))
        self.assertEqual(self.lane(f"id={row}"), (holder_id, []))
        thread, waiter_id, outcome = self.start_waiter(row, 100)
        self.wait_until(lambda: self.lane(f"id={row}") == (holder_id, [waiter_id]), "the second block never waited")
        return before, holder, thread, outcome

    def assert_waiter_committed(self, thread, outcome):
        thread.join(timeout=30)
        self.assertFalse(thread.is_alive(), "the waiter never got the lane")
        self.assertEqual(outcome, {"ok": True})

    def test_idle_lane_holder_times_out_and_the_waiter_commits(self):
        before, holder, thread, outcome = self.holder_and_waiter(1)
        # The holder now idles in its block; the server ends it after the timeout.
        self.assert_waiter_committed(thread, outcome)
        with self.assertRaises(psycopg.OperationalError) as raised:
            holder.execute("SELECT 1")
        self.assertIn("idle-in-transaction timeout", str(raised.exception))
        self.assertEqual(self.value(1), before + 100)  # the holder's +1 was rolled back
        self.assertIsNone(self.lane("id=1"))

    def test_failed_statement_gives_the_lane_back_before_rollback(self):
        before, holder, thread, outcome = self.holder_and_waiter(2)
        with self.assertRaises(psycopg.errors.SyntaxError):
            holder.execute("UPDATE x SET v = WHERE id = 2")
        self.assert_waiter_committed(thread, outcome)  # before the holder's ROLLBACK
        with self.assertRaises(psycopg.errors.InFailedSqlTransaction):
            holder.execute("SELECT 1")
        holder.rollback()
        self.assertEqual(self.value(2), before + 100)


    def test_blocks_queued_on_one_lane_never_keep_the_holders_commit_waiting(self):
        self.make_hot(3)
        before = self.value(3)
        holder = self.connect()
        holder_id = int(holder.execute("SHOW paceline.session_id").fetchone()[0])
        holder.execute("UPDATE x SET v = v + 1 WHERE id = 3")
        results = []
        lock = threading.Lock()
        # Logging in a few at a time: beyond 32 connections still logging
        # in at once the server closes new sockets (--max-authenticating).
        logging_in = threading.Semaphore(16)

        def waiter():
            try:
                with logging_in:
                    conn = self.connect_to(self.server)
                with conn:
                    conn.execute("UPDATE x SET v = v + 1 WHERE id = 3")
                    conn.commit()
                    outcome = "ok"
            except psycopg.Error as e:
                outcome = repr(e)
            with lock:
                results.append(outcome)

        threads = [threading.Thread(target=waiter) for _ in range(QUEUED_BLOCKS)]
        for t in threads:
            t.start()

        def queued():
            # The holder's own statements are served meanwhile (each one
            # also keeps its block from the idle-in-transaction timeout).
            holder.execute("SELECT v FROM x WHERE id = 4")
            lane = self.lane("id=3")
            return lane is not None and lane[0] == holder_id and len(lane[1]) == QUEUED_BLOCKS

        self.wait_until(queued, "the blocks never all queued in the lane", seconds=240)
        holder.commit()
        for t in threads:
            t.join(timeout=120)
        self.assertEqual(results, ["ok"] * QUEUED_BLOCKS)
        self.assertEqual(self.value(3), before + 1 + QUEUED_BLOCKS)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
