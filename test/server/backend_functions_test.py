#!/usr/bin/env python3
"""The session functions that need a connection, through paceline-server
and psycopg 3, as PostgreSQL answers them: inet_client_addr/port and
inet_server_addr/port name the TCP connection's two ends; txid_current()
is one id per transaction; pg_cancel_backend(pid) stops another
connection's running statement (57014) and leaves the connection usable;
pg_terminate_backend(pid) ends another connection — idle, in a block, or
running a statement — with FATAL 57P01, rolling its block back; both are
false for a pid that no connection has. Run by ctest with the server
binary as the only argument."""
import os
import socket
import sys
import threading
import time
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None


class BackendFunctionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=2").start()
        with cls.connect_to(autocommit=True) as conn:
            conn.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)")
            conn.execute("INSERT INTO t VALUES (1, 0)")

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    @classmethod
    def connect_to(cls, **kwargs):
        return psycopg.connect(host="127.0.0.1", port=cls.server.port, dbname="paceline", user="tester",
                               connect_timeout=10, **kwargs)

    def connect(self, **kwargs):
        conn = self.connect_to(**kwargs)
        self.addCleanup(conn.close)
        return conn

    def wait_until_running(self, watcher, pid, text):
        """Until pg_stat_activity shows `pid` active in a statement containing `text`."""
        deadline = time.monotonic() + 30
        while True:
            row = watcher.execute("SELECT state, query FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()
            if row and row[0] == "active" and text in row[1]:
                return
            self.assertLess(time.monotonic(), deadline, f"pid {pid} never ran {text!r}: {row}")

    def start_sleeping(self, watcher):
        """A connection runs pg_sleep(30) in a thread; returns it, its pid,
        the thread and its outcome ({"ok": True} or {"error": ...}) once
        `watcher` sees the statement running."""
        victim = self.connect(autocommit=True)
        pid = victim.info.backend_pid
        outcome = {}

        def run():
            try:
                victim.execute("SELECT pg_sleep(30)")
                outcome["ok"] = True
            except psycopg.Error as e:
                outcome["error"] = e

        thread = threading.Thread(target=run)
        thread.start()
        self.wait_until_running(watcher, pid, "pg_sleep")
        return victim, pid, thread, outcome

    def test_connection_ends(self):
        conn = self.connect(autocommit=True)
        client_addr, client_port, server_addr, server_port = conn.execute(
            "SELECT inet_client_addr(), inet_client_port(), inet_server_addr(), inet_server_port()").fetchone()
        local = conn.pgconn.socket  # the client's own socket: its ends, seen from here
        s = socket.socket(fileno=os.dup(local))
        try:
            self.assertEqual((client_addr, client_port), s.getsockname()[:2])
            self.assertEqual((server_addr, server_port), s.getpeername()[:2])
        finally:
            s.close()
        self.assertEqual(server_port, self.server.port)

    def test_txid_current_is_one_per_transaction(self):
        conn = self.connect()
        first = conn.execute("SELECT txid_current()").fetchone()[0]
        again = conn.execute("SELECT txid_current()").fetchone()[0]
        conn.commit()
        later = conn.execute("SELECT txid_current()").fetchone()[0]
        conn.commit()
        self.assertGreater(first, 0)
        self.assertEqual(first, again)
        self.assertGreater(later, first)

    def test_cancel_stops_a_running_statement(self):
        watcher = self.connect(autocommit=True)
        victim, pid, thread, outcome = self.start_sleeping(watcher)
        self.assertTrue(watcher.execute("SELECT pg_cancel_backend(%s)", (pid,)).fetchone()[0])
        thread.join(30)
        self.assertFalse(thread.is_alive())
        self.assertIsInstance(outcome.get("error"), psycopg.errors.QueryCanceled, outcome)
        self.assertEqual(victim.execute("SELECT 1").fetchone()[0], 1)  # still connected

    def test_terminate_ends_an_idle_block_and_rolls_it_back(self):
        watcher = self.connect(autocommit=True)
        victim = self.connect()
        victim.execute("UPDATE t SET v = v + 1 WHERE id = 1")  # a block left open
        pid = victim.info.backend_pid
        self.assertTrue(watcher.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0])
        with self.assertRaises(psycopg.OperationalError) as e:
            victim.execute("SELECT 1")
        self.assertIn("terminating connection due to administrator command", str(e.exception))
        deadline = time.monotonic() + 30
        while watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()[0]:
            self.assertLess(time.monotonic(), deadline, "the terminated connection is still listed")
        self.assertEqual(watcher.execute("SELECT v FROM t WHERE id = 1").fetchone()[0], 0)

    def test_terminate_ends_a_running_statement(self):
        watcher = self.connect(autocommit=True)
        _, pid, thread, outcome = self.start_sleeping(watcher)
        self.assertTrue(watcher.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0])
        thread.join(30)
        self.assertFalse(thread.is_alive())
        error = outcome.get("error")
        self.assertIsInstance(error, psycopg.OperationalError, outcome)
        self.assertIn("terminating connection due to administrator command", str(error))

    def test_terminate_itself(self):
        conn = self.connect(autocommit=True)
        with self.assertRaises(psycopg.OperationalError) as e:
            conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        self.assertIn("terminating connection due to administrator command", str(e.exception))

    def test_no_such_pid(self):
        conn = self.connect(autocommit=True)
        self.assertEqual(conn.execute("SELECT pg_cancel_backend(-5), pg_terminate_backend(-5)").fetchone(),
                         (False, False))


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
