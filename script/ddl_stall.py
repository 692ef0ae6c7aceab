#!/usr/bin/python3
"""DDL next to an idle transaction block, through paceline-server (psycopg):
times CREATE TABLE and CREATE INDEX on other tables while a block sits idle
on t1, an UPDATE on t3 while a CREATE INDEX on t1 waits for that block
(started half a second earlier), and that CREATE INDEX once the block
commits. Starts its own in-memory server.

  script/ddl_stall.py build/src/tools/paceline-server [PORT]"""
import subprocess, sys, threading, time
import psycopg
binary, port = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 55432
srv = subprocess.Popen([binary, "--data-dir=", "--workers=2", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def connect(autocommit):
    for _ in range(100):
        try:
            return psycopg.connect(host="127.0.0.1", port=port, dbname="paceline", user="tester", autocommit=autocommit)
        except psycopg.OperationalError:
            time.sleep(0.1)
    raise SystemExit("no server")
def timed(conn, sql):
    t = time.perf_counter()
    try:
        conn.execute(sql); out = "ok"
    except psycopg.Error as e:
        out = e.sqlstate
    return out, (time.perf_counter() - t) * 1000
try:
    a = connect(True)
    for t in ("t1", "t2", "t3"):
        a.execute(f"CREATE TABLE {t} (id int PRIMARY KEY, v int)"); a.execute(f"INSERT INTO {t} VALUES (1, 1)")
    idle = connect(False); idle.execute("UPDATE t1 SET v = v + 1 WHERE id = 1")   # block left idle on t1
    print("CREATE TABLE beside an idle block on t1: %s in %.1f ms" % timed(a, "CREATE TABLE t4 (k int)"))
    print("CREATE INDEX ON t2 beside an idle block on t1: %s in %.1f ms" % timed(a, "CREATE INDEX t2_v ON t2 (v)"))
    # DDL on t1 waits for the idle block; meanwhile an UPDATE on t3.
    ddl_conn = connect(True); res = {}
    th = threading.Thread(target=lambda: res.setdefault("ddl", timed(ddl_conn, "CREATE INDEX t1_v ON t1 (v)"))); th.start()
    time.sleep(0.5)
    other = connect(True)
    print("UPDATE t3 while DDL on t1 waits for the block: %s in %.1f ms" % timed(other, "UPDATE t3 SET v = v + 1 WHERE id = 1"))
    idle.commit()
    th.join()
    print("the DDL on t1, ended by the block's COMMIT: %s in %.1f ms" % res["ddl"])
finally:
    srv.terminate(); srv.wait()
