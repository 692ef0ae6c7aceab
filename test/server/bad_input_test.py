#!/usr/bin/env python3
"""paceline-server against hand-built protocol frames over raw sockets:
malformed start-up packets, an oversize length (08P01 and close, without
the body being read), a truncated message, an unknown message type, an
abrupt disconnect inside a BEGIN block (rolled back: another connection sees
nothing of it), too many connections (53300), SSL/GSSENC requests, protocol
3.2 negotiation, CancelRequest, and extended-protocol edge cases (skip to
Sync after an error, PortalSuspended, Describe, Close, duplicate names,
Flush before Sync, a Parse of two statements, a Query after unsynced
messages), COPY FROM STDIN (CopyFail, rows split across CopyData messages,
a line over the message limit); a normal client keeps working throughout.
Limits before login and --auth=trust are login_limits_test.py's. Run by
ctest with the server binary as the only argument."""
import os
import socket
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402
from wire_client import TIMEOUT, Client, KvServerTest, cstr, data_rows, fields  # noqa: E402

BINARY = None


class BadInputTest(KvServerTest):
    @classmethod
    def server_args(cls):
        return (BINARY, "--workers=2", "--max-message-mb=1")

    def tearDown(self):
        super().tearDown()
        # A normal client keeps working whatever the last test did.
        p = subprocess.run(["psql", "-X", "-At", "-c", "SELECT 40 + 2"], capture_output=True, text=True,
                           env=self.server.env(), timeout=TIMEOUT)
        self.assertEqual(p.stdout, "42\n", p.stderr)

    def assertFatal(self, c, code):
        m = c.read()
        self.assertIsNotNone(m)
        self.assertEqual(m[0], b"E", m)
        f = fields(m[1])
        self.assertEqual(f["S"], "FATAL", f)
        self.assertEqual(f["C"], code, f)
        self.assertTrue(c.eof())
        return f

    def test_startup_length_too_small(self):
        c = self.client()
        c.send(struct.pack("!ii", 4, 196608))
        self.assertFatal(c, "08P01")

    def test_startup_length_too_large(self):
        c = self.client()
        c.send(struct.pack("!ii", 1 << 30, 196608))
        self.assertFatal(c, "08P01")

    def test_startup_without_terminator(self):
        c = self.client()
        body = struct.pack("!i", 196608) + b"user\0tester"  # no NULs to end it
        c.send(struct.pack("!i", len(body) + 4) + body)
        self.assertFatal(c, "08P01")

    def test_unsupported_protocol_version(self):
        c = self.client()
        c.startup_packet({"user": "tester"}, version=2 << 16)
        self.assertFatal(c, "0A000")

    def test_ssl_and_gssenc_requests_answered_n(self):
        for code in (80877103, 80877104):
            c = self.client()
            c.send(struct.pack("!ii", 8, code))
            self.assertEqual(c.sock.recv(1), b"N")
            c.connect()
            self.assertEqual(c.query("SELECT 1")[-1], (b"Z", b"I"))
            c.close()

    def test_protocol_32_negotiated_down(self):
        c = self.client()
        c.startup_packet({"user": "tester", "database": "paceline", "_pq_.foo": "x"}, version=(3 << 16) | 2)
        msgs = c.read_until(b"Z")
        self.assertEqual(msgs[0][0], b"v")
        newest, count = struct.unpack("!ii", msgs[0][1][:8])
        self.assertEqual((newest, count), (196608, 1))
        self.assertIn(b"_pq_.foo", msgs[0][1])
        self.assertEqual(msgs[1], (b"R", struct.pack("!i", 0)))
        c.close()

    def test_startup_parameters_and_key(self):
        c = self.client()
        msgs = c.connect()
        status = {}
        for kind, body in msgs:
            if kind == b"S":
                name, value = body.split(b"\0")[:2]
                status[name.decode()] = value.decode()
        self.assertTrue(status["server_version"].startswith("15."))
        self.assertEqual(status["client_encoding"], "UTF8")
        self.assertEqual(status["session_authorization"], "tester")
        self.assertEqual(status["integer_datetimes"], "on")
        self.assertIn(b"K", [k for k, _ in msgs])
        c.close()

    def test_cancel_request_closed_without_reply(self):
        victim = self.client()
        msgs = victim.connect()
        key = [b for k, b in msgs if k == b"K"][0]
        c = self.client()
        c.send(struct.pack("!ii", 16, 80877102) + key)
        self.assertEqual(c.sock.recv(1), b"")  # closed, nothing sent
        self.assertEqual(victim.query("SELECT 1")[-1], (b"Z", b"I"))
        victim.close()

    def test_unknown_database(self):
        c = self.client()
        c.startup_packet({"user": "tester", "database": "nope"})
        self.assertEqual(c.read(), (b"R", struct.pack("!i", 0)))
        f = self.assertFatal(c, "3D000")
        self.assertIn('database "nope" does not exist', f["M"])

    def test_oversize_message(self):
        c = self.client()
        c.connect()
        c.send(b"Q" + struct.pack("!i", 0x7FFFFFF0))  # only the header: the body is never sent
        f = self.assertFatal(c, "08P01")
        self.assertIn("exceeds the limit", f["M"])

    def test_bad_message_length(self):
        c = self.client()
        c.connect()
        c.send(b"Q" + struct.pack("!i", 2))
        self.assertFatal(c, "08P01")

    def test_truncated_message_then_close(self):
        c = self.client()
        c.connect()
        c.send(b"Q" + struct.pack("!i", 100) + b"SELECT")
        c.sock.shutdown(socket.SHUT_WR)
        self.assertTrue(c.eof())

    def test_unknown_message_type(self):
        c = self.client()
        c.connect()
        c.msg(b"?", b"")
        f = self.assertFatal(c, "08P01")
        self.assertEqual(f["M"], "invalid frontend message type 63")

    def test_malformed_bind(self):
        c = self.client()
        c.connect()
        c.msg(b"P", cstr("") + cstr("SELECT $1::int") + struct.pack("!h", 0))
        c.msg(b"B", cstr("") + cstr("") + struct.pack("!h", 0) + struct.pack("!h", 1) + struct.pack("!i", 50) + b"12")
        c.msg(b"S")
        msgs = c.read_until(b"Z")
        kinds = [k for k, _ in msgs]
        self.assertEqual(kinds, [b"1", b"E", b"Z"])
        self.assertEqual(fields(msgs[1][1])["C"], "08P01")
        self.assertEqual(c.query("SELECT 1")[-1], (b"Z", b"I"))
        c.close()

    def test_one_statement_query_after_unsynced_pipeline_ends_its_implicit_block(self):
        # Parse/Bind/Execute without Sync open an implicit block; a Query
        # of one statement then runs in it and ends it, as in PostgreSQL:
        # committed with it (ReadyForQuery 'I', the row visible to another
        # connection), or rolled back with its error. Excluded: a block
        # left open after the Query (ReadyForQuery 'T', the INSERT unseen).
        c = self.client()
        c.connect()
        for k, query, code in ((150, "SELECT 7", None), (151, "SELECT 1/0", "22012")):
            c.msg(b"P", cstr("") + cstr("INSERT INTO kv VALUES (%d, 1)" % k) + struct.pack("!h", 0))
            c.msg(b"B", cstr("") + cstr("") + struct.pack("!hhh", 0, 0, 0))
            c.msg(b"E", cstr("") + struct.pack("!i", 0))
            msgs = c.query(query)
            kinds = [m[0] for m in msgs]
            self.assertEqual(kinds[:3], [b"1", b"2", b"C"], msgs)
            if code is None:
                self.assertEqual(kinds[3:], [b"T", b"D", b"C", b"Z"], msgs)
            else:
                self.assertEqual(kinds[3:], [b"E", b"Z"], msgs)
                self.assertEqual(fields(msgs[3][1])["C"], code)
            self.assertEqual(msgs[-1], (b"Z", b"I"))
            c.msg(b"S")
            self.assertEqual(c.read_until(b"Z"), [(b"Z", b"I")])
        other = self.client()
        other.connect()
        self.assertEqual(data_rows(other.query("SELECT k FROM kv WHERE k >= 150 AND k < 160 ORDER BY k")), [("150",)])
        c.close()
        other.close()

    def test_malformed_bind_reports_what_comes_before_where_it_stops(self):
        # A Bind is read in order: an unknown statement, a wrong count or a
        # bad value before the point where the message ends is the error.
        c = self.client()
        c.connect()
        c.msg(b"P", cstr("two") + cstr("SELECT $1::int + $2::int") + struct.pack("!h", 0))
        c.msg(b"S")
        c.read_until(b"Z")
        cases = [
            (cstr("") + cstr("nope") + struct.pack("!hh", 0, 2) + struct.pack("!i", 50), "26000", None),
            (cstr("") + cstr("two") + struct.pack("!hh", 0, 1) + struct.pack("!i", 50), "08P01",
             'bind message supplies 1 parameters, but prepared statement "two" requires 2'),
            (cstr("") + cstr("two") + struct.pack("!hh", 0, 2) + struct.pack("!i", 1) + b"x" +
             struct.pack("!i", 50), "22P02", None),
            (cstr("") + cstr("two") + struct.pack("!hh", 0, 2) + struct.pack("!i", 1) + b"1" +
             struct.pack("!i", 50), "08P01", None),
            (cstr("") + cstr("two") + struct.pack("!hh", 0, 2) + struct.pack("!i", 1) + b"1" +
             struct.pack("!i", 1) + b"2" + struct.pack("!hh", 2, 5), "08P01", "unsupported format code: 5"),
        ]
        for body, code, message in cases:
            c.msg(b"B", body)
            c.msg(b"S")
            msgs = c.read_until(b"Z")
            self.assertEqual([k for k, _ in msgs], [b"E", b"Z"], body)
            f = fields(msgs[0][1])
            self.assertEqual(f["C"], code, (body, f))
            if message is not None:
                self.assertEqual(f["M"], message)
        c.close()

    def test_query_after_unsynced_pipeline_runs_in_its_implicit_block(self):
        # Parse/Bind/Execute without Sync, then a Query of several
        # statements: the pipeline's statements run first, in one implicit
        # block that the Query joins and ends (committed with it, or rolled
        # back with its error), as in PostgreSQL.
        c = self.client()
        c.connect()
        for k, query, code in ((500, "SELECT 7; SELECT 8", None), (501, "SELECT 7; SELECT 1/0", "22012")):
            c.msg(b"P", cstr("") + cstr("INSERT INTO kv VALUES (%d, 1)" % k) + struct.pack("!h", 0))
            c.msg(b"B", cstr("") + cstr("") + struct.pack("!hhh", 0, 0, 0))
            c.msg(b"E", cstr("") + struct.pack("!i", 0))
            msgs = c.query(query)
            kinds = [m[0] for m in msgs]
            self.assertEqual(kinds[:6], [b"1", b"2", b"C", b"T", b"D", b"C"], msgs)
            if code is None:
                self.assertEqual(kinds[6:], [b"T", b"D", b"C", b"Z"])
            else:
                self.assertEqual(kinds[6:], [b"E", b"Z"])
                self.assertEqual(fields(msgs[6][1])["C"], code)
            self.assertEqual(msgs[-1], (b"Z", b"I"))
            c.msg(b"S")
            self.assertEqual(c.read_until(b"Z"), [(b"Z", b"I")])
        other = self.client()
        other.connect()
        msgs = other.query("SELECT k FROM kv WHERE k >= 500 ORDER BY k")
        self.assertEqual(data_rows(msgs), [("500",)])
        c.close()
        other.close()

    def test_disconnect_inside_block_rolls_back(self):
        a = self.client()
        a.connect()
        self.assertEqual(a.query("BEGIN")[-1], (b"Z", b"T"))
        self.assertEqual(a.query("INSERT INTO kv VALUES (100, 1)")[-1], (b"Z", b"T"))
        a.sock.close()  # no Terminate, no COMMIT
        b = self.client()
        b.connect()
        self.assertIn(b"SELECT 0", b"".join(body for _, body in b.query("SELECT * FROM kv WHERE k = 100")))
        # The key is free again once the server has noticed (bounded wait).
        for _ in range(1000):
            msgs = b.query("INSERT INTO kv VALUES (100, 2)")
            if msgs[0][0] == b"C":
                break
        self.assertEqual(msgs[0], (b"C", b"INSERT 0 1\0"))
        rows = [body for k, body in b.query("SELECT v FROM kv WHERE k = 100") if k == b"D"]
        self.assertEqual(rows, [struct.pack("!hi", 1, 1) + b"2"])
        b.close()

    def test_too_many_connections(self):
        server = ServerProcess(BINARY, "--workers=1", "--max-connections=2").start()
        try:
            first, second = Client(server.port), Client(server.port)
            first.connect()
            second.connect()
            third = Client(server.port)
            third.startup_packet({"user": "tester", "database": "paceline"})
            f = self.assertFatal(third, "53300")
            self.assertEqual(f["M"], "sorry, too many clients already")
            first.msg(b"X")
            self.assertTrue(first.eof())
            # A slot frees once the server has seen the Terminate (bounded).
            for _ in range(1000):
                c = Client(server.port)
                c.startup_packet({"user": "tester", "database": "paceline"})
                m = c.read()
                if m[0] == b"R":
                    c.read_until(b"Z")
                    self.assertEqual(c.query("SELECT 1")[-1], (b"Z", b"I"))
                    break
                c.close()
            else:
                self.fail("no connection slot freed")
            self.assertEqual(second.query("SELECT 1")[-1], (b"Z", b"I"))
        finally:
            code, err = server.stop()
            self.assertEqual(code, 0, err)

    def test_sigterm_closes_connections_with_57p01(self):
        server = ServerProcess(BINARY, "--workers=1").start()
        idle, busy = Client(server.port), Client(server.port)
        idle.connect()
        busy.connect()
        self.assertEqual(busy.query("BEGIN")[-1], (b"Z", b"T"))
        server.proc.send_signal(15)
        for c in (idle, busy):
            f = self.assertFatal(c, "57P01")
            self.assertIn("administrator command", f["M"])
        self.assertEqual(server.proc.wait(timeout=30), 0)
        server.stop()

    def test_error_mid_batch_skips_to_sync(self):
        c = self.client()
        c.connect()
        c.msg(b"P", cstr("") + cstr("SELECT 1/0") + struct.pack("!h", 0))
        c.msg(b"B", cstr("") + cstr("") + struct.pack("!hhh", 0, 0, 0))
        c.msg(b"E", cstr("") + struct.pack("!i", 0))
        c.msg(b"P", cstr("") + cstr("SELECT 2") + struct.pack("!h", 0))
        c.msg(b"B", cstr("") + cstr("") + struct.pack("!hhh", 0, 0, 0))
        c.msg(b"E", cstr("") + struct.pack("!i", 0))
        c.msg(b"S")
        kinds = [k for k, _ in c.read_until(b"Z")]
        self.assertEqual(kinds, [b"1", b"2", b"E", b"Z"])
        c.close()

    def test_pipeline_error_rolls_back_batch(self):
        c = self.client()
        c.connect()
        for sql in ("INSERT INTO kv VALUES (200, 1)", "SELECT 1/0", "INSERT INTO kv VALUES (201, 1)"):
            c.msg(b"P", cstr("") + cstr(sql) + struct.pack("!h", 0))
            c.msg(b"B", cstr("") + cstr("") + struct.pack("!hhh", 0, 0, 0))
            c.msg(b"D", b"P" + cstr(""))
            c.msg(b"E", cstr("") + struct.pack("!i", 0))
        c.msg(b"S")
        kinds = [k for k, _ in c.read_until(b"Z")]
        self.assertEqual(kinds[:4], [b"1", b"2", b"n", b"C"])
        self.assertIn(b"E", kinds)
        msgs = c.query("SELECT count(*) FROM kv WHERE k >= 200")
        self.assertIn((b"D", struct.pack("!hi", 1, 1) + b"0"), msgs)
        c.close()

    def pipeline(self, c, statements):
        for sql, params in statements:
            c.msg(b"P", cstr("") + cstr(sql) + struct.pack("!h", 0))
            body = cstr("") + cstr("") + struct.pack("!hh", 0, len(params))
            for p in params:
                body += struct.pack("!i", len(p)) + p.encode()
            c.msg(b"B", body + struct.pack("!h", 0))
            c.msg(b"D", b"P" + cstr(""))
            c.msg(b"E", cstr("") + struct.pack("!i", 0))
        c.msg(b"S")
        return c.read_until(b"Z")

    def test_pipeline_replies_in_order(self):
        c = self.client()
        c.connect()
        msgs = self.pipeline(c, [("BEGIN", []), ("INSERT INTO kv VALUES ($1, $2)", ["300", "1"]),
                                 ("SELECT v FROM kv WHERE k = $1", ["300"]),
                                 ("UPDATE kv SET v = v + $1 WHERE k = $2", ["5", "300"]), ("COMMIT", [])])
        tags = [body for k, body in msgs if k == b"C"]
        self.assertEqual(tags, [b"BEGIN\0", b"INSERT 0 1\0", b"SELECT 1\0", b"UPDATE 1\0", b"COMMIT\0"])
        self.assertIn((b"D", struct.pack("!hi", 1, 1) + b"1"), msgs)
        self.assertEqual(msgs[-1], (b"Z", b"I"))
        # An error inside a pipelined BEGIN ... COMMIT: nothing stays, and the
        # client is in a failed block until ROLLBACK.
        msgs = self.pipeline(c, [("BEGIN", []), ("UPDATE kv SET v = 100 WHERE k = $1", ["300"]),
                                 ("INSERT INTO kv VALUES ($1, $2)", ["300", "1"]), ("COMMIT", [])])
        self.assertEqual(fields([b for k, b in msgs if k == b"E"][0])["C"], "23505")
        self.assertEqual(msgs[-1], (b"Z", b"E"))
        msgs = c.query("SELECT 1")
        self.assertEqual(fields(msgs[0][1])["C"], "25P02")
        msgs = c.query("COMMIT")
        self.assertEqual(msgs, [(b"C", b"ROLLBACK\0"), (b"Z", b"I")])
        msgs = c.query("SELECT v FROM kv WHERE k = 300")
        self.assertIn((b"D", struct.pack("!hi", 1, 1) + b"6"), msgs)
        c.close()

    def test_portal_suspended_and_describe_close(self):
        c = self.client()
        c.connect()
        c.query("CREATE TABLE five (n INT); INSERT INTO five VALUES (1), (2), (3), (4), (5)")
        c.msg(b"P", cstr("s1") + cstr("SELECT n FROM five WHERE n > $1 ORDER BY n") + struct.pack("!h", 0))
        c.msg(b"D", b"S" + cstr("s1"))
        c.msg(b"S")
        msgs = c.read_until(b"Z")
        self.assertEqual([k for k, _ in msgs], [b"1", b"t", b"T", b"Z"])
        self.assertEqual(msgs[1][1], struct.pack("!hi", 1, 23))
        c.msg(b"P", cstr("s1") + cstr("SELECT 1") + struct.pack("!h", 0))
        c.msg(b"S")
        msgs = c.read_until(b"Z")
        self.assertEqual(fields(msgs[0][1])["C"], "42P05")
        c.query("BEGIN")
        c.msg(b"B", cstr("p1") + cstr("s1") + struct.pack("!hh", 0, 1) + struct.pack("!i", 1) + b"1" +
              struct.pack("!h", 0))
        for _ in range(3):
            c.msg(b"E", cstr("p1") + struct.pack("!i", 2))
        c.msg(b"C", b"S" + cstr("s1"))
        c.msg(b"C", b"P" + cstr("nonexistent"))
        c.msg(b"S")
        kinds = [k for k, _ in c.read_until(b"Z")]
        self.assertEqual(kinds, [b"2", b"D", b"D", b"s", b"D", b"D", b"s", b"C", b"3", b"3", b"Z"])
        c.query("COMMIT")
        c.msg(b"B", cstr("") + cstr("s1") + struct.pack("!hhh", 0, 0, 0))
        c.msg(b"S")
        msgs = c.read_until(b"Z")
        self.assertEqual(fields(msgs[0][1])["C"], "26000")
        c.close()

    # ------------------------------------------------------------ COPY FROM STDIN

    def copy_in(self, c, sql):
        c.msg(b"Q", cstr(sql))
        m = c.read()
        self.assertIsNotNone(m)
        self.assertEqual(m[0], b"G", m)  # CopyInResponse

    def test_copy_fail_rolls_the_copy_back(self):
        c = self.client()
        c.connect()
        c.query("CREATE TABLE copy_fail (a INT, b TEXT)")
        self.copy_in(c, "COPY copy_fail FROM STDIN")
        c.msg(b"d", b"1\tone\n2\ttwo\n")  # two whole rows, loaded before the CopyFail
        c.msg(b"f", cstr("the client gave up"))
        msgs = c.read_until(b"Z")
        self.assertEqual([k for k, _ in msgs], [b"E", b"Z"])
        f = fields(msgs[0][1])
        self.assertEqual(f["C"], "57014")
        self.assertIn("the client gave up", f["M"])
        self.assertEqual(msgs[-1], (b"Z", b"I"))
        self.assertEqual(data_rows(c.query("SELECT count(*) FROM copy_fail")), [("0",)])
        # Inside a block, the CopyFail fails the block, as any error does.
        c.query("BEGIN")
        c.query("INSERT INTO copy_fail VALUES (0, 'before')")
        self.copy_in(c, "COPY copy_fail FROM STDIN")
        c.msg(b"d", b"3\tthree\n")
        c.msg(b"f", cstr("again"))
        msgs = c.read_until(b"Z")
        self.assertEqual(fields(msgs[0][1])["C"], "57014")
        self.assertEqual(msgs[-1], (b"Z", b"E"))
        self.assertEqual(c.query("ROLLBACK")[-1], (b"Z", b"I"))
        self.assertEqual(data_rows(c.query("SELECT count(*) FROM copy_fail")), [("0",)])
        c.close()

    def test_copy_rows_split_across_copydata_messages(self):
        c = self.client()
        c.connect()
        c.query("CREATE TABLE copy_split (a INT, b TEXT, c TEXT)")
        self.copy_in(c, "COPY copy_split FROM STDIN")
        # A row cut inside a field, a delimiter at a cut, an escape cut in
        # two, a UTF-8 character cut between its bytes, and a last line
        # without its newline (ended by CopyDone).
        for part in (b"1\tfir", b"st\t\\N\n2", b"\tsec", b"ond\tx\\", b"ty\n", b"3\tcaf\xc3", b"\xa9\t",
                     b"z\n4\tlast\tno newline"):
            c.msg(b"d", part)
        c.msg(b"c")
        msgs = c.read_until(b"Z")
        self.assertEqual(msgs[0], (b"C", b"COPY 4\0"))
        self.assertEqual(msgs[-1], (b"Z", b"I"))
        self.assertEqual(data_rows(c.query("SELECT a, b, c FROM copy_split ORDER BY a")),
                         [("1", "first", None), ("2", "second", "x\ty"), ("3", "caf\u00e9", "z"),
                          ("4", "last", "no newline")])
        c.close()

    def test_copy_line_longer_than_the_message_limit(self):
        # The server runs with --max-message-mb=1: every CopyData message is
        # within it, but the line they add up to is not.
        c = self.client()
        c.connect()
        c.query("CREATE TABLE copy_long (a INT, b TEXT)")
        self.copy_in(c, "COPY copy_long FROM STDIN")
        c.msg(b"d", b"1\tshort\n2\t")
        chunk = b"x" * (600 * 1024)
        for _ in range(2):
            c.msg(b"d", chunk)
        msgs = c.read_until(b"Z")
        self.assertEqual([k for k, _ in msgs], [b"E", b"Z"])
        f = fields(msgs[0][1])
        self.assertEqual(f["C"], "54000")
        self.assertIn("COPY line exceeds the limit of 1048576 bytes", f["M"])
        self.assertIn("line 2", f["M"])
        # The client's remaining COPY messages are dropped; the connection
        # goes on, and nothing of the COPY stayed.
        c.msg(b"d", chunk)
        c.msg(b"c")
        self.assertEqual(data_rows(c.query("SELECT count(*) FROM copy_long")), [("0",)])
        c.close()

    # ------------------------------------------------------------ extended query

    def test_parse_of_two_statements_is_42601(self):
        c = self.client()
        c.connect()
        for name in ("", "two"):
            c.msg(b"P", cstr(name) + cstr("INSERT INTO kv VALUES (600, 1); INSERT INTO kv VALUES (601, 1)") +
                  struct.pack("!h", 0))
            c.msg(b"B", cstr("") + cstr(name) + struct.pack("!hhh", 0, 0, 0))
            c.msg(b"E", cstr("") + struct.pack("!i", 0))
            c.msg(b"S")
            msgs = c.read_until(b"Z")
            self.assertEqual([k for k, _ in msgs], [b"E", b"Z"])  # Bind and Execute skipped to Sync
            f = fields(msgs[0][1])
            self.assertEqual(f["C"], "42601")
            self.assertEqual(f["M"], "cannot insert multiple commands into a prepared statement")
        self.assertEqual(data_rows(c.query("SELECT count(*) FROM kv WHERE k >= 600 AND k < 700")), [("0",)])
        c.close()

    def test_flush_delivers_results_before_sync(self):
        c = self.client()
        c.connect()
        c.query("CREATE TABLE flushed (k INT PRIMARY KEY, v INT)")
        c.sock.settimeout(5)  # a Flush that delivers nothing would hang the reads below
        c.msg(b"P", cstr("") + cstr("SELECT 42") + struct.pack("!h", 0))
        c.msg(b"B", cstr("") + cstr("") + struct.pack("!hhh", 0, 0, 0))
        c.msg(b"E", cstr("") + struct.pack("!i", 0))
        c.msg(b"H")
        msgs = c.read_until(b"C")
        self.assertEqual([k for k, _ in msgs], [b"1", b"2", b"D", b"C"])
        self.assertEqual(data_rows(msgs), [("42",)])
        # The same in the middle of a batch: each Flush delivers what ran.
        c.msg(b"P", cstr("") + cstr("INSERT INTO flushed VALUES ($1, 7)") + struct.pack("!h", 0))
        c.msg(b"B", cstr("") + cstr("") + struct.pack("!hh", 0, 1) + struct.pack("!i", 3) + b"700" +
              struct.pack("!h", 0))
        c.msg(b"E", cstr("") + struct.pack("!i", 0))
        c.msg(b"H")
        msgs = c.read_until(b"C")
        self.assertEqual([k for k, _ in msgs], [b"1", b"2", b"C"])
        self.assertEqual(msgs[-1][1], b"INSERT 0 1\0")
        c.msg(b"S")
        self.assertEqual(c.read_until(b"Z"), [(b"Z", b"I")])
        self.assertEqual(data_rows(c.query("SELECT v FROM flushed WHERE k = 700")), [("7",)])
        c.close()


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
