#!/usr/bin/python3
"""The server speaks the wire protocol and nothing of SQL (DESIGN.md,
"Layers and folders"): no file under src/server includes, directly or
through the headers it includes, a header of the SQL front-end
(src/engine/sql), the engine's Session or Database. It reaches the engine
only through engine/client (ClientSession, its requests, ResultSink and
ClientInput) and plain result types.

Usage: server_includes_test.py SOURCE_DIR (the project's src/)."""
import os
import re
import sys
import unittest

SRC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
FORBIDDEN = re.compile(r"^engine/(sql/|session\.h$|database\.h$)")


def includes(path):
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        return [p for p in INCLUDE.findall(f.read()) if os.path.exists(os.path.join(SRC, p))]


def closure(path):
    """Every project header `path` includes, directly or not, with the chain that reaches it."""
    seen = {}
    stack = [(path, [path])]
    while stack:
        current, chain = stack.pop()
        for header in includes(current):
            if header not in seen:
                seen[header] = chain + [header]
                stack.append((header, chain + [header]))
    return seen


class ServerIncludesTest(unittest.TestCase):
    def test_no_server_file_reaches_sql_session_or_database(self):
        files = sorted(os.path.join("server", f) for f in os.listdir(os.path.join(SRC, "server"))
                       if f.endswith((".h", ".cc")))
        self.assertTrue(files)
        for path in files:
            for header, chain in closure(path).items():
                self.assertIsNone(FORBIDDEN.match(header), " -> ".join(chain))

    def test_the_check_sees_an_include_of_sql(self):
        # The rule above is not vacuous: the engine's client code does
        # include the SQL front-end, and the closure finds it.
        self.assertTrue(any(FORBIDDEN.match(h) for h in closure("engine/client/query_runner.cc")))


if __name__ == "__main__":
    unittest.main()
