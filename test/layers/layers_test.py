#!/usr/bin/python3
"""The structure drawn from the code (DESIGN.md, "Layers and folders").

- Includes point one way: a folder under src/ is a layer, and a file may
  include headers only of the layers its own sits on:
    common <- storage <- cc <- sql <- engine <- {server, workloads} <- tools
  with the scheduler beside (on common; the engine and what is above it
  use it).
- The server speaks the wire protocol and nothing of SQL: no file under
  src/server reaches, directly or through the headers it includes, a
  header of the SQL front end (src/sql), the engine's Session or Database.
  It reaches the engine through engine/client (ClientSession, its
  requests, ResultSink and ClientInput) and plain result types.
- No header includes itself back through others (an include cycle).
- Database and Session use each other's public interface only (no friend
  between them); what both need of how statements run is
  engine/statement_runner.h.
- No file under src/ is longer than 600 lines (split it by what it does).

Usage: layers_test.py SOURCE_DIR (the project's src/)."""
import os
import re
import sys
import unittest

SRC = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SERVER_FORBIDDEN = re.compile(r"^(sql/|engine/session\.h$|engine/database\.h$)")
MAX_LINES = 600

# Each layer and the layers it may include (besides itself).
BELOW = {
    "common": set(),
    "storage": {"common"},
    "scheduler": {"common"},
    "cc": {"storage", "common"},
    "sql": {"cc", "storage", "common"},
    "engine": {"sql", "cc", "scheduler", "storage", "common"},
    "server": {"engine", "common"},
    "workloads": {"engine", "sql", "cc", "scheduler", "storage", "common"},
}
BELOW["tools"] = set(BELOW) | {"server", "workloads"}


def sources():
    out = []
    for root, _, files in os.walk(SRC):
        for f in files:
            if f.endswith((".h", ".cc")):
                out.append(os.path.relpath(os.path.join(root, f), SRC))
    return sorted(out)


def includes(path):
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        return [p for p in INCLUDE.findall(f.read()) if os.path.exists(os.path.join(SRC, p))]


def layer(path):
    return path.split("/", 1)[0]


def against_layers(graph):
    """(file, header) pairs of `graph` (file -> included headers) that include upward or sideways."""
    bad = []
    for path, headers in graph.items():
        allowed = BELOW.get(layer(path))
        for header in headers:
            if layer(header) != layer(path) and (allowed is None or layer(header) not in allowed):
                bad.append((path, header))
    return bad


def closure(graph, path):
    """Every header `path` includes, directly or not, with the chain that reaches it."""
    seen = {}
    stack = [(path, [path])]
    while stack:
        current, chain = stack.pop()
        for header in graph.get(current, []):
            if header not in seen:
                seen[header] = chain + [header]
                stack.append((header, chain + [header]))
    return seen


def cycles(graph):
    """The include cycles of `graph`: each a list of headers that reach one another."""
    out = []
    for start in graph:
        reach = closure(graph, start)
        if start in reach:
            out.append(reach[start])
    return out


class LayersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.graph = {path: includes(path) for path in sources()}

    def test_every_folder_has_its_layer(self):
        folders = {layer(p) for p in self.graph}
        self.assertEqual(folders - set(BELOW), set(), "a new folder under src/ needs its place in BELOW")

    def test_includes_follow_the_layers(self):
        bad = against_layers(self.graph)
        self.assertEqual(bad, [], "\n".join(f"{a} includes {b}" for a, b in bad))

    def test_the_layer_check_sees_an_upward_include(self):
        # Not vacuous: storage including the SQL front end, or the scheduler
        # including concurrency control, is caught.
        self.assertEqual(against_layers({"storage/table.h": ["sql/plan.h", "common/value.h"]}),
                         [("storage/table.h", "sql/plan.h")])
        self.assertEqual(against_layers({"scheduler/history.h": ["cc/occ.h"]}), [("scheduler/history.h", "cc/occ.h")])

    def test_no_server_file_reaches_sql_session_or_database(self):
        files = [p for p in self.graph if layer(p) == "server"]
        self.assertTrue(files)
        for path in files:
            for header, chain in closure(self.graph, path).items():
                self.assertIsNone(SERVER_FORBIDDEN.match(header), " -> ".join(chain))

    def test_the_server_check_sees_an_include_of_sql(self):
        # The rule above is not vacuous: the engine's client code does
        # include the SQL front end, and the closure finds it.
        self.assertTrue(any(SERVER_FORBIDDEN.match(h) for h in closure(self.graph, "engine/client/query_runner.cc")))

    def test_no_include_cycle(self):
        found = cycles(self.graph)
        self.assertEqual(found, [], "\n".join(" -> ".join(c) for c in found))
        self.assertEqual(len(cycles({"a.h": ["b.h"], "b.h": ["a.h"]})), 2)  # the check sees one

    def test_no_friend_between_database_and_session(self):
        friend = re.compile(r"^\s*friend\b[^;]*\b(Session|Database)\b", re.M)
        for path in ("engine/database.h", "engine/session.h"):
            with open(os.path.join(SRC, path), encoding="utf-8") as f:
                self.assertIsNone(friend.search(f.read()), path)
        self.assertTrue(friend.search("  friend class Session;"))  # the check sees one

    def test_no_source_file_is_too_long(self):
        long = []
        for path in self.graph:
            with open(os.path.join(SRC, path), encoding="utf-8") as f:
                n = sum(1 for _ in f)
            if n > MAX_LINES:
                long.append(f"{path}: {n} lines")
        self.assertEqual(long, [], f"split files over {MAX_LINES} lines by what they do")


if __name__ == "__main__":
    unittest.main()
