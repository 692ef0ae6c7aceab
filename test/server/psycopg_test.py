#!/usr/bin/env python3
"""paceline-server with psycopg 3 (python3-psycopg): parameters in text and
binary (bytea, uuid, json, jsonb and interval included), binary results, executemany, pipelines (one scheduled transaction
each), transactions committed and rolled back, an error, automatic
preparation, DISCARD ALL, DDL next to an idle block, and a CancelRequest interrupting a lock wait and a pg_sleep. Run by ctest with the server binary as the only argument."""
import datetime
import decimal
import os
import sys
import threading
import time
import unittest
import uuid

import psycopg
from psycopg.types.json import Json, Jsonb

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

    def test_connection_info_and_the_catalogs(self):
        conn = self.connect(autocommit=True)
        self.assertEqual(conn.info.server_version, 150000)
        self.assertTrue(conn.info.parameter_status("server_version").startswith("15."))
        self.assertEqual(conn.info.dbname, "paceline")
        # TypeInfo.fetch reads pg_type through a regtype cast, as SQLAlchemy
        # and psycopg's adapters do at connect.
        info = psycopg.types.TypeInfo.fetch(conn, "int4")
        self.assertEqual((info.name, info.oid, info.array_oid), ("int4", 23, 1007))
        info = psycopg.types.TypeInfo.fetch(conn, "character varying")
        self.assertEqual((info.name, info.oid, info.array_oid), ("varchar", 1043, 1015))
        self.assertIsNone(psycopg.types.TypeInfo.fetch(conn, "nosuch_type"))
        conn.execute("CREATE TABLE cat_t (id INT PRIMARY KEY, note TEXT)")
        for binary in (False, True):
            with self.subTest(binary=binary):
                cur = conn.cursor(binary=binary)
                oid, name, kinds = cur.execute(
                    "SELECT c.oid, c.oid::regclass, ARRAY[c.oid, 0::oid] FROM pg_class c WHERE c.relname = %s",
                    ("cat_t",)).fetchone()
                self.assertIsInstance(oid, int)
                self.assertGreaterEqual(oid, 16384)
                self.assertEqual((name, kinds), ("cat_t", [oid, 0]))
                self.assertEqual(cur.execute("SELECT %s::oid", (4294967295,)).fetchone(), (4294967295,))
        cols = conn.execute("SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute "
                            "WHERE attrelid = 'cat_t'::regclass AND attnum > 0 ORDER BY attnum").fetchall()
        self.assertEqual(cols, [("id", "integer", True), ("note", "text", False)])

    def test_bytea_text_and_binary(self):
        conn = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("CREATE TABLE bt (id INT PRIMARY KEY, k BYTEA UNIQUE, v BYTEA)")
        every_byte = bytes(range(256))
        values = [b"", b"\x00", b"\x00\xff\\x", every_byte, "h\u00e9llo".encode()]
        # %t: psycopg's text dumper (libpq's hex escaping, "\x..."); %b: the raw
        # bytes in binary format. Each value goes in both ways, as key and value.
        for i, value in enumerate(values):
            cur.execute("INSERT INTO bt VALUES (%t, %t, %t)", (2 * i, value + b"t", value))
            cur.execute("INSERT INTO bt VALUES (%b, %b, %b)", (2 * i + 1, value + b"b", value))
        for binary in (False, True):
            with self.subTest(binary=binary):
                c = conn.cursor(binary=binary)
                for i, value in enumerate(values):
                    for marker, suffix in (("%t", b"t"), ("%b", b"b")):
                        got = c.execute(f"SELECT id, v, octet_length(v) FROM bt WHERE k = {marker}",
                                        (value + suffix,)).fetchone()
                        self.assertEqual(got, (2 * i + (suffix == b"b"), value, len(value)))
                # The column is typed bytea (OID 17) in RowDescription.
                self.assertEqual(c.description[1].type_code, 17)
        # Text results are PostgreSQL's hex output, as psql shows them.
        hex_text = conn.cursor().execute("SELECT v::text FROM bt WHERE id = 5").fetchone()[0]
        self.assertEqual(hex_text, "\\x00ff5c78")
        # Bytes order as unsigned bytes; a bad text bytea is PostgreSQL's error.
        cur.execute("INSERT INTO bt VALUES (100, %b, NULL)", (b"\xff",))
        self.assertEqual(cur.execute("SELECT id FROM bt WHERE k > %b", (b"\x7f",)).fetchall(), [(100,)])
        with self.assertRaises(psycopg.errors.InvalidParameterValue) as caught:
            cur.execute("SELECT 1 FROM bt WHERE k = %s::bytea", ("\\x0g",))
        self.assertIn('invalid hexadecimal digit: "g"', str(caught.exception))

    def test_arrays_text_and_binary(self):
        conn = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("CREATE TABLE at (id INT PRIMARY KEY, tags TEXT[], n BIGINT[])")
        # A Python list goes as an array parameter: %s/%b in binary (array_send's
        # layout; small ints as int2[]), %t in text ('{...}').
        cur.execute("INSERT INTO at VALUES (%s, %s, %s)", (1, ["a b", None, 'q"x'], [1, 2 ** 40]))
        cur.execute("INSERT INTO at VALUES (%t, %t, %t)", (2, ["c", "NULL"], [7]))
        cur.execute("INSERT INTO at VALUES (%b, %b, %b)", (3, ["d", ""], [-1, None]))
        for marker in ("%s", "%t", "%b"):
            with self.subTest(marker=marker):
                ids = cur.execute(f"SELECT id FROM at WHERE id = ANY({marker}) ORDER BY id", ([1, 3, 99],)).fetchall()
                self.assertEqual(ids, [(1,), (3,)])
                ids = cur.execute(f"SELECT id FROM at WHERE tags @> {marker} ORDER BY id", (["d"],)).fetchall()
                self.assertEqual(ids, [(3,)])
        expected = [(1, ["a b", None, 'q"x'], [1, 2 ** 40]), (2, ["c", "NULL"], [7]), (3, ["d", ""], [-1, None])]
        for binary in (False, True):
            with self.subTest(binary=binary):
                c = conn.cursor(binary=binary)
                self.assertEqual(c.execute("SELECT id, tags, n FROM at ORDER BY id").fetchall(), expected)
                self.assertEqual(c.description[1].type_code, 1009)  # text[]
                self.assertEqual(c.description[2].type_code, 1016)  # int8[]
                self.assertEqual(c.execute("SELECT array_agg(id ORDER BY id DESC) FROM at").fetchone(), ([3, 2, 1],))
                self.assertEqual(c.execute("SELECT '{}'::int[]").fetchone(), ([],))
        self.assertEqual(cur.execute("SELECT x FROM unnest(%s::int[]) AS u (x) ORDER BY x", ([6, 5],)).fetchall(),
                         [(5,), (6,)])
        with self.assertRaises(psycopg.errors.InvalidTextRepresentation) as caught:
            cur.execute("SELECT %s::int[]", ("{1,",))
        self.assertIn('malformed array literal: "{1,"', str(caught.exception))

    def test_uuid_and_json_text_and_binary(self):
        conn = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("CREATE TABLE docs (id UUID PRIMARY KEY, j JSON, b JSONB UNIQUE)")
        doc = {"name": "caf\u00e9", "n": [1, 2.5, None, True], "big": 123456789012345678901234567890}
        ids = [uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), uuid.uuid4()]
        # psycopg sends uuid.UUID as OID 2950, Json as 114 and Jsonb as 3802:
        # %t in text, %b in binary (16 bytes; jsonb with its version byte).
        cur.execute("INSERT INTO docs VALUES (%t, %t, %t)", (ids[0], Json(doc), Jsonb(doc)))
        cur.execute("INSERT INTO docs VALUES (%b, %b, %b)", (ids[1], Json([doc]), Jsonb([doc])))
        for binary in (False, True):
            with self.subTest(binary=binary):
                c = conn.cursor(binary=binary)
                got = c.execute("SELECT id, j, b, b -> 'n' ->> 1 FROM docs WHERE id = %s", (ids[0],)).fetchone()
                self.assertEqual(got, (ids[0], doc, doc, "2.5"))
                self.assertEqual([d.type_code for d in c.description], [2950, 114, 3802, 25])
                got = c.execute("SELECT id, j, b FROM docs WHERE b @> %b", (Jsonb([{"n": [True]}]),)).fetchone()
                self.assertEqual(got, (ids[1], [doc], [doc]))
        # json keeps the text psycopg sent; jsonb is normalized as PostgreSQL prints it.
        text = cur.execute("SELECT b::text FROM docs WHERE id = %s", (ids[0],)).fetchone()[0]
        self.assertEqual(text, '{"n": [1, 2.5, null, true], "big": 123456789012345678901234567890, "name": "caf\u00e9"}')
        # uuid and jsonb are keys: a duplicate is 23505; bad input is 22P02.
        with self.assertRaises(psycopg.errors.UniqueViolation):
            cur.execute("INSERT INTO docs VALUES (%s, NULL, NULL)", (ids[0],))
        with self.assertRaises(psycopg.errors.InvalidTextRepresentation) as caught:
            cur.execute("SELECT %s::uuid", ("not-a-uuid",))
        self.assertIn('invalid input syntax for type uuid: "not-a-uuid"', str(caught.exception))
        with self.assertRaises(psycopg.errors.InvalidTextRepresentation) as caught:
            cur.execute("SELECT %s::jsonb", ("{oops",))
        self.assertIn("invalid input syntax for type json", str(caught.exception))

    def test_interval_text_and_binary(self):
        conn = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("CREATE TABLE waits (span INTERVAL PRIMARY KEY, n INT)")
        spans = [datetime.timedelta(days=1, hours=2), datetime.timedelta(days=-1, seconds=7200, microseconds=5)]
        # psycopg sends timedelta as OID 1186: %t as text ("1 day 2:00:00"),
        # %b as interval_send's int64 microseconds, int32 days, int32 months.
        cur.execute("INSERT INTO waits VALUES (%t, 1)", (spans[0],))
        cur.execute("INSERT INTO waits VALUES (%b, 2)", (spans[1],))
        for binary in (False, True):
            with self.subTest(binary=binary):
                c = conn.cursor(binary=binary)
                got = c.execute("SELECT span, n, span * 2 FROM waits ORDER BY span").fetchall()
                self.assertEqual(got, [(spans[1], 2, spans[1] * 2), (spans[0], 1, spans[0] * 2)])
                self.assertEqual([d.type_code for d in c.description], [1186, 23, 1186])
                got = c.execute("SELECT '1 year 2 mons 3 days 04:05:06.5'::interval").fetchone()[0]
                self.assertEqual(got, datetime.timedelta(days=365 + 60 + 3, hours=4, minutes=5, seconds=6.5))
                got = c.execute("SELECT timestamp '2024-01-31' + %s", (datetime.timedelta(hours=36),)).fetchone()[0]
                self.assertEqual(got, datetime.datetime(2024, 2, 1, 12))
        text = cur.execute("SELECT span::text FROM waits WHERE n = 2").fetchone()[0]
        self.assertEqual(text, "-1 days +02:00:00.000005")
        with self.assertRaises(psycopg.errors.UniqueViolation):
            cur.execute("INSERT INTO waits VALUES ('26 hours', 3)")  # equal to 1 day 02:00
        with self.assertRaises(psycopg.errors.InvalidDatetimeFormat) as caught:
            cur.execute("SELECT %s::interval", ("soon",))
        self.assertIn('invalid input syntax for type interval: "soon"', str(caught.exception))
        # pg_sleep returns void (OID 2278), an empty value in text and binary.
        for binary in (False, True):
            c = conn.cursor(binary=binary)
            self.assertEqual(c.execute("SELECT pg_sleep(0.01)").fetchone(), (b"" if binary else "",))  # as from PostgreSQL
            self.assertEqual(c.description[0].type_code, 2278)

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

    def test_listen_notify(self):
        # Notifications reach a listener at the end of its next command
        # (as PostgreSQL sends them before ReadyForQuery), from commits only,
        # in commit order, a transaction's duplicates folded.
        listener = self.connect(autocommit=True)
        sender = self.connect(autocommit=True)
        got = []
        listener.add_notify_handler(lambda n: got.append((n.channel, n.payload, n.pid)))
        listener.execute("LISTEN jobs")
        listener.execute("LISTEN other")
        sender.execute("NOTIFY jobs, 'one'")
        sender.execute("SELECT pg_notify('jobs', 'two')")
        with sender.transaction():
            sender.execute("NOTIFY jobs, 'three'")
            sender.execute("NOTIFY jobs, 'three'")
            sender.execute("SELECT pg_notify('other', %s)", ("four",))
        try:
            with sender.transaction():
                sender.execute("NOTIFY jobs, 'rolled back'")
                raise psycopg.Rollback()
        except psycopg.Rollback:
            pass
        sender.execute("NOTIFY nobody, 'unheard'")
        listener.execute("SELECT 1")
        pid = sender.info.backend_pid
        self.assertEqual(got, [("jobs", "one", pid), ("jobs", "two", pid), ("jobs", "three", pid),
                               ("other", "four", pid)])
        # Not while the listener's own block is open; after it ends.
        got.clear()
        listener.autocommit = False
        listener.execute("SELECT 1")
        sender.execute("NOTIFY jobs, 'later'")
        listener.execute("SELECT 2")
        self.assertEqual(got, [])
        listener.commit()
        listener.autocommit = True
        listener.execute("SELECT 3")
        self.assertEqual(got, [("jobs", "later", pid)])
        got.clear()
        listener.execute("UNLISTEN *")
        sender.execute("NOTIFY jobs, 'gone'")
        listener.execute("SELECT 4")
        self.assertEqual(got, [])
        with self.assertRaises(psycopg.errors.InvalidParameterValue):
            sender.execute("SELECT pg_notify('', 'x')")

    def test_notifications_reach_a_client_that_only_waits(self):
        # A client blocked reading its socket (psycopg's notifies()) gets
        # them without sending anything: the server wakes its connection.
        listener = self.connect(autocommit=True)
        sender = self.connect(autocommit=True)
        listener.execute("LISTEN wake")
        got = []

        def wait():
            for n in listener.notifies():
                got.append(n.payload)
                if len(got) == 2:
                    break

        waiter = threading.Thread(target=wait, daemon=True)
        waiter.start()
        sender.execute("NOTIFY wake, 'first'")
        with sender.transaction():
            sender.execute("SELECT pg_notify('wake', 'second')")
        waiter.join(20)
        self.assertFalse(waiter.is_alive(), "the waiting client got %r only" % got)
        self.assertEqual(got, ["first", "second"])

    def test_discard_all_resets_what_a_pooler_hands_on(self):
        # A connection pooler sends DISCARD ALL when a client gives the
        # connection back: prepared statements and settings must not leak
        # to the next client; inside a block it is refused (25001).
        conn = self.connect(autocommit=True, prepare_threshold=0)  # psycopg prepares every statement
        cur = conn.cursor()
        cur.execute("SELECT %s::int", (1,))
        cur.execute("PREPARE mine AS SELECT 2")
        cur.execute("SET application_name = 'first client'")
        cur.execute("DISCARD ALL")
        self.assertEqual(cur.statusmessage, "DISCARD ALL")
        with self.assertRaises(psycopg.errors.InvalidSqlStatementName):
            cur.execute("EXECUTE mine")
        cur.execute("SHOW application_name")
        self.assertEqual(cur.fetchone()[0], "")
        # psycopg's own prepared statements went too (this psycopg does not
        # know it: it would EXECUTE them, as against PostgreSQL).
        with self.assertRaises(psycopg.errors.InvalidSqlStatementName):
            cur.execute("SELECT %s::int", (1,))
        self.assertEqual(conn.execute("SELECT %s::int", (3,), prepare=False).fetchone()[0], 3)
        for target in ("PLANS", "SEQUENCES", "TEMP"):
            cur.execute("DISCARD " + target)
            self.assertEqual(cur.statusmessage, "DISCARD " + target)
        block = self.connect()
        with self.assertRaises(psycopg.errors.ActiveSqlTransaction):
            block.execute("DISCARD ALL")

    def test_ddl_does_not_wait_for_a_block_idle_on_another_table(self):
        # Before: one idle block made every CREATE TABLE wait the lock
        # timeout (55P03), and an UPDATE elsewhere stalled behind it. The
        # server's lock timeout is 10 s: waiting would fail these, not slow
        # them down.
        setup = self.connect(autocommit=True)
        setup.execute("CREATE TABLE ddl_idle_a (id int PRIMARY KEY, v int)")
        setup.execute("CREATE TABLE ddl_idle_b (id int PRIMARY KEY, v int)")
        setup.execute("INSERT INTO ddl_idle_a VALUES (1, 1)")
        setup.execute("INSERT INTO ddl_idle_b VALUES (1, 1)")
        idle = self.connect()  # psycopg opens a block at the first statement
        idle.execute("UPDATE ddl_idle_a SET v = v + 1 WHERE id = 1")
        other = self.connect(autocommit=True)
        other.execute("CREATE TABLE ddl_idle_c (k int)")
        other.execute("CREATE INDEX ddl_idle_b_v ON ddl_idle_b (v)")
        other.execute("UPDATE ddl_idle_b SET v = v + 1 WHERE id = 1")
        other.execute("DROP TABLE ddl_idle_c")
        idle.commit()
        self.assertEqual(other.execute("SELECT v FROM ddl_idle_a WHERE id = 1").fetchone(), (2,))
        self.assertEqual(other.execute("SELECT v FROM ddl_idle_b WHERE id = 1").fetchone(), (2,))

    def test_error_then_rollback_and_prepare(self):
        conn = self.connect()
        cur = conn.cursor()
        with self.assertRaises(psycopg.errors.DivisionByZero):
            cur.execute("SELECT 1 / %s", (0,))
        conn.rollback()
        for i in range(8):  # prepared automatically after 5 runs
            self.assertEqual(cur.execute("SELECT %s::int + 1", (i,)).fetchone(), (i + 1,))
        conn.commit()


