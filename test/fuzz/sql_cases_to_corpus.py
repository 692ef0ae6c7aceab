#!/usr/bin/python3
"""Turns the SQL case files (test/sql/cases/*.test) into the seed
corpus of the sql fuzz target (test/fuzz/corpus/sql): one file per distinct
statement, and one small script per run of up to five consecutive
statements of a case file (joined with ';', as Session::ExecuteScript takes
them), each at most 4 KB (the target cuts its inputs there).

  test/fuzz/sql_cases_to_corpus.py [--cases DIR] [--out DIR]
"""
import argparse
import hashlib
import os

MAX_BYTES = 4096
SCRIPT_STATEMENTS = 5


def statements(path):
    """The SQL of each `statement` / `query` record of a case file."""
    out = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("statement") or line.startswith("query"):
            sql = []
            i += 1
            while i < len(lines) and lines[i].strip() and lines[i] != "----":
                sql.append(lines[i])
                i += 1
            if sql:
                out.append("\n".join(sql))
        i += 1
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default=os.path.join(here, "../sql/cases"))
    parser.add_argument("--out", default=os.path.join(here, "corpus/sql"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    seen = set()
    written = 0

    def write(name, text):
        nonlocal written
        data = text.encode("utf-8")
        digest = hashlib.sha1(data).hexdigest()
        if len(data) > MAX_BYTES or digest in seen:
            return
        seen.add(digest)
        with open(os.path.join(args.out, f"{name}_{digest[:12]}"), "wb") as out:
            out.write(data)
        written += 1

    for case in sorted(os.listdir(args.cases)):
        if not case.endswith(".test"):
            continue
        base = case[:-5]
        sqls = statements(os.path.join(args.cases, case))
        for sql in sqls:
            write(base, sql)
        for start in range(0, len(sqls), SCRIPT_STATEMENTS):
            write(base + "_script", ";\n".join(sqls[start:start + SCRIPT_STATEMENTS]))
    print(f"{written} inputs written to {args.out}")


if __name__ == "__main__":
    main()
