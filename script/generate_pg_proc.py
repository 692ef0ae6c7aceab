#!/usr/bin/python3
"""Writes src/sql/system_catalog/builtin_function_rows.inc: PostgreSQL
15's pg_proc rows (OIDs, argument and result types, modes, names, defaults)
for the names of Paceline's built-in functions, read from a PostgreSQL 15
server; and support_function_rows.inc: the OIDs and names of the functions
other catalogs name (types' input/output/receive/send/typmod/analyze/
subscript functions, access method handlers, planner support functions),
which regproc reads and prints but Paceline does not call; and
type_function_rows.inc: those functions' OIDs per type (pg_type's typinput,
typoutput, ...). Facts of the catalog, not code: Paceline's pg_proc lists them for
the functions it has (builtin_functions.cc keeps the rows whose types it
has), so tools see PostgreSQL's OIDs and signatures.

The names come from Paceline itself: the ctest
`BuiltinFunctionsTest.EveryNameHasRows` fails naming each built-in function
without rows and prints them one per line, for this script's stdin.

  build/test/paceline_tests --gtest_filter='BuiltinFunctionsTest.*' ...
  /usr/bin/python3 script/generate_pg_proc.py \\
      --dsn "host=127.0.0.1 user=tester password=x dbname=postgres" < names.txt

Names already in the file are kept: the new ones are added to them.
"""
import argparse
import os
import re
import sys

import psycopg

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "sql", "system_catalog")
OUT = os.path.join(HERE, "builtin_function_rows.inc")
SUPPORT_OUT = os.path.join(HERE, "support_function_rows.inc")
TYPE_FUNCTIONS_OUT = os.path.join(HERE, "type_function_rows.inc")

TYPE_FUNCTIONS_QUERY = """
SELECT oid, typinput::oid, typoutput::oid, typreceive::oid, typsend::oid, typmodin::oid, typmodout::oid,
       typanalyze::oid, typsubscript::oid
FROM pg_catalog.pg_type WHERE typnamespace = 'pg_catalog'::regnamespace AND typtype IN ('b', 'p')
ORDER BY oid
"""

SUPPORT_QUERY = """
SELECT p.oid, p.proname FROM pg_catalog.pg_proc p
WHERE p.oid IN (SELECT unnest(ARRAY[typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze,
                                    typsubscript])::oid FROM pg_catalog.pg_type
                UNION SELECT amhandler::oid FROM pg_catalog.pg_am
                UNION SELECT prosupport::oid FROM pg_catalog.pg_proc)
ORDER BY p.oid
"""

QUERY = """
SELECT p.oid, p.proname, p.prokind, p.proretset, p.provolatile, p.proisstrict, p.proparallel, p.prolang,
       p.pronargs, p.pronargdefaults, p.prorettype, p.proargtypes::oid[], p.provariadic, p.procost, p.prorows,
       coalesce(p.proallargtypes, '{}'), coalesce(p.proargmodes::text[], '{}'), coalesce(p.proargnames, '{}'),
       pg_catalog.pg_get_function_arguments(p.oid), p.prosrc,
       coalesce(pg_catalog.obj_description(p.oid, 'pg_proc'), ''),
       p.prosupport::text, p.proleakproof, coalesce(pg_catalog.pg_get_function_sqlbody(p.oid), '')
FROM pg_catalog.pg_proc p
WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = ANY(%s)
ORDER BY p.oid
"""


