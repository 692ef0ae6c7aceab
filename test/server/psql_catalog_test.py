#!/usr/bin/env python3
"""psql's meta-commands on paceline-server, compared with PostgreSQL 15's
output for the same schema: psql_catalog/schema.sql (TPC-C's nine tables,
a view, a sequence, a table with every other kind of constraint), then
psql_catalog/commands.psql (\\dt, \\d, \\di, \\ds, \\dv, \\dn, \\du, \\d of
every table and the view, \\x with an information_schema query, the empty
\\df, \\do, \\dc, \\dT, \\dD, \\dX, \\dd, and \\df, \\dfa, \\dfw of built-in
functions: pg_proc's rows; \\sf of built-in functions). Also \\l, psql -l, the
maintenance databases, \\conninfo, and the sizes of \\dt+, \\di+, \\l+.

psql_catalog/postgres15.out is PostgreSQL 15's answer, captured with

    createuser --superuser --createrole --createdb --replication --bypassrls tester
    createdb -O tester paceline
    psql -X -q -U tester -d paceline -f schema.sql
    psql -X -U tester -d paceline -f commands.psql > postgres15.out

with the capturing instance's own other roles (postgres, ...) removed from
\\du. KNOWN_DIFFERENCES lists what Paceline prints differently, and why.
Run by ctest with the server binary as the only argument."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "psql_catalog")

# (PostgreSQL's text, Paceline's, why). Paceline keeps a CHECK's or a
# partial index's condition as written; PostgreSQL prints the analyzed
# expression, with the implicit cast of the constant to the column's type.
KNOWN_DIFFERENCES = [
    ("WHERE amount > 0::numeric", "WHERE amount > 0", "conditions are kept as written, without implicit casts"),
    ("CHECK (amount <> 0::numeric)", "CHECK (amount <> 0)", "conditions are kept as written, without implicit casts"),
]


class PsqlCatalogTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=2").start()
        cls.psql_file(os.path.join(HERE, "schema.sql"), quiet=True)

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    @classmethod
    def psql_file(cls, path, quiet=False, *args):
        p = subprocess.run(["psql", "-X", *(["-q"] if quiet else []), "-v", "ON_ERROR_STOP=1", *args, "-f", path],
                           capture_output=True, text=True, env=cls.server.env(), timeout=60)
        assert p.returncode == 0, p.stderr
        return p.stdout + p.stderr

    def psql(self, *args, database=None):
        env = self.server.env()
        if database is not None:
            env["PGDATABASE"] = database
        return subprocess.run(["psql", "-X", *args], capture_output=True, text=True, env=env, timeout=60)

    def test_meta_commands_print_what_postgresql_prints(self):
        with open(os.path.join(HERE, "postgres15.out")) as f:
            expected = f.read()
        for postgres, paceline, _why in KNOWN_DIFFERENCES:
            self.assertIn(postgres, expected)
            expected = expected.replace(postgres, paceline)
        actual = self.psql_file(os.path.join(HERE, "commands.psql"))
        self.maxDiff = None
        self.assertEqual(actual.splitlines(), expected.splitlines())

    def test_database_list_and_maintenance_databases(self):
        p = self.psql("-l", database="postgres")
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [line for line in p.stdout.splitlines() if line.startswith(" paceline")]
        self.assertEqual(len(rows), 1, p.stdout)
        self.assertEqual([c.strip() for c in rows[0].split("|")][:4], ["paceline", "tester", "UTF8", "C.UTF-8"])
        for database in ("postgres", "template1", "paceline"):
            p = self.psql("-At", "-c", "SELECT current_database()", database=database)
            self.assertEqual((p.returncode, p.stdout), (0, "paceline\n"), p.stderr)
        p = self.psql("-c", "SELECT 1", database="nosuch")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('database "nosuch" does not exist', p.stderr)

    def test_conninfo_and_session_functions(self):
        p = self.psql("-c", "\\conninfo")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r'connected to database "paceline" as user "tester" on host "127.0.0.1" at port "\d+"')
        p = self.psql("-At", "-c", "SELECT current_user, session_user, version() ~ '^PostgreSQL 15'")
        self.assertEqual(p.stdout, "tester|tester|t\n", p.stderr)
        p = self.psql("-At", "-c", "SELECT pg_backend_pid() > 0")
        self.assertEqual(p.stdout, "t\n", p.stderr)

    def test_sizes(self):
        # \dt+, \di+ and \l+ show the bytes Paceline holds (no pages: the
        # numbers are its own, not PostgreSQL's); a table's total is its
        # rows and its indexes; more rows take more bytes.
        p = self.psql("-At", "-F", "|", "-c", "\\dt+ warehouse")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"^public\|warehouse\|table\|tester\|permanent\|heap\|\d+ (bytes|kB)\|\n$")
        p = self.psql("-At", "-F", "|", "-c", "\\di+ warehouse_pkey")
        self.assertRegex(p.stdout, r"^public\|warehouse_pkey\|index\|tester\|warehouse\|permanent\|btree\|\d+ (bytes|kB)\|",
                         p.stderr)
        p = self.psql("-At", "-c", "\\l+ paceline")
        self.assertRegex(p.stdout, r"\|\d+ (bytes|kB|MB)\|pg_default\|", p.stderr)
        size = ("SELECT pg_relation_size('sized'), pg_indexes_size('sized'), pg_total_relation_size('sized'), "
                "pg_relation_size('sized_pkey')")
        p = self.psql("-At", "-c", "CREATE TABLE sized (id INT PRIMARY KEY, note TEXT)", "-c", size,
                      "-c", "INSERT INTO sized SELECT g, repeat('x', 100) FROM generate_series(1, 1000) g", "-c", size,
                      "-c", "DROP TABLE sized")
        self.assertEqual(p.returncode, 0, p.stderr)
        empty, full = [[int(x) for x in line.split("|")] for line in p.stdout.splitlines() if "|" in line]
        self.assertEqual(empty, [0, 0, 0, 0])
        data, indexes, total, pkey = full
        self.assertGreaterEqual(data, 1000 * 100)  # the notes' bytes at least
        self.assertEqual(indexes, pkey)
        self.assertEqual(total, data + indexes)
        p = self.psql("-At", "-c", "SELECT pg_size_pretty(pg_database_size(current_database())) ~ '^[0-9]+ (bytes|kB|MB)$', "
                      "pg_relation_size(0) IS NULL, pg_tablespace_location(1663)")
        self.assertEqual(p.stdout, "t|t|\n", p.stderr)

    def test_unsupported_catalog_query_is_a_clear_error(self):
        p = self.psql("-c", "SELECT * FROM pg_catalog.pg_nosuch")
        self.assertIn('relation "pg_catalog.pg_nosuch" does not exist', p.stderr)
        p = self.psql("-c", "UPDATE pg_class SET relname = 'x'")
        self.assertIn('system catalog relation "pg_catalog.pg_class" cannot be changed', p.stderr)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
