#!/usr/bin/env python3
"""End-to-end test of the paceline-sql shell: -c, -f, standard input, --csv,
psql-style aligned output, errors with SQLSTATE and caret, exit statuses,
meta-commands. Run by ctest with the binary's path as the only argument."""
import os
import subprocess
import sys
import tempfile
import unittest

BINARY = None


def run(*args, stdin=None):
    p = subprocess.run([BINARY, *args], input=stdin, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


class PacelineSqlTest(unittest.TestCase):
    def test_command_prints_aligned_table_like_psql(self):
        code, out, err = run("-c", "CREATE TABLE t (a INT PRIMARY KEY, b TEXT, c NUMERIC(5,2));"
                                   "INSERT INTO t VALUES (1, 'x', 1.5), (22, NULL, -3);"
                                   "SELECT * FROM t ORDER BY a")
        self.assertEqual(code, 0, err)
        self.assertEqual(out,
                         "CREATE TABLE\n"
                         "INSERT 0 2\n"
                         " a  | b |   c   \n"
                         "----+---+-------\n"
                         "  1 | x |  1.50\n"
                         " 22 |   | -3.00\n"
                         "(2 rows)\n\n")

    def test_single_row_footer_and_returning_tag(self):
        code, out, _ = run("-c", "CREATE TABLE t (a INT); INSERT INTO t VALUES (5) RETURNING a * 2 AS d")
        self.assertEqual(code, 0)
        self.assertIn(" d  \n----\n 10\n(1 row)\n\nINSERT 0 1\n", out)

    def test_csv_quotes_and_nulls(self):
        code, out, _ = run("--csv", "-c", "SELECT 'a,b' AS x, 1 AS y, NULL AS z, 'say \"hi\"' AS w")
        self.assertEqual(code, 0)
        self.assertEqual(out, 'x,y,z,w\n"a,b",1,,"say ""hi"""\n')

    def test_error_has_sqlstate_caret_and_nonzero_exit(self):
        code, out, err = run("-c", "SELECT 1; SELECT * FROM nope; SELECT 2")
        self.assertEqual(code, 1)
        self.assertIn('ERROR:  42P01: relation "nope" does not exist', err)
        self.assertIn("LINE 1: SELECT * FROM nope\n                      ^", err)
        self.assertNotIn(" 2\n", out, "the shell stops at the first error")

    def test_file_and_stdin_split_statements_with_quotes_and_comments(self):
        script = ("-- a comment; with a semicolon\n"
                  "CREATE TABLE s (v TEXT);\n"
                  "INSERT INTO s VALUES ('semi;colon'), ($$dollar;quoted$$);\n"
                  "SELECT v FROM s ORDER BY v;\n")
        with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
            f.write(script)
        try:
            code, out_file, err = run("-f", f.name)
            self.assertEqual(code, 0, err)
        finally:
            os.unlink(f.name)
        code, out_stdin, err = run(stdin=script)
        self.assertEqual(code, 0, err)
        self.assertEqual(out_file, out_stdin)
        self.assertIn(" dollar;quoted\n semi;colon\n(2 rows)", out_file)

    def test_syntax_error_in_one_statement_reported_with_position(self):
        code, _, err = run(stdin="SELECT 1;\nSELEC 2;\n")
        self.assertEqual(code, 1)
        self.assertIn('ERROR:  42601: syntax error at or near "SELEC"', err)

    def test_caret_counts_characters_on_the_right_line(self):
        code, _, err = run(stdin="SELECT 'café',\n  'naïve', nope;\n")
        self.assertEqual(code, 1)
        self.assertIn("LINE 2:   'naïve', nope\n                   ^", err)

    def test_transactions_across_statements(self):
        code, out, err = run("-c", "CREATE TABLE t (a INT); BEGIN; INSERT INTO t VALUES (1); ROLLBACK;"
                                   "SELECT count(*) FROM t")
        self.assertEqual(code, 0, err)
        self.assertIn("BEGIN\nINSERT 0 1\nROLLBACK\n count \n-------\n     0\n(1 row)", out)

    def test_meta_commands_in_a_script(self):
        code, out, err = run(stdin="CREATE TABLE w (id INT PRIMARY KEY, name VARCHAR(10) NOT NULL);\n"
                                   "INSERT INTO w VALUES (1, 'a');\n"
                                   "\\dt\n"
                                   "\\d w\n"
                                   "\\q\n"
                                   "SELECT 'not reached';\n")
        self.assertEqual(code, 0, err)
        self.assertIn(" w    |    1\n", out)
        self.assertIn(" id     | integer               | not null |", out)
        self.assertIn(" name   | character varying(10) | not null |", out)
        self.assertIn('"w_pkey" PRIMARY KEY (id)', out)
        self.assertNotIn("not reached", out)
        code, _, err = run(stdin="\\d missing\n")
        self.assertEqual(code, 1)
        self.assertIn('Did not find any relation named "missing"', err)

    def test_missing_file_and_bad_argument(self):
        code, _, err = run("-f", "/nonexistent/x.sql")
        self.assertEqual(code, 1)
        self.assertIn("No such file", err)
        code, _, err = run("stray")
        self.assertEqual(code, 2)

    def test_help_lists_flags(self):
        code, out, err = run("--help")
        self.assertIn("-csv", out + err)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main(verbosity=2)
