#!/usr/bin/env python3
"""Hermitage through paceline-server: the cases of test/cc/hermitage_cases.txt
run as interactive psycopg sessions (one statement at a time, in the file's
order) against the server under the CCs that never make a statement wait
(occ, the default, and 2pl's NO_WAIT; the waiting variants are covered
through the embedded API by test/cc/hermitage_test.cc, which can observe a
lock wait). Each run is judged by a serial oracle replaying on the same
server: the committed transactions must have a serial order giving every
statement the result it returned and the same final table, and every result
that a transaction which failed had received must fit one point of that
order. A conflict must reach the client as 40001 or 40P01; a unique
violation (23505), an outcome a serial order can give too, is judged like a
result (the statement must fail so at the same point of the order). Run by
ctest with the server binary as the only argument."""
import itertools
import os
import sys
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402

BINARY = None
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cc", "hermitage_cases.txt")
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK")


def load_cases():
    setup, cases = [], []
    with open(CASES) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("setup "):
                setup.append(line[6:])
            elif line.startswith("case "):
                cases.append((line[5:], []))
            else:
                session, sql = line.split(" ", 1)
                cases[-1][1].append((int(session), sql))
    return setup, cases


def render(cur):
    rows = sorted(repr(tuple(str(v) for v in r)) for r in cur.fetchall()) if cur.description else []
    return cur.statusmessage + " " + " ".join(rows)


def run_rendered(conn, sql):
    """The statement's rendered result, or "ERROR 23505" for a unique
    violation (the transaction's block is failed then)."""
    try:
        return render(conn.execute(sql))
    except psycopg.errors.UniqueViolation:
        return "ERROR 23505"


class Txn:
    def __init__(self, session):
        self.session = session
        self.statements = []  # (sql, rendered result) of those that succeeded
        self.committed = False


class HermitageOverTheWireTest(unittest.TestCase):
    def run_cases(self, cc):
        server = ServerProcess(BINARY, "--workers=2", "--cc=" + cc).start()
        self.addCleanup(server.stop)
        connect = lambda: psycopg.connect(host="127.0.0.1", port=server.port, dbname="paceline", user="tester",
                                          autocommit=True, connect_timeout=10)
        setup, cases = load_cases()
        self.assertGreater(len(cases), 10)
        admin = connect()
        self.addCleanup(admin.close)

        def reset():
            admin.execute("DROP TABLE IF EXISTS test CASCADE")
            for sql in setup:
                admin.execute(sql)

        def replay(txns, order, prefix, probe=None):
            reset()
            for t in order[:prefix]:
                admin.execute("BEGIN")
                for sql, result in txns[t].statements:
                    try:
                        same = run_rendered(admin, sql) == result
                    except psycopg.Error:
                        same = False
                    if not same:
                        admin.execute("ROLLBACK")
                        return False
                admin.execute("COMMIT")
            if probe is not None:
                admin.execute("BEGIN")
                try:
                    same = all(run_rendered(admin, sql) == result for sql, result in txns[probe].statements)
                except psycopg.Error:
                    same = False
                admin.execute("ROLLBACK")
                return same
            return True

        def judge(txns, final):
            committed = [i for i, t in enumerate(txns) if t.committed]
            others = [i for i, t in enumerate(txns) if not t.committed and t.statements]
            for order in itertools.permutations(committed):
                if not replay(txns, order, len(order)) or render(admin.execute("SELECT * FROM test")) != final:
                    continue
                if all(any(replay(txns, order, k, probe=t) for k in range(len(order) + 1)) for t in others):
                    return True
            return False

        for name, steps in cases:
            with self.subTest(cc=cc, case=name):
                reset()
                conns, current, failed, txns = {}, {}, {}, []
                for session, sql in steps:
                    if session not in conns:
                        conns[session] = connect()
                    conn = conns[session]
                    if failed.get(session) and sql not in CONTROL:
                        continue  # the rest of a failed block
                    unique_violation = False
                    try:
                        cur = conn.execute(sql)
                        ok = True
                    except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
                        ok = False
                    except psycopg.errors.UniqueViolation:
                        ok, unique_violation = False, True
                    if sql == "BEGIN":
                        current[session] = Txn(session)
                    elif sql in ("COMMIT", "ROLLBACK"):
                        t = current.pop(session)
                        t.committed = ok and sql == "COMMIT" and not failed.get(session) and \
                            cur.statusmessage == "COMMIT"
                        failed[session] = False
                        txns.append(t)
                    elif session in current:
                        if ok:
                            current[session].statements.append((sql, render(cur)))
                        else:
                            failed[session] = True
                            if unique_violation:
                                current[session].statements.append((sql, "ERROR 23505"))
                    else:  # autocommit
                        t = Txn(session)
                        if ok:
                            t.statements.append((sql, render(cur)))
                        elif unique_violation:
                            t.statements.append((sql, "ERROR 23505"))
                        t.committed = ok
                        txns.append(t)
                for conn in conns.values():
                    conn.close()
                final = render(admin.execute("SELECT * FROM test"))
                self.assertTrue(judge(txns, final), "%s under %s: not serializable" % (name, cc))

    def test_occ(self):
        self.run_cases("occ")

    def test_2pl_no_wait(self):
        self.run_cases("2pl")


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
