#!/usr/bin/env python3
"""pg_dump 15 against paceline-server, and its output restored into a
fresh paceline-server with psql: the TPC-C-like schema of
psql_catalog/schema.sql (tables, keys, foreign keys, a CHECK, a partial
unique index, a view, sequences, a serial column) with the rows of
pg_dump/data.sql. pg_dump must finish without an error, the restore must
run every statement, the restored database must hold the same rows and
sequence states, and dumping it again must give the same text. Also
pg_dump's custom format (-Fc) through pg_restore.

pg_dump/postgres15.sql is PostgreSQL 15's pg_dump of the same schema and
rows, captured with

    createdb -O tester src
    psql -X -q -d src -f psql_catalog/schema.sql -f pg_dump/data.sql
    pg_dump -d src > pg_dump/postgres15.sql

Run by ctest with the server binary as the only argument."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
HERE = os.path.dirname(os.path.abspath(__file__))

# What the two databases must agree on, row for row.
CHECKS = [
    "SELECT * FROM warehouse ORDER BY w_id",
    "SELECT * FROM district ORDER BY d_w_id, d_id",
    "SELECT * FROM item ORDER BY i_id",
    "SELECT id, w_id, amount, note FROM audit ORDER BY id",
    "SELECT last_value, is_called FROM history_ids",
    "SELECT last_value, is_called FROM audit_id_seq",
    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint ORDER BY conname",
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
    "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public'",
    "SELECT table_name, column_name, column_default, is_nullable, data_type FROM information_schema.columns "
    "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
]


def without_restrict_keys(dump):
    # pg_dump 15.14 and later fence a plain dump with \restrict KEY and
    # \unrestrict KEY, KEY random each time.
    return re.sub(r"^\\(un)?restrict \S+$", r"\\\1restrict KEY", dump, flags=re.M)


def run(args, env, **kw):
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, **kw)


class PgDumpTest(unittest.TestCase):
    def setUp(self):
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            code, err = s.stop()
            self.assertEqual(code, 0, err)

    def server(self):
        s = ServerProcess(BINARY, "--workers=2").start()
        self.servers.append(s)
        return s

    def psql(self, server, *args):
        p = run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", *args], server.env())
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def dump(self, server, *args):
        p = run(["pg_dump", *args], server.env())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        return p.stdout

    def source(self):
        s = self.server()
        self.psql(s, "-f", os.path.join(HERE, "psql_catalog", "schema.sql"))
        self.psql(s, "-f", os.path.join(HERE, "pg_dump", "data.sql"))
        return s

    def assertSameData(self, a, b):
        for sql in CHECKS:
            self.assertEqual(self.psql(a, "-At", "-c", sql), self.psql(b, "-At", "-c", sql), sql)

    def test_plain_dump_restores_and_dumps_the_same(self):
        a = self.source()
        text = self.dump(a)
        for expected in ("CREATE TABLE public.warehouse", "COPY public.warehouse", "ALTER TABLE ONLY public.district",
                         "FOREIGN KEY", "CREATE VIEW public.customer_balance", "CREATE SEQUENCE public.history_ids",
                         "SELECT pg_catalog.setval('public.history_ids', 3, true);",
                         "CREATE UNIQUE INDEX audit_open ON public.audit USING btree (w_id) WHERE"):
            self.assertIn(expected, text)
        b = self.server()
        with tempfile.NamedTemporaryFile("w", suffix=".sql") as f:
            f.write(text)
            f.flush()
            self.psql(b, "-f", f.name)
        self.assertSameData(a, b)
        self.assertEqual(without_restrict_keys(self.dump(b)), without_restrict_keys(text))
        # The restored serial goes on where the source's stopped.
        self.assertEqual(self.psql(b, "-At", "-c", "INSERT INTO audit (w_id, amount) VALUES (2, 7) RETURNING id"),
                         "4\n")

    def test_custom_format_through_pg_restore(self):
        a = self.source()
        b = self.server()
        with tempfile.NamedTemporaryFile(suffix=".dump") as f:
            self.dump(a, "-Fc", "-f", f.name)
            p = run(["pg_restore", "--exit-on-error", "-d", "paceline", f.name], b.env())
            self.assertEqual(p.returncode, 0, p.stderr)
        self.assertSameData(a, b)

    def test_schema_only_and_one_table(self):
        a = self.source()
        text = self.dump(a, "--schema-only")
        self.assertNotIn("COPY ", text)
        self.assertIn("CREATE TABLE public.stock", text)
        text = self.dump(a, "-t", "item")
        self.assertIn("COPY public.item (i_id, i_im_id, i_name, i_price, i_data) FROM stdin;", text)
        self.assertNotIn("CREATE TABLE public.stock", text)
        self.assertIn("2\t20\tgadget\t0.99\t\\\\N\n", text)  # the text '\N' is not NULL

    @unittest.skipUnless(os.environ.get("PACELINE_TEST_POSTGRES"),
                         "set PACELINE_TEST_POSTGRES to a libpq conninfo of an empty PostgreSQL 15 database")
    def test_restore_into_postgres(self):
        # Paceline's dump loads into PostgreSQL 15, and PostgreSQL's dump of
        # the result is its own dump of the same schema and rows but for the
        # rows' creation times.
        a = self.source()
        text = self.dump(a)
        dsn = os.environ["PACELINE_TEST_POSTGRES"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        p = run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn], env, input=text)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = run(["pg_dump", "-d", dsn], env)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(HERE, "pg_dump", "postgres15.sql")) as f:
            expected = f.read()
        times = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\+00"
        normalize = lambda d: re.sub(times, "T", without_restrict_keys(re.sub(r"^-- Dumped.*$", "", d, flags=re.M)))
        self.assertEqual(normalize(p.stdout), normalize(expected))

    def test_restore_of_postgres_dump(self):
        # pg_dump 15's own dump of this schema from PostgreSQL 15 (kept in
        # pg_dump/postgres15.sql) restores into Paceline.
        b = self.server()
        self.psql(b, "-f", os.path.join(HERE, "pg_dump", "postgres15.sql"))
        self.assertEqual(self.psql(b, "-At", "-c", "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"),
                         "10\n")
        self.assertEqual(self.psql(b, "-At", "-c", "SELECT w_street_1, w_ytd FROM warehouse WHERE w_id = 1"),
                         "a'b|300000.00\n")


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
