#!/usr/bin/python3
"""Turns the decoded PostgreSQL wire captures (../shared/pgwire/captures/*.log,
made by pgproxy.py from psql, pgbench and psycopg sessions) into raw client
byte streams: one file per client connection, the seed corpus of the wire
fuzz target (test/fuzz/corpus/wire).

Each `F>` line (client to server) is encoded back into protocol v3 bytes
from its decoded fields, and its length is checked against the capture's
`len=`; a line that does not encode to that length is reported and left out.
Password and SASL messages are left out too: the fuzz target's server uses
trust authentication, so they would arrive after AuthenticationOk. Long
streams (pgbench -i's COPY, whose 99996 middle CopyData messages the capture
suppressed anyway) are cut at a message boundary at --max-bytes.

  test/fuzz/pgwire_to_corpus.py [--captures DIR] [--out DIR] [--max-bytes N]
"""
import argparse
import ast
import hashlib
import os
import re
import struct
import sys

LINE = re.compile(r"^\s*[\d.]+\s+(c\d+)\s+F>\s+r\d+\s+(\S+)\s+len=(\d+)\s+(\S+)\s?(.*)$")
STRING = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
FIELD = re.compile(r"(\w+(?:\.\w+)*)(\[[^\]]*\])?=(" + STRING + r"|\[(?:" + STRING + r"|[^\]'\"])*\]|\S+)")
CODES = {"SSLRequest": 80877103, "GSSENCRequest": 80877104, "CancelRequest": 80877102}


def cstr(s):
    return s.encode("utf-8") + b"\0"


def typed(kind, body):
    return kind.encode() + struct.pack("!i", len(body) + 4) + body


def literal(text):
    return ast.literal_eval(text)


def list_items(text):
    """The items of a decoded list: strings, NULL, bin:0x.., numbers."""
    inner = text.strip()[1:-1]
    items = []
    for m in re.finditer(STRING + r"|[^,\s][^,]*", inner):
        token = m.group(0).strip()
        if token[0] in "'\"":
            items.append(literal(token).encode("utf-8"))
        elif token == "NULL":
            items.append(None)
        elif token.startswith("bin:0x"):
            items.append(bytes.fromhex(token[6:]))
        else:
            items.append(int(token))
    return items


def fields(rest):
    return {m.group(1): m.group(3) for m in FIELD.finditer(rest)}


def encode(kind, name, rest):
    f = fields(rest)
    if name in CODES:
        body = struct.pack("!I", CODES[name])
        if name == "CancelRequest":
            body += struct.pack("!iI", int(f["pid"]), int(f["key"]))
        return struct.pack("!i", len(body) + 4) + body
    if name == "StartupMessage":
        major, minor = (int(x) for x in f.pop("protocol").split("."))
        body = struct.pack("!i", major << 16 | minor)
        for key, value in f.items():
            body += cstr(key) + cstr(literal(value))
        body += b"\0"
        return struct.pack("!i", len(body) + 4) + body
    if name == "Query":
        return typed("Q", cstr(literal(rest.strip())))
    if name in ("Sync", "Flush", "Terminate", "CopyDone"):
        return typed(kind, b"")
    if name in ("CopyData", "CopyFail"):
        data = literal(rest.strip()).encode("utf-8")
        return typed(kind, data if name == "CopyData" else data + b"\0")
    if name == "Parse":
        types = [int(t.decode().split("(")[0]) for t in list_items(re.search(r"paramtypes\[\d+\]=(\[.*\])\s*$", rest).group(1))
                 if t is not None] if "paramtypes" in rest else []
        body = cstr(literal(f["stmt"])) + cstr(literal(f["query"])) + struct.pack("!h", len(types))
        body += b"".join(struct.pack("!I", t) for t in types)
        return typed("P", body)
    if name == "Bind":
        fmts = [int(x) for x in re.search(r"paramfmts\[([^\]]*)\]", rest).group(1).replace(",", " ").split()]
        params = list_items(re.search(r"params\[\d+\]=(\[.*?\])(?=\s+resultfmts)", rest).group(1))
        results = [int(x) for x in re.search(r"resultfmts\[([^\]]*)\]", rest).group(1).replace(",", " ").split()]
        body = cstr(literal(f["portal"])) + cstr(literal(f["stmt"]))
        body += struct.pack("!h", len(fmts)) + b"".join(struct.pack("!h", x) for x in fmts)
        body += struct.pack("!h", len(params))
        for p in params:
            body += struct.pack("!i", -1) if p is None else struct.pack("!i", len(p)) + p
        body += struct.pack("!h", len(results)) + b"".join(struct.pack("!h", x) for x in results)
        return typed("B", body)
    if name in ("Describe", "Close"):
        which = rest.split()[0]
        return typed(kind, which.encode() + cstr(literal(f["name"])))
    if name == "Execute":
        return typed("E", cstr(literal(f["portal"])) + struct.pack("!i", int(f["maxrows"])))
    if name == "?UNKNOWN":
        return typed(kind, literal(f["raw"]).encode("utf-8"))
    return None


def convert(path, max_bytes, problems):
    """{connection id: bytes} for one capture file."""
    streams = {}
    with open(path, encoding="utf-8") as log:
        for number, line in enumerate(log, 1):
            m = LINE.match(line.rstrip("\n"))
            if not m:
                continue
            conn, kind, length, name, rest = m.groups()
            if name in ("PasswordMessage", "SASLInitialResponse", "SASLResponse"):
                continue
            # Typed fields quoted with the type's own character would confuse
            # the tokenizer: the type byte is given by the column.
            try:
                message = encode(kind, name, rest)
            except (ValueError, SyntaxError, KeyError, AttributeError) as e:
                message, why = None, f"{type(e).__name__}: {e}"
            else:
                why = "unknown message"
            if message is None or len(message) != int(length) + (0 if kind == "--" else 1):
                if message is not None:
                    why = f"encodes to {len(message)} bytes"
                problems.append(f"{os.path.basename(path)}:{number}: {name}: {why}")
                continue
            stream = streams.setdefault(conn, bytearray())
            if len(stream) + len(message) <= max_bytes:
                stream += message
    return streams


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--captures", default=os.path.join(here, "../../../shared/pgwire/captures"))
    parser.add_argument("--out", default=os.path.join(here, "corpus/wire"))
    parser.add_argument("--max-bytes", type=int, default=16384)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    problems = []
    written = seen = 0
    hashes = set()
    for name in sorted(os.listdir(args.captures)):
        if not name.endswith(".log"):
            continue
        for conn, data in sorted(convert(os.path.join(args.captures, name), args.max_bytes, problems).items()):
            seen += 1
            digest = hashlib.sha1(data).hexdigest()
            if not data or digest in hashes:
                continue  # identical streams (pgbench's many connections) once
            hashes.add(digest)
            with open(os.path.join(args.out, f"{name[:-4]}_{conn}"), "wb") as out:
                out.write(data)
            written += 1
    for p in problems:
        print("left out:", p, file=sys.stderr)
    print(f"{written} streams written to {args.out} ({seen} connections, {len(problems)} messages left out)")


if __name__ == "__main__":
    main()
