"""A recording proxy for the PostgreSQL wire protocol (version 3), used by
capture_sqlalchemy.py: clients connect to it, it forwards every byte to the
real server unchanged, and it records each statement a client executes,
in the order the server received them, with what the server answered.

A statement is one of
  - a simple Query message ('Q'): its text; the answer is the rows, command
    tags or error of the whole message (psycopg sends BEGIN, COMMIT and
    ROLLBACK this way);
  - an extended-protocol Execute ('E') of a portal: the text of the Parse
    the portal was bound from, the parameter type OIDs of that Parse, and the
    parameter values and formats of its Bind; the answer is the rows and the
    command tag, or the error.
Executes the server skipped after an error (until the next Sync) never ran
and are not recorded.

Only what a test needs is decoded: no SSL or GSSAPI (the client must connect
with sslmode=disable and gssencmode=disable), no COPY."""
import itertools
import socket
import struct
import threading


class Statement:
    """One statement as the server ran it."""

    def __init__(self, seq, conn, protocol, sql, param_types=(), params=(), param_formats=()):
        self.seq = seq                    # global order of arrival at the server
        self.conn = conn                  # 1, 2, ... in connection order
        self.protocol = protocol          # "simple" | "extended"
        self.sql = sql                    # str
        self.param_types = list(param_types)      # OIDs (0: unspecified); as many as params
        self.params = list(params)                # bytes or None
        self.param_formats = list(param_formats)  # 0 text, 1 binary; as many as params
        self.columns = None               # [(name, type oid)] of the (last) row description
        self.rows = []                    # [[bytes or None]] (text format)
        self.result_formats = []
        self.tags = []                    # command tags (one per statement of a simple query)
        self.error = None                 # (sqlstate, message)
        self.done = False


def _cstring(data, pos):
    end = data.index(b"\0", pos)
    return data[pos:end].decode(), end + 1


