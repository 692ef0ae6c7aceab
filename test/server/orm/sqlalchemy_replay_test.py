#!/usr/bin/python3
"""Replays sqlalchemy_app.case, the SQL a small SQLAlchemy 2 ORM application
sends (captured from PostgreSQL 15 by capture_sqlalchemy.py), against
paceline-server, and compares every answer with PostgreSQL's.

Each record goes out as its client sent it: simple-protocol statements as a
Query message, extended ones through Parse/Bind/Describe/Execute/Sync with
the captured parameter types, values and formats (libpq PQexecParams), one
server connection per captured client connection, in the captured order.
psycopg's own BEGIN, COMMIT and ROLLBACK are records too, so each unit of
work runs in its own transaction as it did under SQLAlchemy; a statement
that fails aborts the rest of its transaction only.

The case is replayed a second time "alone": without the transaction-control
records (each statement commits on its own, so no failure aborts the next)
and with sqlalchemy_app.standin.sql run after the records its sections
name (the tables as plain CREATE TABLE, the rows the application wrote),
so that each statement's own gap shows, not only the first blocker's.

Records marked `skip` (fails as replayed) or `skip-alone` (fails alone),
after a `# TODO-paceline: why` line, are Paceline's known gaps. They run
all the same; the test fails when a record fails where it is not marked,
and also when a marked one now agrees with PostgreSQL (so the marks stay
honest; --mark rewrites them from a run).

    sqlalchemy_replay_test.py SERVER          the ctest mode (ctest: server.orm_sqlalchemy)
    sqlalchemy_replay_test.py --report [--server SERVER] [-v]
        a line per record (pass/FAIL and why, and alone when that differs;
        -v: the SQL of failures too), the share that passes in each replay,
        the failures grouped by answer, and the records that disagree with
        their marks; exit status 0
    sqlalchemy_replay_test.py --mark [--server SERVER]
        rewrites the marks of the case file from a run of both replays
        (other comment lines above a record are kept)
    sqlalchemy_replay_test.py --report --dsn DSN [--alone-dsn DSN2]
        replays against running servers instead (empty databases), say
        PostgreSQL, which checks the case file itself: every record passes

SERVER defaults to build/src/tools/paceline-server.

Needs Debian's python3 with python3-psycopg only (not SQLAlchemy).
"""
import argparse
import collections
import os
import re
import sys
import unittest

import psycopg
from psycopg import pq

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import case_file  # noqa: E402
from server_process import ServerProcess  # noqa: E402

CASE = os.path.join(HERE, "sqlalchemy_app.case")
STANDIN = os.path.join(HERE, "sqlalchemy_app.standin.sql")
DEFAULT_SERVER = os.path.join(ROOT, "build", "src", "tools", "paceline-server")


class Outcome:
    def __init__(self, record, ok, why="", sqlstate=""):
        self.record = record
        self.ok = ok
        self.why = why            # what differed (empty when ok)
        self.sqlstate = sqlstate  # the error's, when the statement failed


def _rows(res, binary):
    rows = []
    for i in range(res.ntuples):
        row = []
        for j in range(res.nfields):
            value = res.get_value(i, j)
            try:
                row.append(case_file.value_to_text(value, res.ftype(j), binary))
            except ValueError:
                row.append("\\x" + value.hex())
        rows.append(row)
    return rows


def _sort_key(row):
    return [(v is None, v or "") for v in row]