class PsycopgCancelTest(unittest.TestCase):
    """conn.cancel() from another thread while the first thread's execute is
    blocked in a lock wait (2PL WOUND_WAIT: the younger requester waits, here
    up to a minute): psycopg raises QueryCanceled (57014) at once, the holder
    is unaffected, and the canceled connection is usable after ROLLBACK.
    Both paths: a statement inside a block (run by the session) and an
    autocommit statement (a scheduled transaction, waiting on a worker)."""

    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=2", "--cc=2pl-wound-wait", "--lock-timeout-ms=60000").start()

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    connect = PsycopgTest.connect

    def blocked_then_canceled(self, waiter, sql):
        outcome = {}

        def run():
            try:
                waiter.execute(sql)
                outcome["error"] = None
            except psycopg.Error as e:  # noqa: PERF203
                outcome["error"] = e

        thread = threading.Thread(target=run)
        start = time.monotonic()
        thread.start()
        # A cancel that reaches the server before the statement runs is
        # dropped (as PostgreSQL does), so it is repeated until one lands;
        # the statement would otherwise wait for the 60 s lock timeout.
        while thread.is_alive() and time.monotonic() - start < 30:
            if waiter.pgconn.transaction_status == psycopg.pq.TransactionStatus.ACTIVE:
                waiter.cancel()
            thread.join(0.2)
        thread.join()
        self.assertLess(time.monotonic() - start, 30)
        self.assertIsInstance(outcome.get("error"), psycopg.errors.QueryCanceled)
        self.assertEqual(outcome["error"].sqlstate, "57014")
        self.assertIn("canceling statement due to user request", str(outcome["error"]))

    def test_cancel_pg_sleep(self):
        waiter = self.connect(autocommit=True)
        self.blocked_then_canceled(waiter, "SELECT pg_sleep(60)")
        self.assertEqual(waiter.execute("SELECT 1").fetchone(), (1,))

    def test_cancel_lock_wait(self):
        setup = self.connect(autocommit=True)
        setup.execute("CREATE TABLE cx (id INT PRIMARY KEY, v INT)")
        setup.execute("INSERT INTO cx VALUES (1, 10), (2, 20)")
        holder = self.connect()
        holder.execute("UPDATE cx SET v = 11 WHERE id = 1")  # BEGIN first: the older, holding x1
        with self.subTest("in a block"):
            waiter = self.connect()
            waiter.execute("SELECT v FROM cx WHERE id = 2")  # opens the block
            self.blocked_then_canceled(waiter, "UPDATE cx SET v = 12 WHERE id = 1")
            with self.assertRaises(psycopg.errors.InFailedSqlTransaction):
                waiter.execute("SELECT 1")
            waiter.rollback()
            self.assertEqual(waiter.execute("SELECT v FROM cx WHERE id = 2").fetchone(), (20,))
            waiter.rollback()
        with self.subTest("autocommit, scheduled"):
            waiter = self.connect(autocommit=True)
            self.blocked_then_canceled(waiter, "UPDATE cx SET v = 13 WHERE id = 1")
            self.assertEqual(waiter.execute("SELECT v FROM cx WHERE id = 2").fetchone(), (20,))
        # The holder was not affected; after it commits, the waiter's row is free.
        holder.execute("UPDATE cx SET v = 21 WHERE id = 2")
        holder.commit()
        self.assertEqual(setup.execute("SELECT id, v FROM cx ORDER BY id").fetchall(), [(1, 11), (2, 21)])
        waiter.execute("UPDATE cx SET v = 14 WHERE id = 1")
        self.assertEqual(setup.execute("SELECT v FROM cx WHERE id = 1").fetchone(), (14,))


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
