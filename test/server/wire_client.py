"""A raw PostgreSQL protocol v3 client for the server tests that build
frames by hand (bad_input_test.py, login_limits_test.py): start-up,
messages, queries, reading replies; and helpers to decode what comes
back. Every Client's socket is kept in OPEN so a test's tearDown can close
what the test left open; KvServerTest is the fixture both files share."""
import os
import socket
import struct
import sys
import unittest

from server_process import ServerProcess

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "script"))
from memory_burst import rss_kb  # noqa: E402,F401  (re-exported for the tests)

TIMEOUT = 20

OPEN = []  # every client socket, closed after each test


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buf = b""
        OPEN.append(self)

    def send(self, data):
        self.sock.sendall(data)

    def msg(self, kind, body=b""):
        self.send(kind + struct.pack("!i", len(body) + 4) + body)

    def startup_packet(self, params, version=196608):
        body = struct.pack("!i", version)
        for k, v in params.items():
            body += k.encode() + b"\0" + v.encode() + b"\0"
        body += b"\0"
        self.send(struct.pack("!i", len(body) + 4) + body)

    def _fill(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                return False
            self.buf += chunk
        return True

    def read(self):
        """(type, body), or None at end of stream."""
        if not self._fill(5):
            return None
        kind = self.buf[0:1]
        length = struct.unpack("!i", self.buf[1:5])[0]
        if not self._fill(1 + length):
            return None
        body = self.buf[5:1 + length]
        self.buf = self.buf[1 + length:]
        return kind, body

    def read_until(self, kind):
        got = []
        while True:
            m = self.read()
            if m is None:
                return got
            got.append(m)
            if m[0] == kind:
                return got

    def eof(self):
        """True when the server closed the connection (after what it sent)."""
        while True:
            m = self.read()
            if m is None:
                return True

    def connect(self, user="tester", database="paceline"):
        self.startup_packet({"user": user, "database": database})
        msgs = self.read_until(b"Z")
        assert msgs and msgs[-1] == (b"Z", b"I"), msgs
        return msgs

    def query(self, sql):
        self.msg(b"Q", sql.encode() + b"\0")
        return self.read_until(b"Z")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def fields(body):
    out = {}
    for part in body.split(b"\0"):
        if part:
            out[chr(part[0])] = part[1:].decode()
    return out


def cstr(s):
    return s.encode() + b"\0"


def data_rows(msgs):
    """The DataRow messages of `msgs` as tuples of str (None for NULL)."""
    rows = []
    for kind, body in msgs:
        if kind != b"D":
            continue
        count = struct.unpack("!h", body[:2])[0]
        at, row = 2, []
        for _ in range(count):
            length = struct.unpack("!i", body[at:at + 4])[0]
            at += 4
            if length < 0:
                row.append(None)
            else:
                row.append(body[at:at + length].decode())
                at += length
        rows.append(tuple(row))
    return rows


class KvServerTest(unittest.TestCase):
    """One paceline-server for the test class, started with server_args()
    (the binary first), with a table kv (k INT PRIMARY KEY, v INT); every
    client socket a test opened is closed after it."""

    @classmethod
    def server_args(cls):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(*cls.server_args()).start()
        c = cls.client()
        c.connect()
        c.query("CREATE TABLE kv (k INT PRIMARY KEY, v INT)")
        OPEN.remove(c)
        c.close()

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    @classmethod
    def client(cls):
        return Client(cls.server.port)

    def tearDown(self):
        while OPEN:
            OPEN.pop().close()
