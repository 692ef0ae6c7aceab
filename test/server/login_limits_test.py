#!/usr/bin/env python3
"""paceline-server's limits before login and on idle transactions, against
hand-built protocol frames: the authentication timeout, bounded messages
before login, buffers that grow only with what arrives, a separate limit
for connections still logging in, and the idle-in-transaction timeout
(FATAL 25P03, the block rolled back). Also: --auth=trust is refused unless
--listen is loopback. Run by ctest with the server binary as the only
argument."""
import os
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_process import ServerProcess  # noqa: E402
from wire_client import TIMEOUT, Client, KvServerTest, data_rows, fields, rss_kb  # noqa: E402

BINARY = None


class BeforeLoginTest(KvServerTest):
    """Limits before authentication and on idle transactions: a socket that
    never logs in is closed after --authentication-timeout and never takes
    the place of an authenticated client; messages before login are bounded
    to a few KB; a large announced message costs only the bytes that arrive;
    a block left idle past --idle-in-transaction-timeout ends with FATAL
    25P03 and is rolled back."""

    @classmethod
    def server_args(cls):
        return (BINARY, "--workers=1", "--max-connections=3", "--max-authenticating=8", "--authentication-timeout=1",
                "--idle-in-transaction-timeout=300")

    def test_silent_sockets_never_lock_authenticated_clients_out(self):
        # As many silent sockets as --max-connections: authenticated clients
        # still get every place.
        silent = [Client(self.server.port) for _ in range(3)]
        clients = [Client(self.server.port) for _ in range(3)]
        for c in clients:
            c.connect()
            self.assertEqual(c.query("SELECT 1")[-1], (b"Z", b"I"))
        # Each silent socket is told why and closed once its time is up.
        for c in silent:
            m = c.read()
            self.assertIsNotNone(m)
            self.assertEqual(m[0], b"E", m)
            f = fields(m[1])
            self.assertEqual((f["S"], f["C"]), ("FATAL", "57014"), f)
            self.assertEqual(f["M"], "canceling authentication due to timeout")
            self.assertTrue(c.eof())
        for c in clients:  # untouched by the timeouts
            self.assertEqual(c.query("SELECT 2")[-1], (b"Z", b"I"))

    def test_a_half_sent_startup_packet_times_out_too(self):
        c = Client(self.server.port)
        c.send(struct.pack("!i", 200) + struct.pack("!i", 196608) + b"user\0")  # and never the rest
        m = c.read()
        self.assertEqual(fields(m[1])["C"], "57014", m)
        self.assertTrue(c.eof())

    def test_messages_before_login_are_bounded(self):
        server = ServerProcess(BINARY, "--workers=1", "--auth=scram-sha-256",
                               "--password-file=" + self.password_file()).start()
        try:
            c = Client(server.port)
            c.startup_packet({"user": "tester", "database": "paceline"})
            m = c.read()
            self.assertEqual(m[0], b"R")  # AuthenticationSASL
            c.send(b"p" + struct.pack("!i", 63 << 20))  # a 63 MB SASLInitialResponse announced
            m = c.read()
            f = fields(m[1])
            self.assertEqual((f["S"], f["C"]), ("FATAL", "08P01"), f)
            self.assertTrue(c.eof())
        finally:
            code, err = server.stop()
            self.assertEqual(code, 0, err)

    def password_file(self):
        import tempfile
        f = tempfile.NamedTemporaryFile("w", suffix=".pw", delete=False)
        f.write("tester:secret\n")
        f.close()
        os.chmod(f.name, 0o600)
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_announced_but_unsent_messages_cost_only_what_arrives(self):
        server = ServerProcess(BINARY, "--workers=1").start()
        self.addCleanup(server.stop)
        before = rss_kb(server.proc.pid)
        clients = []
        for _ in range(3):
            c = Client(server.port)
            c.connect()
            c.send(b"Q" + struct.pack("!i", 60 << 20) + b"SELECT ")  # 60 MB announced, 7 bytes sent
            clients.append(c)
        # The readers take the headers as soon as they arrive (allocating
        # 180 MB if they believed the lengths); the growth is sampled while
        # another client keeps the server busy with round trips.
        probe = Client(server.port)
        probe.connect()
        grown = 0
        for i in range(50):
            self.assertEqual(probe.query("SELECT %d" % i)[-1], (b"Z", b"I"))
            grown = max(grown, rss_kb(server.proc.pid) - before)
        self.assertLess(grown, 8 * 1024, "server grew by %d KB for 3 announced 60 MB messages" % grown)

    def test_idle_in_transaction_ends_the_session_and_rolls_back(self):
        idle_outside = Client(self.server.port)
        idle_outside.connect()
        c = Client(self.server.port)
        c.connect()
        c.query("BEGIN")
        self.assertEqual(c.query("INSERT INTO kv VALUES (7, 7)")[-1], (b"Z", b"T"))
        m = c.read()  # nothing more is sent: the server ends it
        f = fields(m[1])
        self.assertEqual((f["S"], f["C"]), ("FATAL", "25P03"), f)
        self.assertTrue(c.eof())
        rows = data_rows(idle_outside.query("SELECT count(*) FROM kv WHERE k = 7"))
        self.assertEqual(rows, [("0",)])  # rolled back; and a session idle outside a block stays
        d = Client(self.server.port)
        d.connect()
        self.assertEqual(d.query("INSERT INTO kv VALUES (7, 8)")[-1], (b"Z", b"I"))  # its key is free


class TrustNeedsLoopbackTest(unittest.TestCase):
    """--auth=trust (the default) lets anyone in as any user: paceline-server
    refuses it, before opening anything, unless --listen is a loopback
    address."""

    def start(self, *args):
        return subprocess.run([BINARY, "--port=0", "--workers=1", *args], capture_output=True, text=True,
                              timeout=TIMEOUT)

    def test_trust_refused_on_other_addresses(self):
        for listen in ("0.0.0.0", "192.0.2.1", "::", "2001:db8::1", "::ffff:10.0.0.1"):
            for auth in ([], ["--auth=trust"]):
                with self.subTest(listen=listen, auth=auth):
                    p = self.start(f"--listen={listen}", *auth)
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertEqual(p.stdout, "")
                    self.assertIn(f"--auth=trust is refused with --listen={listen}", p.stderr)
                    self.assertIn("not a loopback address", p.stderr)

    def test_trust_allowed_on_loopback_and_other_auth_anywhere(self):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"paceline-passwords-{os.getpid()}")
        with open(path, "w") as f:
            f.write("tester:secret\n")
        self.addCleanup(os.remove, path)
        for args in (["--listen=127.0.0.2"], ["--listen=::ffff:127.0.0.1"],
                     ["--listen=0.0.0.0", "--auth=scram-sha-256", f"--password-file={path}"]):
            with self.subTest(args=args):
                server = ServerProcess(BINARY, "--workers=1", *args)
                try:
                    server.start()
                except RuntimeError as e:
                    if "::ffff" in args[0] and "could not listen" in str(e):
                        continue  # no IPv6 on this machine: the address was accepted, the socket was not
                    raise
                code, err = server.stop()
                self.assertEqual(code, 0, err)

    def test_help_documents_it(self):
        p = subprocess.run([BINARY, "--help"], capture_output=True, text=True, timeout=TIMEOUT)
        self.assertIn("only with a loopback --listen address", " ".join((p.stdout + p.stderr).split()))


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
