#!/usr/bin/env python3
"""paceline-server with psycopg 3 (python3-psycopg): parameters in text and
binary, binary results, executemany, pipelines (one scheduled transaction
each), transactions committed and rolled back, an error, automatic
preparation. Run by ctest with the server binary as the only argument."""
import datetime
import decimal
import os
import sys
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None


class PsycopgTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=2").start()

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    def connect(self, **kwargs):
        conn = psycopg.connect(host="127.0.0.1", port=self.server.port, dbname="paceline", user="tester",
                               connect_timeout=10, **kwargs)
        self.addCleanup(conn.close)
        return conn

    def test_types_text_and_binary(self):
        conn = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("CREATE TABLE pt (id INT PRIMARY KEY, s SMALLINT, big BIGINT, name TEXT, v VARCHAR(10), "
                    "x FLOAT8, r REAL, d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, n NUMERIC(12,3), b BOOL)")
        row = (1, 7, 2 ** 40, "alice", "short", 2.5, 1.5, datetime.date(2024, 1, 2),
               datetime.datetime(2024, 1, 2, 3, 4, 5, 123456),
               datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), decimal.Decimal("-1234.125"), True)
        cur.execute("INSERT INTO pt VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
        cur.execute("INSERT INTO pt VALUES (%t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t)",
                    (2,) + row[1:])
        for binary in (False, True):
            with self.subTest(binary=binary):
                c = conn.cursor(binary=binary)
                got = c.execute("SELECT * FROM pt WHERE id = %s", (1,)).fetchone()
                self.assertEqual(got[:9], row[:9])
                self.assertEqual(got[9], row[9])
                self.assertEqual(got[10], row[10])
                self.assertEqual(got[11], True)
                self.assertEqual(c.execute("SELECT * FROM pt WHERE id = %b", (2,)).fetchone()[1:], got[1:])
        self.assertIsNone(cur.execute("SELECT name FROM pt WHERE id = %s", (99,)).fetchone())
        cur.execute("INSERT INTO pt (id, name) VALUES (%s, %s)", (3, None))
        self.assertEqual(cur.execute("SELECT name FROM pt WHERE id = 3").fetchone(), (None,))

    def test_executemany_pipeline_and_transactions(self):
        conn = self.connect()
        cur = conn.cursor()
        cur.execute("CREATE TABLE acc (id INT PRIMARY KEY, bal INT)")
        conn.commit()
        cur.executemany("INSERT INTO acc VALUES (%s, %s)", [(i, 100) for i in range(10)])
        conn.commit()
        with conn.transaction():
            cur.execute("UPDATE acc SET bal = bal - %s WHERE id = %s", (30, 1))
            cur.execute("UPDATE acc SET bal = bal + %s WHERE id = %s", (30, 2))
        cur.execute("UPDATE acc SET bal = 0 WHERE id = %s", (3,))
        conn.rollback()
        conn.autocommit = True
        with conn.pipeline():
            cur.execute("UPDATE acc SET bal = bal - %s WHERE id = %s", (5, 4))
            cur.execute("UPDATE acc SET bal = bal + %s WHERE id = %s", (5, 5))
        rows = dict(cur.execute("SELECT id, bal FROM acc ORDER BY id").fetchall())
        self.assertEqual((rows[1], rows[2], rows[3], rows[4], rows[5]), (70, 130, 100, 95, 105))
        self.assertEqual(sum(rows.values()), 1000)
        # An error inside a pipeline: the whole batch is rolled back.
        with self.assertRaises(psycopg.errors.UniqueViolation):
            with conn.pipeline():
                cur.execute("UPDATE acc SET bal = bal + 1 WHERE id = %s", (6,))
                cur.execute("INSERT INTO acc VALUES (%s, %s)", (1, 0))
        self.assertEqual(cur.execute("SELECT bal FROM acc WHERE id = 6").fetchone(), (100,))

    def test_error_then_rollback_and_prepare(self):
        conn = self.connect()
        cur = conn.cursor()
        with self.assertRaises(psycopg.errors.DivisionByZero):
            cur.execute("SELECT 1 / %s", (0,))
        conn.rollback()
        for i in range(8):  # prepared automatically after 5 runs
            self.assertEqual(cur.execute("SELECT %s::int + 1", (i,)).fetchone(), (i + 1,))
        conn.commit()


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