def _short(value, limit=160):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def compare(r, res):
    """(ok, why, sqlstate) of one result against record r."""
    if res.status == pq.ExecStatus.FATAL_ERROR:
        state = (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
        message = (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode(errors="replace")
        if r.error:
            if state == r.error[0]:
                return True, "", state
            return False, f"error {state} {message} (PostgreSQL: {r.error[0]} {r.error[1]})", state
        return False, f"error {state} {message}", state
    if res.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK, pq.ExecStatus.EMPTY_QUERY):
        return False, f"result status {pq.ExecStatus(res.status).name}", ""
    if r.error:
        return False, f"succeeded ({(res.command_status or b'').decode()}); PostgreSQL: error {r.error[0]} " \
                      f"{r.error[1]}", ""
    tag = (res.command_status or b"").decode()
    columns = [res.fname(j).decode() for j in range(res.nfields)] if res.status == pq.ExecStatus.TUPLES_OK \
        else None
    rows = _rows(res, r.binary_results)
    why = []
    if columns != r.columns:
        why.append(f"columns {_short(columns)}, PostgreSQL {_short(r.columns)}")
    if r.mode == "anyvalue":
        if len(rows) != len(r.rows) or [len(x) for x in rows] != [len(x) for x in r.rows]:
            why.append(f"{len(rows)} rows, PostgreSQL {len(r.rows)}")
    else:
        got, want = rows, r.rows
        if r.mode == "rowsort":
            got, want = sorted(got, key=_sort_key), sorted(want, key=_sort_key)
        if got != want:
            if len(got) != len(want):
                why.append(f"{len(got)} rows, PostgreSQL {len(want)}")
            diff = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]), None)
            if diff is not None:
                why.append(f"row {diff + 1} {_short(got[diff])}, PostgreSQL {_short(want[diff])}")
    if [tag] != r.tags:
        why.append(f"tag {tag!r}, PostgreSQL {' / '.join(r.tags)!r}")
    return not why, "; ".join(why), ""


TRANSACTION_CONTROL = re.compile(r"^(BEGIN|START TRANSACTION|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE)\b", re.I)


def parse_standin(path):
    """{record number: [statement]} of sqlalchemy_app.standin.sql."""
    sections, current = {}, None
    with open(path) as f:
        text = f.read()
    for line in text.split("\n"):
        m = re.match(r"-- after record (\d+)$", line.strip())
        if m:
            current = sections.setdefault(int(m.group(1)), [])
        elif line.strip() and not line.startswith("--"):
            current.append(line.strip())
    return sections