class _Connection:
    def __init__(self, recorder, client, conn_id):
        self.recorder = recorder
        self.client = client
        self.conn_id = conn_id
        if isinstance(recorder.upstream, str):  # a Unix-domain socket's path
            self.server = socket.socket(socket.AF_UNIX)
            self.server.connect(recorder.upstream)
        else:
            self.server = socket.create_connection(recorder.upstream)
        self.statements = {}  # prepared statement name -> (sql, oids)
        self.portals = {}     # portal name -> (sql, oids, params, formats, result formats)
        self.pending = []     # Statement | "sync", in the order the server will answer them
        self.lock = threading.Lock()

    # -- client -> server ---------------------------------------------------
    def client_loop(self):
        try:
            # The startup packet has no type byte.
            header = self._read(self.client, 4)
            (length,) = struct.unpack("!i", header)
            body = self._read(self.client, length - 4)
            (code,) = struct.unpack("!i", body[:4])
            if code in (80877103, 80877104):  # SSLRequest, GSSENCRequest
                raise RuntimeError("wire_recorder: connect with sslmode=disable and gssencmode=disable")
            self.server.sendall(header + body)
            while True:
                kind = self._read(self.client, 1)
                (length,) = struct.unpack("!i", self._read(self.client, 4))
                body = self._read(self.client, length - 4)
                self._on_client_message(kind, body)
                self.server.sendall(kind + struct.pack("!i", length) + body)
                if kind == b"X":
                    break
        except (ConnectionError, OSError, EOFError):
            pass
        finally:
            try:
                self.server.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def _on_client_message(self, kind, body):
        if kind == b"Q":
            sql, _ = _cstring(body, 0)
            self._push(Statement(self.recorder.next_seq(), self.conn_id, "simple", sql))
        elif kind == b"P":
            name, pos = _cstring(body, 0)
            sql, pos = _cstring(body, pos)
            (n,) = struct.unpack_from("!h", body, pos)
            oids = list(struct.unpack_from("!%dI" % n, body, pos + 2))
            self.statements[name] = (sql, oids)
        elif kind == b"B":
            portal, pos = _cstring(body, 0)
            stmt, pos = _cstring(body, pos)
            (nfmt,) = struct.unpack_from("!h", body, pos)
            fmts = list(struct.unpack_from("!%dh" % nfmt, body, pos + 2))
            pos += 2 + 2 * nfmt
            (nparams,) = struct.unpack_from("!h", body, pos)
            pos += 2
            params = []
            for _ in range(nparams):
                (size,) = struct.unpack_from("!i", body, pos)
                pos += 4
                if size < 0:
                    params.append(None)
                else:
                    params.append(bytes(body[pos:pos + size]))
                    pos += size
            (nres,) = struct.unpack_from("!h", body, pos)
            res_fmts = list(struct.unpack_from("!%dh" % nres, body, pos + 2))
            formats = fmts * nparams if nfmt == 1 else (fmts or [0] * nparams)
            sql, oids = self.statements[stmt]
            oids = (oids + [0] * nparams)[:nparams]
            self.portals[portal] = (sql, oids, params, formats, res_fmts)
        elif kind == b"E":
            portal, _ = _cstring(body, 0)
            sql, oids, params, formats, res_fmts = self.portals[portal]
            s = Statement(self.recorder.next_seq(), self.conn_id, "extended", sql, oids, params, formats)
            s.result_formats = res_fmts
            self._push(s)
        elif kind == b"S":
            self._push("sync")
        elif kind == b"C":
            what, name = body[:1], _cstring(body, 1)[0]
            (self.statements if what == b"S" else self.portals).pop(name, None)

    def _push(self, item):
        with self.lock:
            self.pending.append(item)
        if isinstance(item, Statement):
            self.recorder.add(item)

    # -- server -> client ---------------------------------------------------
    def server_loop(self):
        try:
            while True:
                kind = self._read(self.server, 1)
                (length,) = struct.unpack("!i", self._read(self.server, 4))
                body = self._read(self.server, length - 4)
                self._on_server_message(kind, body)
                self.client.sendall(kind + struct.pack("!i", length) + body)
        except (ConnectionError, OSError, EOFError):
            pass
        finally:
            try:
                self.client.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def _head(self):
        with self.lock:
            return self.pending[0] if self.pending else None

    def _pop(self):
        with self.lock:
            return self.pending.pop(0)

    def _on_server_message(self, kind, body):
        head = self._head()
        stmt = head if isinstance(head, Statement) else None
        if kind == b"T" and stmt:
            (n,) = struct.unpack_from("!h", body, 0)
            pos, cols = 2, []
            for _ in range(n):
                name, pos = _cstring(body, pos)
                _table, _attnum, oid, _len, _mod, _fmt = struct.unpack_from("!IhIhih", body, pos)
                pos += 18
                cols.append((name, oid))
            stmt.columns = cols
            stmt.rows = []  # a simple query's later result replaces an earlier one
        elif kind == b"D" and stmt:
            (n,) = struct.unpack_from("!h", body, 0)
            pos, row = 2, []
            for _ in range(n):
                (size,) = struct.unpack_from("!i", body, pos)
                pos += 4
                if size < 0:
                    row.append(None)
                else:
                    row.append(bytes(body[pos:pos + size]))
                    pos += size
            stmt.rows.append(row)
        elif kind in (b"C", b"I") and stmt:
            stmt.tags.append(_cstring(body, 0)[0] if kind == b"C" else "")
            if stmt.protocol == "extended":
                stmt.done = True
                self._pop()
        elif kind == b"s" and stmt:  # PortalSuspended: row limit reached (not used by psycopg)
            stmt.done = True
            self._pop()
        elif kind == b"E":
            fields, pos = {}, 0
            while body[pos] != 0:
                code = chr(body[pos])
                value, pos = _cstring(body, pos + 1)
                fields[code] = value
            if stmt:
                stmt.error = (fields.get("C", ""), fields.get("M", ""))
                if stmt.protocol == "extended":
                    stmt.done = True
                    self._pop()
                    # The server skips everything up to the next Sync.
                    with self.lock:
                        while self.pending and self.pending[0] != "sync":
                            skipped = self.pending.pop(0)
                            self.recorder.discard(skipped)
        elif kind == b"Z":
            if stmt and stmt.protocol == "simple":
                stmt.done = True
                self._pop()
            elif head == "sync":
                self._pop()

    @staticmethod
    def _read(sock, n):
        data = bytearray()
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return bytes(data)


class WireRecorder:
    """Listens on 127.0.0.1 (a free port: .port) and forwards to `upstream`:
    (host, port), or the path of a Unix-domain socket. .statements lists what ran, in order."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.statements = []
        self._lock = threading.Lock()
        self._seq = itertools.count(1)
        self._conn_ids = itertools.count(1)
        self._threads = []
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def next_seq(self):
        return next(self._seq)

    def add(self, stmt):
        with self._lock:
            self.statements.append(stmt)

    def discard(self, stmt):
        if isinstance(stmt, Statement):
            with self._lock:
                self.statements.remove(stmt)

    def _accept_loop(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            conn = _Connection(self, client, next(self._conn_ids))
            for target in (conn.client_loop, conn.server_loop):
                t = threading.Thread(target=target, daemon=True)
                t.start()
                self._threads.append(t)

    def close(self):
        self.listener.close()
        for t in self._threads:
            t.join(timeout=10)