def split_top_level(text):
    """Splits "a text, b integer DEFAULT f(1, 2)" at its top-level commas."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(text):
        if c == "'":
            quoted = not quoted
        elif not quoted and c == "(":
            depth += 1
        elif not quoted and c == ")":
            depth -= 1
        elif not quoted and depth == 0 and text.startswith(", ", i):
            parts.append(text[start:i])
            start = i + 2
    if text:
        parts.append(text[start:])
    return parts


def defaults_of(arguments):
    """The DEFAULT expressions of pg_get_function_arguments' text, in order."""
    out = []
    for part in split_top_level(arguments):
        m = re.search(r" DEFAULT (.*)$", part)
        if m:
            out.append(m.group(1))
    return out


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def existing_names():
    if not os.path.exists(OUT):
        return set()
    return set(re.findall(r'^    \{\d+, "([^"]+)"', open(OUT).read(), re.M))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", required=True, help="a PostgreSQL 15 server")
    args = parser.parse_args()
    names = existing_names() | {line.strip() for line in sys.stdin if line.strip()}
    with psycopg.connect(args.dsn) as conn:
        version = conn.execute("SHOW server_version_num").fetchone()[0]
        if not version.startswith("15"):
            sys.exit(f"PostgreSQL 15 expected, the server is {version}")
        rows = conn.execute(QUERY, (sorted(names),)).fetchall()
        support_functions = conn.execute(SUPPORT_QUERY).fetchall()
        type_functions = conn.execute(TYPE_FUNCTIONS_QUERY).fetchall()
    lines = []
    for (oid, name, kind, retset, volatile, strict, parallel, lang, nargs, ndefaults, rettype, argtypes, variadic, cost,
         prorows, allargtypes, modes, argnames, arguments, src, description, support, leakproof, sqlbody) in rows:
        defaults = defaults_of(arguments)
        assert len(defaults) == ndefaults, (name, arguments)
        assert all("|" not in d for d in defaults), (name, defaults)
        lines.append(
            f"    {{{oid}, {c_string(name)}, '{kind}', {str(retset).lower()}, '{volatile}', {str(strict).lower()}, "
            f"'{parallel}', {lang}, {rettype}, {c_string(' '.join(map(str, argtypes)))}, {variadic}, {cost:g}, {prorows:g}, "
            f"{c_string(' '.join(map(str, allargtypes)))}, {c_string(' '.join(modes))}, "
            f"{c_string(','.join(argnames))}, {c_string('|'.join(defaults))}, {c_string(src)}, "
            f"{c_string(description)}, {c_string('' if support == '-' else support)}, {str(leakproof).lower()}, "
            f"{c_string(sqlbody)}}},")
    missing = sorted(names - {r[1] for r in rows})
    with open(OUT, "w") as f:
        f.write("// Generated by script/generate_pg_proc.py from PostgreSQL 15's pg_proc: do not edit.\n")
        f.write("// {oid, proname, prokind, proretset, provolatile, proisstrict, proparallel, prolang,\n")
        f.write("//  prorettype, proargtypes, provariadic, procost, prorows, proallargtypes, proargmodes, proargnames,\n")
        f.write("//  argument defaults separated by |, prosrc, description, prosupport (\"\" for none), proleakproof,\n")
        f.write("//  the SQL body of a LANGUAGE sql function written with one (pg_get_function_sqlbody)}\n")
        f.write("\n".join(lines) + "\n")
    with open(SUPPORT_OUT, "w") as f:
        f.write("// Generated by script/generate_pg_proc.py from PostgreSQL 15's pg_proc: do not edit.\n")
        f.write("// {oid, proname} of the functions pg_type, pg_am and pg_proc.prosupport name.\n")
        f.write("\n".join(f"    {{{oid}, {c_string(name)}}}," for oid, name in support_functions) + "\n")
    with open(TYPE_FUNCTIONS_OUT, "w") as f:
        f.write("// Generated by script/generate_pg_proc.py from PostgreSQL 15's pg_type: do not edit.\n")
        f.write("// {oid, typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze, typsubscript}\n")
        f.write("// of the base and pseudo-types in pg_catalog (0 for none).\n")
        f.write("\n".join("    {" + ", ".join(str(v) for v in row) + "}," for row in type_functions) + "\n")
    print(f"{len(type_functions)} types; {len(support_functions)} support functions; {len(rows)} rows for {len(names) - len(missing)} names; without rows: {', '.join(missing)}")


if __name__ == "__main__":
    main()
