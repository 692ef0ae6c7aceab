#!/usr/bin/python3
"""An order-entry application in interactive transactions over psycopg 3
(autocommit off: BEGIN, one round trip per statement, COMMIT), as an
ordinary application writes it: read an item's stock, check it, write the
stock the client computed (qty - n: the read-modify-write that loses
updates when two run at once), insert the order, commit. Most orders go
to a few hot items. A serialization failure or deadlock (40001/40P01) is
rolled back and counted, not retried. Afterwards a ledger check: for every
item, its stock plus what its committed orders took must equal the initial
stock (a lost update breaks it).

Used by test/server/order_entry_test.py (against paceline-server) and by
script/interactive_vs_postgres.py (--app, against PostgreSQL too):

  script/order_entry.py --port 5433 --user paceline --dbname paceline
"""
import argparse
import random
import threading
import time

import psycopg

ITEMS = 100
HOT_ITEMS = 4
INITIAL_STOCK = 1_000_000


def run(connect, threads=16, seconds=4.0, hot_share=0.8):
    """Creates the tables (dropping old ones), runs the clients, checks the
    ledger. `connect(**kwargs)` opens a psycopg connection. Returns a dict:
    committed, failed, failed_share, tps, ledger_ok, errors."""
    with connect(autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS orders")
        conn.execute("DROP TABLE IF EXISTS stock")
        conn.execute("CREATE TABLE stock (item INT PRIMARY KEY, qty BIGINT NOT NULL)")
        conn.execute("CREATE TABLE orders (client INT NOT NULL, seq INT NOT NULL, item INT NOT NULL, "
                     "n INT NOT NULL, PRIMARY KEY (client, seq))")
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO stock VALUES (%s, %s)", [(i, INITIAL_STOCK) for i in range(ITEMS)])
    committed = [0] * threads
    failed = [0] * threads
    errors = []
    start = time.monotonic()
    deadline = start + seconds

    def client(t):
        rng = random.Random(t)
        try:
            with connect() as conn:  # autocommit off: a block per transaction
                seq = 0
                while time.monotonic() < deadline:
                    item = rng.randrange(HOT_ITEMS) if rng.random() < hot_share else rng.randrange(ITEMS)
                    n = rng.randint(1, 5)
                    try:
                        qty = conn.execute("SELECT qty FROM stock WHERE item = %s", (item,)).fetchone()[0]
                        if qty < n:
                            conn.rollback()
                            continue
                        conn.execute("UPDATE stock SET qty = %s WHERE item = %s", (qty - n, item))
                        conn.execute("INSERT INTO orders VALUES (%s, %s, %s, %s)", (t, seq, item, n))
                        conn.commit()
                        seq += 1
                        committed[t] += 1
                    except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
                        conn.rollback()
                        failed[t] += 1
        except Exception as e:  # noqa: BLE001 - reported to the caller
            errors.append(repr(e))

    workers = [threading.Thread(target=client, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.monotonic() - start
    with connect(autocommit=True) as conn:
        stock = dict(conn.execute("SELECT item, qty FROM stock").fetchall())
        taken = dict(conn.execute("SELECT item, sum(n) FROM orders GROUP BY item").fetchall())
        orders = conn.execute("SELECT count(*) FROM orders").fetchone()[0]
    ledger_ok = orders == sum(committed) and all(
        stock[i] + int(taken.get(i, 0)) == INITIAL_STOCK for i in range(ITEMS))
    total = sum(committed) + sum(failed)
    return {"committed": sum(committed), "failed": sum(failed), "failed_share": sum(failed) / max(1, total),
            "tps": sum(committed) / elapsed, "ledger_ok": ledger_ok, "errors": errors}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5433)
    p.add_argument("--user", default="paceline")
    p.add_argument("--dbname", default="paceline")
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--seconds", type=float, default=4.0)
    args = p.parse_args()
    r = run(lambda **kw: psycopg.connect(host=args.host, port=args.port, user=args.user, dbname=args.dbname,
                                         connect_timeout=10, **kw), args.threads, args.seconds)
    print(r)


if __name__ == "__main__":
    main()
