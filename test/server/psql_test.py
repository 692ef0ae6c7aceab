#!/usr/bin/env python3
"""End-to-end test of paceline-server with psql: scripts with expected output
(DDL, DML, errors with their SQLSTATE, transactions, an error inside a
transaction then ROLLBACK, several statements in one -c, \\copy both ways,
SHOW paceline.*). Run by ctest with the server binary as the only argument."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None


class PsqlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=2").start()

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    def psql(self, *args, stdin=None, check=True, quiet=True):
        p = subprocess.run(["psql", "-X", *(["-q"] if quiet else []), "-v", "ON_ERROR_STOP=0", "-v", "VERBOSITY=verbose", *args],
                           input=stdin, capture_output=True, text=True, env=self.server.env(), timeout=60)
        if check:
            self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout, p.stderr

    def script(self, text):
        out, err = self.psql("-f", "-", stdin=text)
        return out, err

    def test_ddl_dml_and_select(self):
        out, err = self.script(
            "\\pset footer off\n"
            "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(10), price NUMERIC(6,2));\n"
            "INSERT INTO items VALUES (1, 'apple', 1.50), (2, 'pear', 2.25), (3, NULL, 0);\n"
            "UPDATE items SET price = price + 1 WHERE id = 2;\n"
            "DELETE FROM items WHERE id = 3;\n"
            "SELECT id, name, price FROM items ORDER BY id;\n")
        self.assertEqual(err, "")
        self.assertEqual(out, " id | name  | price \n----+-------+-------\n  1 | apple |  1.50\n  2 | pear  |  3.25\n\n")
        out, _ = self.psql("-At", "-c", "INSERT INTO items VALUES (4, 'fig', 9)", "-c", "SELECT count(*) FROM items")
        self.assertEqual(out, "3\n")

    def test_errors_carry_sqlstate(self):
        out, err = self.script(
            "CREATE TABLE e (id INT PRIMARY KEY);\n"
            "INSERT INTO e VALUES (1);\n"
            "INSERT INTO e VALUES (1);\n"
            "SELECT * FROM missing;\n"
            "SELEC 1;\n"
            "SELECT 1/0;\n"
            "SELECT 'still alive';\n")
        self.assertIn("ERROR:  23505: duplicate key value violates unique constraint", err)
        self.assertIn("DETAIL:  Key (id)=(1) already exists.", err)
        self.assertIn("ERROR:  42P01:", err)
        self.assertIn("ERROR:  42601: syntax error at or near \"SELEC\"", err)
        self.assertIn("ERROR:  22012: division by zero", err)
        self.assertIn("still alive", out)

    def test_transaction_error_then_rollback(self):
        out, err = self.script(
            "CREATE TABLE tx (id INT PRIMARY KEY, v INT);\n"
            "INSERT INTO tx VALUES (1, 10);\n"
            "BEGIN;\n"
            "UPDATE tx SET v = 20 WHERE id = 1;\n"
            "SELECT 1/0;\n"
            "SELECT v FROM tx;\n"
            "ROLLBACK;\n"
            "SELECT 'v=' || v FROM tx;\n"
            "BEGIN;\n"
            "UPDATE tx SET v = 30 WHERE id = 1;\n"
            "COMMIT;\n"
            "SELECT 'after=' || v FROM tx;\n")
        self.assertIn("22012", err)
        self.assertIn("ERROR:  25P02: current transaction is aborted", err)
        self.assertIn("v=10", out)
        self.assertIn("after=30", out)

    def test_commit_of_failed_block_says_rollback(self):
        out, err = self.psql("-c", "BEGIN", "-c", "SELECT 1/0", "-c", "COMMIT", "-c", "SELECT 'ok'", quiet=False)
        self.assertIn("ROLLBACK", out)
        self.assertIn("ok", out)

    def test_several_statements_in_one_message(self):
        self.psql("-c", "CREATE TABLE m (id INT PRIMARY KEY)")
        # One implicit transaction: the error rolls back the first insert.
        out, err = self.psql("-c", "INSERT INTO m VALUES (1); SELECT 1/0; INSERT INTO m VALUES (2)", check=False)
        self.assertIn("22012", err)
        out, _ = self.psql("-At", "-c", "SELECT count(*) FROM m")
        self.assertEqual(out, "0\n")
        # A whole transaction in one message (scheduled): all of it commits.
        out, err = self.psql("-c", "BEGIN; INSERT INTO m VALUES (1); INSERT INTO m VALUES (2); SELECT count(*) AS n FROM m; END")
        self.assertEqual(err, "")
        self.assertIn(" 2\n", out)
        # An error inside it: nothing of it stays.
        out, err = self.psql("-c", "BEGIN; INSERT INTO m VALUES (3); INSERT INTO m VALUES (1); COMMIT", check=False)
        self.assertIn("23505", err)
        out, _ = self.psql("-At", "-c", "SELECT count(*) FROM m")
        self.assertEqual(out, "2\n")
        # After an explicit COMMIT, the rest of the message is one implicit
        # transaction again (as PostgreSQL): the error rolls back 5, not 4.
        out, err = self.psql("-c", "BEGIN; INSERT INTO m VALUES (4); COMMIT; INSERT INTO m VALUES (5); SELECT 1/0",
                             check=False)
        self.assertIn("22012", err)
        out, _ = self.psql("-At", "-c", "SELECT id FROM m WHERE id >= 4 ORDER BY id")
        self.assertEqual(out, "4\n")
        # Several results in one message.
        out, err = self.psql("-At", "-f", "-", stdin="SELECT 1 AS a \\; SELECT 'two' AS b;\n")
        self.assertEqual(out, "1\ntwo\n")

    def test_transaction_control_warnings(self):
        out, err = self.psql("-c", "COMMIT", "-c", "BEGIN", "-c", "BEGIN", "-c", "ROLLBACK")
        self.assertIn("WARNING:  25P01: there is no transaction in progress", err)
        self.assertIn("WARNING:  25001: there is already a transaction in progress", err)

    def test_prepare_execute_deallocate(self):
        out, err = self.psql("-At", "-c", "CREATE TABLE pe (id INT PRIMARY KEY, name TEXT)", "-c",
                             "PREPARE ins (int, text) AS INSERT INTO pe VALUES ($1, $2)", "-c",
                             "EXECUTE ins(1, 'one')", "-c", "EXECUTE ins(1 + 1, 'two')", "-c",
                             "PREPARE get AS SELECT name FROM pe WHERE id = $1", "-c", "EXECUTE get(2)", "-c",
                             "DEALLOCATE get", "-c", "EXECUTE get(2)", "-c", "DEALLOCATE ALL", "-c",
                             "EXECUTE ins(3, 'three')", "-c", "SELECT count(*) FROM pe", check=False)
        self.assertEqual(out, "two\n2\n")
        self.assertEqual(err.count('26000: prepared statement "get" does not exist'), 1, err)
        self.assertEqual(err.count('26000: prepared statement "ins" does not exist'), 1, err)

    def test_empty_query(self):
        out, err = self.psql("-c", ";")
        self.assertEqual(err, "")

    def test_copy_both_ways(self):
        self.psql("-c", "CREATE TABLE cp (id INT PRIMARY KEY, name TEXT, note VARCHAR(20))")
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in.tsv")
            with open(src, "w") as f:
                f.write("1\talpha\t\\N\n2\tbe\\ttab\tx\n3\tgamma\tnew\\nline\n")
            out, err = self.psql("-c", "\\copy cp FROM '%s'" % src)
            self.assertEqual(err, "")
            dst = os.path.join(d, "out.tsv")
            out, err = self.psql("-c", "\\copy cp TO '%s'" % dst)
            self.assertEqual(err, "")
            with open(dst) as f:
                self.assertEqual(f.read(), "1\talpha\t\\N\n2\tbe\\ttab\tx\n3\tgamma\tnew\\nline\n")
            # A bad row: nothing of the COPY stays, the session goes on.
            with open(src, "w") as f:
                f.write("4\tdelta\tx\nfive\tepsilon\tx\n")
            out, err = self.psql("-c", "\\copy cp FROM '%s'" % src, check=False)
            self.assertIn("22P02", err)
        out, _ = self.psql("-At", "-c", "SELECT count(*) FROM cp")
        self.assertEqual(out, "3\n")

    def test_statements_with_literals_alone_and_in_a_block_answer_alike(self):
        # Alone in a Query, a statement with literals is submitted to the
        # scheduler without being parsed by the connection (the engine
        # parameterizes it); inside a block it runs on the session. Results,
        # command tags and errors (SQLSTATE, message, position) must not
        # differ between the two paths.
        self.psql("-c", "CREATE TABLE lit (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(5))",
                  "-c", "INSERT INTO lit VALUES (1, 10, 'a'), (2, 20, 'b')")
        statements = [
            "UPDATE lit SET v = v + 5 WHERE id = 1 RETURNING v",
            "SELECT v, s FROM lit WHERE id = 1 AND v > 3",
            "INSERT INTO lit VALUES (3, 30, 'c')",
            "DELETE FROM lit WHERE id = 3",
            "UPDATE lit SET v = 'x' WHERE id = 2",
            "INSERT INTO lit VALUES (1, 1, 'dup')",
            "UPDATE lit SET s = 'toolong' WHERE id = 2",
            "SELECT v FROM lit WHERE nosuch = 1",
        ]
        for statement in statements:
            with self.subTest(statement=statement):
                # The block first: it is rolled back, then the statement
                # alone runs on the same rows and commits.
                block, block_err = self.psql("-At", "-c", "BEGIN", "-c", statement, "-c", "ROLLBACK", check=False)
                block = block.replace("BEGIN\n", "", 1).replace("ROLLBACK\n", "")
                alone, alone_err = self.psql("-At", "-c", statement, check=False)
                self.assertEqual(alone, block)
                self.assertEqual(alone_err, block_err)
        out, _ = self.psql("-At", "-c", "SELECT id, v, s FROM lit ORDER BY id")
        self.assertEqual(out, "1|15|a\n2|20|b\n")

    def test_error_position_in_a_one_message_transaction(self):
        # The error of the second statement of a whole transaction sent as
        # one message points into that statement, whichever way the message
        # goes: split without parsing, parsed then submitted, or run on the
        # session inside a block.
        self.psql("-c", "CREATE TABLE pos (id INT PRIMARY KEY, v INT NOT NULL)",
                  "-c", "INSERT INTO pos VALUES (1, 1), (2, 2)")
        body = "UPDATE pos SET v = v + 1 WHERE id = 1; UPDATE pos SET v = 'y' WHERE id = 2"
        for args in (["-c", "BEGIN; %s; COMMIT" % body],
                     ["-c", "BEGIN ISOLATION LEVEL SERIALIZABLE; %s; COMMIT" % body],
                     ["-c", "BEGIN", "-c", body, "-c", "ROLLBACK"]):
            with self.subTest(args=args):
                _, err = self.psql(*args, check=False)
                self.assertIn('22P02: invalid input syntax for type integer: "y"', err)
                lines = err.splitlines()
                line = next(i for i, l in enumerate(lines) if l.startswith("LINE 1: "))
                caret = lines[line + 1].index("^")
                self.assertEqual(lines[line][caret:caret + 3], "'y'", err)
        out, _ = self.psql("-At", "-c", "SELECT id, v FROM pos ORDER BY id")
        self.assertEqual(out, "1|1\n2|2\n")  # nothing half-applied

    def test_show_paceline(self):
        out, _ = self.psql("-At", "-c", "SHOW paceline.scheduler", "-c", "SHOW paceline.cc", "-c",
                           "SHOW paceline.workers")
        self.assertEqual(out, "adaptive\nocc\n2\n")
        out, _ = self.psql("-c", "SHOW paceline.hot_references")
        self.assertIn("reference | aborts | commits | weight | queued", out)
        # Per run queue, then the sum; a statement sent alone is scheduled.
        # The scheduler's own counters, by name (SchedulerStats::Fields).
        scheduler_stats = lambda: {  # noqa: E731
            name: int(value) for name, value in (
                line.split(",") for line in self.psql("-At", "-F", ",", "-c",
                                                      "SHOW paceline.scheduler_stats")[0].splitlines())}
        placed_before = scheduler_stats()
        self.assertIn("homed", placed_before)
        self.assertIn(placed_before["spill"], (0, 1))
        before, _ = self.psql("-At", "-F", ",", "-c", "SHOW paceline.stats")
        self.psql("-c", "CREATE TABLE st (id INT PRIMARY KEY)", "-c", "INSERT INTO st VALUES (1)")
        after, _ = self.psql("-At", "-F", ",", "-c", "SHOW paceline.stats")
        # Placed on a queue, or (adaptive, no evidence) run on the
        # connection's thread: the `here` row.
        placed_after = scheduler_stats()
        self.assertEqual(placed_after["picks"] + placed_after["ran_here"],
                         placed_before["picks"] + placed_before["ran_here"] + 1)
        rows = [line.split(",") for line in after.splitlines()]
        self.assertEqual([r[0] for r in rows], ["0", "1", "here", "all"])
        commits = lambda text: int(text.splitlines()[-1].split(",")[2])  # noqa: E731
        self.assertEqual(commits(after), commits(before) + 1)
        self.assertEqual(sum(int(r[2]) for r in rows[:-1]), int(rows[-1][2]))

    def test_catalog_queries_run(self):
        # The meta-commands' own queries (psql_catalog_test.py compares
        # their output with PostgreSQL's); a catalog write is a clear error.
        self.psql("-c", "CREATE TABLE listed (id INT PRIMARY KEY)")
        out, err = self.psql("-At", "-c", "\\dt listed")
        self.assertEqual((out, err), ("public|listed|table|" + self.server.env()["PGUSER"] + "\n", ""))
        out, err = self.psql("-c", "DELETE FROM pg_class", check=False)
        self.assertIn("0A000: system catalog relation \"pg_catalog.pg_class\" cannot be changed", err)

    def test_help_lists_names(self):
        p = subprocess.run([BINARY, "--help"], capture_output=True, text=True, timeout=30)
        text = p.stdout + p.stderr
        for name in ("count-max-canonical", "fraction-sum-literal-all", "random", "partition", "occ",
                     "2pl-wait-die", "-max_connections", "-scheduler", "-port"):
            self.assertIn(name, text)

    def test_set_reports_parameter_status(self):
        out, err = self.psql("-At", "-c", "SET application_name = 'renamed'", "-c", "SHOW application_name")
        self.assertEqual(out, "renamed\n")

    def test_wrong_database(self):
        p = subprocess.run(["psql", "-X", "-d", "nosuchdb", "-c", "SELECT 1"], capture_output=True, text=True,
                           env=self.server.env(), timeout=30)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('database "nosuchdb" does not exist', p.stderr)


class ScramTest(unittest.TestCase):
    """--auth=scram-sha-256 with users from a password file."""

    def test_password(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "passwords")
            with open(path, "w") as f:
                f.write("# users\nalice:correct horse\n")
            server = ServerProcess(BINARY, "--workers=1", "--auth=scram-sha-256", "--password-file=" + path).start()
            try:
                def run(user, password):
                    env = server.env()
                    env.update(PGUSER=user, PGPASSWORD=password)
                    return subprocess.run(["psql", "-X", "-At", "-w", "-c", "SELECT 'in'"], capture_output=True,
                                          text=True, env=env, timeout=30)
                p = run("alice", "correct horse")
                self.assertEqual((p.returncode, p.stdout), (0, "in\n"), p.stderr)
                for user, password in (("alice", "wrong"), ("mallory", "correct horse")):
                    p = run(user, password)
                    self.assertNotEqual(p.returncode, 0)
                    self.assertIn('password authentication failed for user "%s"' % user, p.stderr)
            finally:
                code, err = server.stop()
                self.assertEqual(code, 0, err)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
