#!/usr/bin/python3
"""Runs Paceline's SQL logic test files against a real PostgreSQL and reports
every record where PostgreSQL disagrees with the expectation in the file.

The files in this folder (*.test, format in README.md and at the top of
../sql_logic_test.cc) state PostgreSQL 15's behaviour; this script is how that
claim is checked. Records preceded by a `# paceline-only: <why>` comment line
are Paceline's intentional differences and are skipped. `skip` directives are
for the Paceline driver only: the record they guard still runs here, since it
states what PostgreSQL does and Paceline should.

Each file runs in a database of its own (created and dropped here, with the
"C" collation, since Paceline compares text byte-wise), one
connection per `session N`, in autocommit mode, so BEGIN/COMMIT in the file
behave as they do in Paceline. Statements go through the extended query
protocol (libpq PQexecParams), with `params` values sent as untyped text
parameters, so PostgreSQL infers their types as Paceline does, and results
come back in text format.

Requirements: python3-psycopg (Debian's python3, /usr/bin/python3) and a
running PostgreSQL 15 that the current OS user may connect to and create
databases in, for example:

    apt-get install -y postgresql-15 python3-psycopg
    pg_ctlcluster 15 main start
    runuser -u postgres -- createuser --createdb "$USER"   # once

Usage:

    test/sql/cases/check_with_postgres.py [--dsn "host=... user=..."] \\
        [--show] [file.test ...]          # default: every *.test here

--show prints PostgreSQL's answer for every record (handy when writing
tests); --fill writes PostgreSQL's rows into every `query` record of the
given files whose expectation differs (write the queries with an empty
expectation after `----`, fill, then read every answer before committing). Exit status: 0 when PostgreSQL agrees with every checked record, 1
otherwise.
"""

import argparse
import os
import pathlib
import sys

try:
    import psycopg
    from psycopg import pq
except ImportError:  # pragma: no cover
    sys.exit("check_with_postgres.py needs python3-psycopg (run it with /usr/bin/python3)")


class Record:
    def __init__(self, kind, line):
        self.kind = kind          # "ok" | "count" | "error" | "query"
        self.line = line          # 1-based line of the header
        self.sql = ""
        self.params = []
        self.count = 0
        self.sqlstate = ""
        self.position = 0
        self.message = ""
        self.rowsort = False
        self.columns = False
        self.expected = []
        self.session = 1
        self.paceline_only = False


def parse_params(text):
    """'a, 'b, c', NULL' -> ['a', 'b, c', None] (mirrors the C++ driver)."""
    out, i = [], 0
    while True:
        while i < len(text) and text[i] == " ":
            i += 1
        if i >= len(text):
            break
        if text[i] == "'":
            i += 1
            value = ""
            while True:
                if i >= len(text):
                    raise ValueError("unterminated quoted parameter")
                if text[i] == "'":
                    if i + 1 < len(text) and text[i + 1] == "'":
                        value += "'"
                        i += 2
                        continue
                    i += 1
                    break
                value += text[i]
                i += 1
            while i < len(text) and text[i] == " ":
                i += 1
            out.append(value)
        else:
            end = text.find(",", i)
            if end < 0:
                end = len(text)
            value = text[i:end].strip()
            out.append(None if value == "NULL" else value)
            i = end
        if i < len(text):
            if text[i] != ",":
                raise ValueError("expected ',' between parameters")
            i += 1
    return out


def parse_file(path):
    lines = path.read_text().split("\n")
    records, session, paceline_only = [], 1, False
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        if not text:
            i += 1
            continue
        if text.startswith("#"):
            if text.startswith("# paceline-only:"):
                paceline_only = True
            i += 1
            continue
        words = text.split()
        if words == ["skip"]:
            i += 1
            continue
        if words[0] == "session":
            session = int(words[1])
            i += 1
            continue
        r = Record(None, i + 1)
        r.session = session
        r.paceline_only, paceline_only = paceline_only, False
        if words[:2] == ["statement", "ok"]:
            r.kind = "ok"
        elif words[:2] == ["statement", "count"]:
            r.kind = "count"
            r.count = int(words[2])
        elif words[:2] == ["statement", "error"]:
            r.kind = "error"
            r.sqlstate = words[2]
            rest = text.split(None, 3)[3] if len(words) > 3 else ""
            if rest.startswith("@"):
                pos, _, rest = rest.partition(" ")
                r.position = int(pos[1:])
            r.message = rest.strip()
        elif words[0] == "query":
            r.kind = "query"
            r.rowsort = "rowsort" in words[1:]
            r.columns = "columns" in words[1:]
        else:
            raise ValueError(f"{path}:{i + 1}: unknown record: {text}")
        i += 1
        if i < len(lines) and lines[i].strip().startswith("params "):
            r.params = parse_params(lines[i].strip()[7:])
            i += 1
        sql = []
        while i < len(lines) and lines[i].strip() and lines[i].strip() != "----":
            sql.append(lines[i])
            i += 1
        r.sql = "\n".join(sql)
        if r.kind == "query":
            if i >= len(lines) or lines[i].strip() != "----":
                raise ValueError(f"{path}:{r.line}: query without ---- line")
            i += 1
            while i < len(lines) and lines[i].strip():
                r.expected.append(lines[i].rstrip("\r"))
                i += 1
        records.append(r)
    return records


