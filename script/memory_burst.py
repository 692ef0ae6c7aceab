#!/usr/bin/python3
"""Resident memory of a paceline-server across bursts of statements (issue 45,
part 4): (a) thousands of garbled SQL statements (mutations of the fuzz
corpus: truncations, random bytes, huge literals, deep parentheses, long
identifiers, many statements in one message), (b) distinct ~100 KB
statements (long IN lists and SELECT lists), then DISCARD ALL and
disconnect. Prints VmRSS before, after each burst, and after an idle pause,
and the server's SHOW paceline.memory (when it has one).

Raw protocol over sockets (simple Query), several connections at once, each
a thread of the server: what each connection's thread allocates is what the
figures show.

  script/memory_burst.py [--server=BINARY | --port=N --pid=PID]
      [--garbled=6000] [--distinct=1500] [--connections=8] [--seed=1]
      [--server-arg=...]...
"""
import argparse
import os
import random
import re
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Client:
    """A trust-auth PostgreSQL client: simple Query, reads to ReadyForQuery."""

    def __init__(self, port, timeout=60):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = bytearray()
        body = struct.pack("!i", 196608) + b"user\0paceline\0database\0paceline\0\0"
        self.sock.sendall(struct.pack("!i", len(body) + 4) + body)
        self.drain()

    def _fill(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk

    def read(self):
        self._fill(5)
        kind = bytes(self.buf[0:1])
        length = struct.unpack("!i", self.buf[1:5])[0]
        self._fill(1 + length)
        body = bytes(self.buf[5:1 + length])
        del self.buf[:1 + length]
        return kind, body

    def drain(self):
        """Messages up to ReadyForQuery: (rows, [sqlstate or None per error])."""
        rows, errors = [], []
        while True:
            kind, body = self.read()
            if kind == b"Z":
                return rows, errors
            if kind == b"D":
                rows.append(body)
            elif kind == b"E":
                fields = dict((f[:1], f[1:]) for f in body.split(b"\0") if f)
                errors.append(fields.get(b"C", b"").decode() or None)
                if fields.get(b"S") == b"FATAL":
                    raise ConnectionError("FATAL %s" % fields)

    def query(self, text):
        data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
        body = data.replace(b"\0", b" ") + b"\0"
        self.sock.sendall(b"Q" + struct.pack("!i", len(body) + 4) + body)
        return self.drain()

    def close(self):
        try:
            self.sock.sendall(b"X" + struct.pack("!i", 4))
        except OSError:
            pass
        self.sock.close()


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def load_corpus():
    corpus = []
    d = os.path.join(ROOT, "test", "fuzz", "corpus", "sql")
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            corpus.append(f.read())
    words = []
    with open(os.path.join(ROOT, "test", "fuzz", "sql.dict")) as f:
        for line in f:
            m = re.match(r'^\s*"(.*)"\s*$', line)
            if m:
                words.append(m.group(1).encode())
    return corpus, words


def garble(rng, corpus, words, only=None, max_bytes=2 << 20):
    """One garbled message: a corpus text mutated one to three times (by
    mutation `only` alone when given)."""
    text = rng.choice(corpus)
    for _ in range(rng.randint(1, 3)):
        m = rng.randrange(10) if only is None else only
        if m == 0 and text:  # truncation
            text = text[:rng.randrange(len(text))]
        elif m == 1:  # random bytes
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 16))) + text[pos:]
        elif m == 2:  # a huge literal
            text = b"SELECT '" + b"x" * rng.randint(1 << 16, 1 << 20) + b"' || " + text
        elif m == 3:  # deep parentheses
            d = rng.choice([100, 1000, 10000, 100000])
            text = b"SELECT " + b"(" * d + b"1" + b")" * rng.choice([d, d - 1, 0]) + b"; " + text
        elif m == 4:  # a very long identifier
            text = b"SELECT " + b"a" * rng.randint(64, 1 << 18) + b" FROM " + text
        elif m == 5:  # many statements in one message
            text = b";".join([text] * max(2, min(rng.randint(2, 500), (1 << 20) // (len(text) + 1))))
        elif m == 6:  # dictionary words spliced in
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + b" " + b" ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) + b" " + text[pos:]
        elif m == 7:  # a long IN list
            n = rng.randint(100, 20000)
            text = b"SELECT 1 WHERE 1 IN (" + b",".join(str(i).encode() for i in range(n)) + b") " + text
        elif m == 8:  # duplicated halves
            half = len(text) // 2
            text = text[:half] + text + text[half:]
        if len(text) > max_bytes:  # within the server's message limit
            text = text[:rng.randint(max_bytes // 2, max_bytes)]
        else:  # a repeated expression
            text = b"SELECT " + b"+".join([b"1"] * rng.randint(10, 50000)) + b" " + text
    return text


def distinct_statement(i, size):
    """The i-th distinct statement of about `size` bytes."""
    if i % 2 == 0:
        items, n = [], 0
        while n < size:
            s = str(i * 100000 + len(items))
            items.append(s)
            n += len(s) + 1
        return "SELECT 1 WHERE %d IN (%s)" % (i, ",".join(items))
    cols, n = [], 0
    while n < size:
        c = "%d AS c%d_%d" % (len(cols), i, len(cols))
        cols.append(c)
        n += len(c) + 2
    return "SELECT " + ", ".join(cols)


def run_parallel(port, connections, jobs, work):
    """Runs work(client, job) for each job over `connections` clients."""
    lock = threading.Lock()
    jobs = list(jobs)
    stats = {"errors": 0, "no_sqlstate": 0, "reconnects": 0, "statements": 0}

    def loop():
        c = Client(port)
        while True:
            with lock:
                if not jobs:
                    break
                job = jobs.pop()
            try:
                _, errors = work(c, job)
            except (ConnectionError, OSError, socket.timeout) as e:
                with lock:
                    stats["reconnects"] += 1
                    stats.setdefault("lost", []).append("%s: %r" % (e, job[:120] if isinstance(job, bytes) else job))
                c = Client(port)
                continue
            with lock:
                stats["statements"] += 1
                stats["errors"] += len(errors)
                stats["no_sqlstate"] += sum(1 for e in errors if e is None)
        c.query("DISCARD ALL")
        c.close()

    threads = [threading.Thread(target=loop) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return stats


def show_memory(port):
    c = Client(port)
    try:
        rows, errors = c.query("SHOW paceline.memory")
    finally:
        c.close()
    if errors:
        return None
    out = []
    for body in rows:
        n = struct.unpack("!h", body[:2])[0]
        pos, vals = 2, []
        for _ in range(n):
            ln = struct.unpack("!i", body[pos:pos + 4])[0]
            pos += 4
            vals.append(body[pos:pos + ln].decode() if ln >= 0 else None)
            pos += max(ln, 0)
        out.append(vals)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default=os.path.join(ROOT, "build", "src", "tools", "paceline-server"))
    ap.add_argument("--server-arg", action="append", default=[])
    ap.add_argument("--port", type=int)
    ap.add_argument("--pid", type=int)
    ap.add_argument("--garbled", type=int, default=6000)
    ap.add_argument("--distinct", type=int, default=1500)
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=int, help="garble with this one mutation (0-9) alone")
    ap.add_argument("--max-message-mb", type=int, default=2, help="garbled messages are cut to at most this")
    ap.add_argument("--pause", type=float, default=5.0)
    ap.add_argument("--gdb-trim", action="store_true", help="at the end, call malloc_trim(0) in the server through gdb "
                    "(what then leaves was free memory the allocator kept)")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server (e.g. LD_PRELOAD=...)")
    args = ap.parse_args()

    proc = None
    if args.port:
        port, pid = args.port, args.pid
    else:
        env = dict(os.environ)
        env.update(e.split("=", 1) for e in args.env)
        proc = subprocess.Popen([args.server, "--listen=127.0.0.1", "--port=0", "--data-dir=", *args.server_arg],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        line = proc.stdout.readline()
        port, pid = int(re.search(r"port (\d+)", line).group(1)), proc.pid
    print("server pid %d port %d %s" % (pid, port, " ".join(args.server_arg)))

    def report(what):
        print("%-28s VmRSS %8.1f MB" % (what, rss_kb(pid) / 1024.0), flush=True)

    try:
        report("start")
        c = Client(port)
        c.query("CREATE TABLE t (k INT PRIMARY KEY, v TEXT)")
        c.query("INSERT INTO t SELECT i, 'v' || i FROM generate_series(1, 1000) AS s(i)")
        c.close()
        report("after setup")
        if args.garbled:
            rng = random.Random(args.seed)
            corpus, words = load_corpus()
            msgs = [garble(rng, corpus, words, args.only, args.max_message_mb << 20) for _ in range(args.garbled)]
            t0 = time.time()
            st = run_parallel(port, args.connections, msgs, lambda c, m: c.query(m))
            print("garbled: %d messages, %d errors, %d without SQLSTATE, %d reconnects, %.1f s, %.1f MB sent" %
                  (st["statements"], st["errors"], st["no_sqlstate"], st["reconnects"], time.time() - t0,
                   sum(len(m) for m in msgs) / 1e6))
            for lost in st.get("lost", []):
                print("  connection lost: %s" % lost)
            del msgs
            report("after garbled burst")
        if args.distinct:
            t0 = time.time()
            st = run_parallel(port, args.connections, range(args.distinct),
                              lambda c, i: c.query(distinct_statement(i, args.size)))
            print("distinct: %d statements, %d errors, %.1f s" % (st["statements"], st["errors"], time.time() - t0))
            report("after distinct burst")
        time.sleep(args.pause)
        report("after %.0f s idle" % args.pause)
        if args.gdb_trim:
            subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int) malloc_trim(0)"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            report("after malloc_trim(0)")
        mem = show_memory(port)
        if mem:
            for row in mem:
                print("  %s" % " = ".join(v or "" for v in row))
    finally:
        if proc:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