def replay(records, connect, standin=None):
    """Runs every record; connect() opens a connection (psycopg, autocommit).
    Returns ([Outcome], one per record, [stand-in failure]).

    With `standin` ({record number: [statement]}), the replay is isolated:
    transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ...) is left
    out (its outcome is None), so each statement commits on its own and no
    failure aborts the next, and the stand-in statements run after the
    record named (their errors are collected, not fatal)."""
    conns, outcomes, standin_failures = {}, [], []
    failed_in_block = {}  # connection -> number of the block's first failed record
    isolated = standin is not None
    try:
        for r in records:
            if r.conn not in conns:
                conns[r.conn] = connect()
            pgconn = conns[r.conn].pgconn
            if isolated and TRANSACTION_CONTROL.match(r.sql):
                outcomes.append(Outcome(r, None, "not run (transaction control)"))
            elif pgconn.status != pq.ConnStatus.OK:
                outcomes.append(Outcome(r, False, "connection lost", "08006"))
            else:
                try:
                    outcomes.append(run_record(r, pgconn, failed_in_block))
                except psycopg.OperationalError as e:  # no result at all: the connection broke
                    outcomes.append(Outcome(r, False, f"connection lost: {e}", "08006"))
                    continue
            for sql in (standin or {}).get(r.number, []):
                try:
                    res = pgconn.exec_(sql.encode())
                except psycopg.OperationalError as e:
                    standin_failures.append(f"{first_line(sql, 60)}: connection lost: {e}")
                    break
                if res.status == pq.ExecStatus.FATAL_ERROR:
                    message = (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode()
                    standin_failures.append(f"{first_line(sql, 60)}: {message}")
    finally:
        for c in conns.values():
            c.close()
    return outcomes, standin_failures


def run_record(r, pgconn, failed_in_block):
    sql = r.sql.encode()
    if r.protocol == "simple":
        res = pgconn.exec_(sql)
    else:
        formats = r.formats or "t" * len(r.params)
        binary = [f == "b" for f in formats]
        types = [case_file.type_oid(t) for t in r.types]
        params = [case_file.text_to_value(v, oid, b) for v, oid, b in zip(r.params, types, binary)]
        res = pgconn.exec_params(sql, params, types, [1 if b else 0 for b in binary],
                                 result_format=1 if r.binary_results else 0)
    ok, why, state = compare(r, res)
    if state == "25P02" and r.conn in failed_in_block:
        why += f" (after record {failed_in_block[r.conn]} failed)"
    elif not ok and state:
        failed_in_block.setdefault(r.conn, r.number)
    if pgconn.transaction_status == pq.TransactionStatus.IDLE:
        failed_in_block.pop(r.conn, None)
    return Outcome(r, ok, why, state)


def run_against(server=None, dsn=None, isolated=False):
    """Replays the case file against a new, empty paceline-server (binary
    `server`) or the server at `dsn` (an empty database); isolated: each
    statement alone, with the stand-in schema and data. Returns (outcomes,
    stand-in failures, server exit code or None, server stderr)."""
    _, records = case_file.parse(CASE)
    standin = parse_standin(STANDIN) if isolated else None
    if dsn:
        return (*replay(records, lambda: psycopg.connect(dsn, autocommit=True), standin), None, "")
    proc = ServerProcess(server, "--workers=2").start()
    try:
        outcomes, failures = replay(records, lambda: psycopg.connect(
            host="127.0.0.1", port=proc.port, dbname="paceline", user="tester", connect_timeout=10,
            autocommit=True), standin)
    finally:
        code, err = proc.stop()
    return outcomes, failures, code, err


def first_line(sql, limit=90):
    line = " ".join(sql.split())
    return line if len(line) <= limit else line[:limit] + "..."


def reason(o):
    """A failure's reason without the pointer to the record that failed first."""
    return o.why.split(" (after record")[0] if o.sqlstate else "wrong result: " + o.why


def todo_reason(o, a):
    """The TODO-paceline text of a record that fails in one replay or both:
    o its outcome as replayed, a alone (ok None: not run alone)."""
    if o.ok:
        return "alone: " + a.why
    if a.ok is None or (not a.ok and a.why == o.why):
        return o.why
    return o.why + "; alone: " + ("passes" if a.ok else a.why)


def share(count, total):
    return f"{count} of {total} ({100.0 * count / total:.1f}%)" if total else "0 of 0"


def surprises(outcomes, alone):
    """Lines for the records that disagree with their marks."""
    lines = []
    for runs, o in [("replayed", o) for o in outcomes] + [("replayed alone", a) for a in alone or []]:
        marked = o.record.skip if runs == "replayed" else o.record.skip_alone
        where = f"record {o.record.number} (line {o.record.line}, {first_line(o.record.sql, 60)})"
        if o.ok is False and not marked:
            lines.append(f"{where} fails {runs}: {o.why}")
        elif o.ok and marked:
            lines.append(f"{where} is marked {'skip' if runs == 'replayed' else 'skip-alone'} but passes {runs} "
                         f"now: remove the mark (sqlalchemy_replay_test.py --mark)")
    return lines


def print_groups(outcomes):
    groups = collections.Counter(reason(o) for o in outcomes if o.ok is False)
    print("  failures by answer:")
    for why, count in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {count:4d}  {why}")


def report(outcomes, alone, standin_failures, verbose, marks=True):
    """outcomes: the replay as captured; alone: the isolated one (or None)."""
    alone_of = {o.record.number: o for o in alone or []}
    for o in outcomes:
        print(f"{o.record.number:4d} {'pass' if o.ok else 'FAIL'}{' (skip)' if o.record.skip else '':8s} "
              f"{first_line(o.record.sql)}")
        if not o.ok:
            print(f"{'':13s} -> {o.why}")
        a = alone_of.get(o.record.number)
        if a and a.ok is not None and (not o.ok or not a.ok) and a.why != o.why:
            print(f"{'':13s} -> alone: {'passes' if a.ok else a.why}")
        if verbose and (not o.ok or (a and a.ok is False)):
            print("\n".join(f"{'':16s}{line}" for line in o.record.sql.split("\n")))
    n, passed = len(outcomes), sum(o.ok for o in outcomes)
    control = sum(bool(TRANSACTION_CONTROL.match(o.record.sql)) for o in outcomes)
    print()
    print(f"replayed as captured (psycopg's transactions): {share(passed, n)} records pass "
          f"({sum(o.ok and not TRANSACTION_CONTROL.match(o.record.sql) for o in outcomes)} of the "
          f"{n - control} that are not BEGIN/COMMIT/ROLLBACK/SAVEPOINT/RELEASE)")
    print_groups(outcomes)
    if alone:
        ran = [o for o in alone if o.ok is not None]
        print(f"\nreplayed alone (each statement in its own transaction, stand-in schema and data from "
              f"{os.path.basename(STANDIN)}): {share(sum(o.ok for o in ran), len(ran))} statements pass")
        print_groups(alone)
        if standin_failures:
            print(f"  stand-in statements that failed ({len(standin_failures)}):")
            for f in standin_failures:
                print("        " + f)
    if not marks:
        print("\nmarks: not compared (they describe paceline-server)")
        return
    lines = surprises(outcomes, alone)
    print(f"\nmarks: {sum(o.record.skip for o in outcomes)} records skip, "
          f"{sum(o.record.skip_alone for o in outcomes)} skip-alone; {len(lines)} disagree with the replays")
    for line in lines:
        print("  " + line)


def mark(outcomes, alone):
    header, records = case_file.parse(CASE)
    by_number = {o.record.number: o for o in outcomes}
    alone_of = {o.record.number: o for o in alone}
    for r in records:
        o, a = by_number[r.number], alone_of[r.number]
        r.skip, r.skip_alone = not o.ok, a.ok is False
        r.todo = todo_reason(o, a) if r.skip or r.skip_alone else ""
    case_file.write(CASE, header, records)
    print(f"sqlalchemy_replay_test.py: {sum(r.skip for r in records)} of {len(records)} records marked skip, "
          f"{sum(r.skip_alone for r in records)} skip-alone, in {os.path.relpath(CASE)}")


def run_both(server):
    """Both replays against new paceline-servers: (as captured, alone,
    stand-in failures, [server exit problems])."""
    outcomes, _, code, err = run_against(server)
    problems = [] if code == 0 else [f"paceline-server exit code {code}: {err[-2000:]}"]
    alone, failures, code, err = run_against(server, isolated=True)
    problems += [] if code == 0 else [f"paceline-server (alone) exit code {code}: {err[-2000:]}"]
    return outcomes, alone, failures, problems


class SqlalchemyReplayTest(unittest.TestCase):
    server = None

    def test_replay(self):
        outcomes, alone, _, problems = run_both(self.server)
        if problems:
            self.fail("\n".join(problems))
        passed = sum(o.ok for o in outcomes)
        ran = [a for a in alone if a.ok is not None]
        print(f"\n{share(passed, len(outcomes))} records agree with PostgreSQL as replayed, "
              f"{share(sum(a.ok for a in ran), len(ran))} alone", file=sys.stderr)
        lines = surprises(outcomes, alone)
        if lines:
            self.fail("records disagree with their marks in sqlalchemy_app.case:\n" + "\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("server_binary", nargs="?", help="paceline-server (the ctest mode)")
    p.add_argument("--report", action="store_true")
    p.add_argument("--mark", action="store_true")
    p.add_argument("--server", default=DEFAULT_SERVER)
    p.add_argument("--dsn", help="replay against this running server (an empty database) instead")
    p.add_argument("--alone-dsn", help="with --dsn: a second empty database for the replay alone")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    if args.mark and args.dsn:
        sys.exit("--mark replays against paceline-server, not --dsn")
    if not (args.report or args.mark):
        SqlalchemyReplayTest.server = args.server_binary or args.server
        unittest.main(argv=[sys.argv[0]])
        return
    if args.dsn:
        outcomes, _, _, _ = run_against(dsn=args.dsn)
        alone, failures = run_against(dsn=args.alone_dsn, isolated=True)[:2] if args.alone_dsn else (None, [])
        problems = []
    else:
        outcomes, alone, failures, problems = run_both(args.server)
    for line in problems:
        print(line, file=sys.stderr)
    if args.report:
        report(outcomes, alone, failures, args.verbose, marks=not args.dsn)
    if args.mark:
        mark(outcomes, alone)


if __name__ == "__main__":
    main()