def render(value):
    if value is None:
        return "NULL"
    s = value.decode()
    return s if s else "(empty)"


def run_record(conn, r):
    """Returns (ok, description of what PostgreSQL did)."""
    params = [None if p is None else p.encode() for p in r.params]
    res = conn.exec_params(r.sql.encode(), params)
    failed = res.status == pq.ExecStatus.FATAL_ERROR
    if failed:
        state = (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
        message = (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode()
        pos = int(res.error_field(pq.DiagnosticField.STATEMENT_POSITION) or 0)
        actual = f"error {state}" + (f" @{pos}" if pos else "") + f" {message}"
        if r.kind != "error":
            return False, actual
        good = state == r.sqlstate and (not r.message or r.message in message) \
            and (not r.position or pos == r.position)
        return good, actual
    if res.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK, pq.ExecStatus.EMPTY_QUERY):
        return False, f"unexpected result status {res.status!r}"
    tag = (res.command_status or b"").decode()
    if r.kind == "error":
        return False, f"success ({tag})"
    if r.kind == "count":
        n = res.command_tuples if res.command_tuples is not None else res.ntuples
        return n == r.count, f"{n} rows affected ({tag})"
    if r.kind == "ok":
        return True, f"success ({tag})"
    if res.status != pq.ExecStatus.TUPLES_OK:
        return False, f"no rows description ({tag})"
    rows = ["\t".join(render(res.get_value(t, c)) for c in range(res.nfields)) for t in range(res.ntuples)]
    expected = list(r.expected)
    if r.rowsort:
        rows.sort()
        head = 1 if r.columns and expected else 0
        expected = expected[:head] + sorted(expected[head:])
    if r.columns:
        rows.insert(0, "\t".join(res.fname(c).decode() for c in range(res.nfields)))
    if rows != expected:
        r.actual_rows = rows  # for --fill
    return rows == expected, "rows:\n" + "".join(f"    {x}\n" for x in rows)


def fill_file(path, records):
    """Replaces the expectation of each disagreeing query record by PostgreSQL's rows."""
    lines = path.read_text().split("\n")
    for r in sorted(records, key=lambda r: r.line, reverse=True):
        rows = getattr(r, "actual_rows", None)
        if r.kind != "query" or rows is None:
            continue
        sep = r.line
        while lines[sep].strip() != "----":
            sep += 1
        end = sep + 1
        while end < len(lines) and lines[end].strip() != "":
            end += 1
        lines[sep + 1:end] = rows
    path.write_text("\n".join(lines))


def check_file(path, dsn, show, fill=False):
    records = parse_file(path)
    dbname = f"paceline_check_{os.getpid()}"
    admin = psycopg.connect(dsn, dbname="postgres", autocommit=True)
    if admin.info.server_version // 10000 != 15:
        print(f"warning: the expectations are PostgreSQL 15's; this server is {admin.info.server_version}")
    admin.execute(f"DROP DATABASE IF EXISTS {dbname}")
    # Paceline compares text byte-wise: PostgreSQL's "C" collation.
    admin.execute(f"CREATE DATABASE {dbname} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
    sessions = {}
    disagreements = checked = 0
    try:
        for r in records:
            if r.paceline_only:
                continue
            if r.session not in sessions:
                conn = psycopg.connect(dsn, dbname=dbname, autocommit=True)
                conn.pgconn.exec_(b"SET TimeZone = 'UTC'")
                sessions[r.session] = conn
            ok, actual = run_record(sessions[r.session].pgconn, r)
            checked += 1
            if show:
                print(f"{path.name}:{r.line}: {r.sql}\n  -> {actual}")
            if not ok and fill and r.kind == "query" and hasattr(r, "actual_rows"):
                continue
            if not ok:
                disagreements += 1
                want = {"ok": "success", "count": f"{r.count} rows affected",
                        "error": f"error {r.sqlstate}" + (f" @{r.position}" if r.position else "")
                                 + (f" containing '{r.message}'" if r.message else ""),
                        "query": "rows:\n" + "".join(f"    {x}\n" for x in r.expected)}[r.kind]
                print(f"{path}:{r.line}: PostgreSQL disagrees\n  SQL: {r.sql}\n"
                      f"  expected {want}\n  PostgreSQL: {actual}")
    finally:
        for conn in sessions.values():
            conn.close()
        admin.execute(f"DROP DATABASE IF EXISTS {dbname} WITH (FORCE)")
        admin.close()
    if fill:
        fill_file(path, [r for r in records if r.kind == "query"])
    skipped = sum(r.paceline_only for r in records)
    print(f"{path.name}: {checked} records checked, {skipped} paceline-only skipped, "
          f"{disagreements} disagreements")
    return disagreements


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--dsn", default="", help="libpq connection string (default: libpq environment)")
    parser.add_argument("--show", action="store_true", help="print PostgreSQL's answer to every record")
    parser.add_argument("--fill", action="store_true", help="write PostgreSQL's rows into disagreeing query records")
    args = parser.parse_args()
    files = args.files or sorted(here.glob("*.test"))
    total = sum(check_file(f, args.dsn, args.show, args.fill) for f in files)
    print(f"total disagreements: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
