#!/usr/bin/env python3
"""pgjdbc against paceline-server: compiles JdbcTest.java with Debian's JDK
against Debian's libpostgresql-jdbc-java and runs it (its checks are in the
Java file). Run by ctest with the server binary as the only argument;
without javac or the driver's jar it exits 77 (ctest: skipped) and says
which is missing."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from server_process import ServerProcess  # noqa: E402

JAR = "/usr/share/java/postgresql.jar"
# DatabaseMetaData calls whose catalog queries Paceline still refuses
# (0A000); none today.
KNOWN_GAPS = set()


def main():
    binary = sys.argv[1]
    missing = [what for what, ok in (("javac", shutil.which("javac")), ("java", shutil.which("java")),
                                     (JAR + " (libpostgresql-jdbc-java)", os.path.exists(JAR))) if not ok]
    if missing:
        print("skipped: missing " + ", ".join(missing))
        return 77
    with tempfile.TemporaryDirectory() as classes:
        subprocess.run(["javac", "-d", classes, "-cp", JAR, os.path.join(HERE, "JdbcTest.java")], check=True)
        server = ServerProcess(binary, "--workers=2").start()
        try:
            run = subprocess.run(["java", "-cp", classes + os.pathsep + JAR, "JdbcTest", str(server.port)],
                                 capture_output=True, text=True, timeout=300)
        finally:
            code, err = server.stop()
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        if run.returncode != 0 or "all ok" not in run.stdout:
            return 1
        gaps = {line.split()[1].rstrip(":") for line in run.stdout.splitlines() if line.startswith("gap ")}
        if gaps != KNOWN_GAPS:
            print("gaps changed: now %s, known %s (update KNOWN_GAPS and the README)" % (sorted(gaps), sorted(KNOWN_GAPS)))
            return 1
        if code != 0:
            print("server exit", code, err)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
