#!/usr/bin/env python3
"""paceline-server's connection threads (src/server/connection_threads.h):
a connection waiting for its client holds no thread. 300 connections log
in, each runs a statement, and then idle: once the burst is over the
server holds at most workers + 8 threads (PostgreSQL would hold 300
backends), and every idle connection still answers. Prints the resident
memory per idle connection. Run by ctest with the server binary as the
only argument."""
import os
import sys
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
WORKERS = 4
CONNECTIONS = 300


def status(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


class ConnectionThreadsTest(unittest.TestCase):
    def setUp(self):
        self.server = ServerProcess(BINARY, f"--workers={WORKERS}", f"--max-connections={CONNECTIONS + 10}").start()
        self.addCleanup(self.stop)

    def stop(self):
        code, err = self.server.stop()
        self.assertEqual(code, 0, err)

    def connect(self):
        return psycopg.connect(host="127.0.0.1", port=self.server.port, dbname="paceline", user="tester",
                               autocommit=True, connect_timeout=10)

    def wait_until(self, condition, what):
        deadline = time.monotonic() + 30
        while not condition():
            self.assertLess(time.monotonic(), deadline, what)
            time.sleep(0.05)  # polling the server's /proc figures, not waiting for work

    def test_idle_connections_hold_no_threads(self):
        pid = self.server.proc.pid
        rss_before = status(pid, "VmRSS")
        # 16 log in at a time (beyond 32 at once the server closes new
        # sockets: --max-authenticating).
        with ThreadPoolExecutor(max_workers=16) as pool:
            connections = list(pool.map(lambda _: self.connect(), range(CONNECTIONS)))
        try:
            for i, conn in enumerate(connections):
                self.assertEqual(conn.execute("SELECT %s::int + 1", (i,)).fetchone()[0], i + 1)
            limit = WORKERS + 8
            self.wait_until(lambda: status(pid, "Threads") <= limit,
                            f"{CONNECTIONS} idle connections kept more than {limit} threads")
            rss_idle, threads_idle = status(pid, "VmRSS"), status(pid, "Threads")
            # Every idle connection is still served.
            with ThreadPoolExecutor(max_workers=32) as pool:
                answers = list(pool.map(lambda c: c.execute("SELECT 7").fetchone()[0], connections))
            self.assertEqual(answers, [7] * CONNECTIONS)
            print(f"\n{CONNECTIONS} idle connections: {threads_idle} threads, "
                  f"{(rss_idle - rss_before) / CONNECTIONS:.0f} KiB resident each", file=sys.stderr)
        finally:
            for conn in connections:
                conn.close()


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
