#!/usr/bin/env python3
"""SQLAlchemy 2 itself against paceline-server (postgresql+psycopg): the
application of capture_sqlalchemy.py run by the ORM (create_all, every
request handler, the final contents compared with what PostgreSQL 15
answered in the capture, sqlalchemy_app.case), reflection through
inspect(engine), drop_all, and one Alembic migration (add a column,
upgrade and downgrade). Run by ctest with .venv/bin/python (script/setup
creates .venv with SQLAlchemy 2 and Alembic) and the server binary as the
only argument; without SQLAlchemy 2 or Alembic there it exits 77, which
ctest reports as skipped, and says why."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

SKIP = 77
try:
    import sqlalchemy
    from sqlalchemy import create_engine, inspect, text
    from alembic import command
    from alembic.config import Config
except ImportError as e:
    print(f"sqlalchemy_live_test.py: skipped: {e} (script/setup installs SQLAlchemy 2 and Alembic into .venv)")
    sys.exit(SKIP)
if int(sqlalchemy.__version__.split(".")[0]) != 2:
    print(f"sqlalchemy_live_test.py: skipped: SQLAlchemy {sqlalchemy.__version__}, not 2")
    sys.exit(SKIP)

import capture_sqlalchemy as app  # noqa: E402
import psycopg  # noqa: E402
from psycopg.adapt import Loader  # noqa: E402
import case_file  # noqa: E402
from server_process import ServerProcess  # noqa: E402

BINARY = None


class AsText(Loader):
    """A value as the server's text format sent it."""

    def load(self, data):
        return bytes(data).decode()


def final_contents_from_capture():
    """PostgreSQL 15's answers to the application's last five SELECTs (the
    tables' contents after every handler ran), from the capture."""
    _, records = case_file.parse(os.path.join(HERE, "sqlalchemy_app.case"))
    finals = [r for r in records if r.sql.startswith("SELECT") and "ORDER BY" in r.sql and r.sql.count("FROM") == 1
              and r.params == []]
    return [r.rows for r in finals[-5:]]


class SqlalchemyLiveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ServerProcess(BINARY, "--workers=2").start()
        cls.url = f"postgresql+psycopg://tester@127.0.0.1:{cls.server.port}/paceline"

    @classmethod
    def tearDownClass(cls):
        code, err = cls.server.stop()
        assert code == 0, err

    def test_1_the_application_through_the_orm(self):
        engine = create_engine(self.url)
        self.addCleanup(engine.dispose)
        app.run_app(engine, note=lambda _: None, checkpoint=lambda _: None)
        # The tables' contents in PostgreSQL's text format, as the capture keeps them.
        conn = psycopg.connect(host="127.0.0.1", port=self.server.port, dbname="paceline", user="tester")
        self.addCleanup(conn.close)
        for oid in (16, 20, 23, 25, 1043, 1114, 3802):
            conn.adapters.register_loader(oid, AsText)
        got = []
        for sql in ("SELECT id, name, email, created_at FROM users ORDER BY id",
                    "SELECT id, user_id, title, body, published, meta, created_at FROM posts ORDER BY id",
                    "SELECT id, post_id, user_id, body FROM comments ORDER BY id",
                    "SELECT id, name FROM tags ORDER BY id",
                    "SELECT post_id, tag_id FROM post_tags ORDER BY post_id, tag_id"):
            got.append([list(row) for row in conn.execute(sql).fetchall()])
        self.assertEqual(got, final_contents_from_capture())

    def test_2_reflection(self):
        engine = create_engine(self.url)
        self.addCleanup(engine.dispose)
        insp = inspect(engine)
        self.assertEqual(sorted(insp.get_table_names()), ["comments", "post_tags", "posts", "tags", "users"])
        columns = {c["name"]: c for c in insp.get_columns("posts")}
        self.assertEqual(list(columns), ["id", "user_id", "title", "body", "published", "meta", "created_at"])
        self.assertEqual(str(columns["title"]["type"]), "VARCHAR(200)")
        self.assertFalse(columns["title"]["nullable"])
        self.assertIn("nextval", str(columns["id"]["default"]))
        self.assertEqual(insp.get_pk_constraint("post_tags")["constrained_columns"], ["post_id", "tag_id"])
        fks = insp.get_foreign_keys("post_tags")
        self.assertEqual(sorted((fk["referred_table"], fk["constrained_columns"][0], fk["options"].get("ondelete"))
                                for fk in fks), [("posts", "post_id", "CASCADE"), ("tags", "tag_id", "CASCADE")])
        self.assertEqual([u["column_names"] for u in insp.get_unique_constraints("users")], [["email"]])
        users_id = {c["name"]: c for c in insp.get_columns("users")}["id"]
        self.assertIsNotNone(users_id.get("identity"), users_id)

    # pg_index's indkey, indclass and indoption are int2vector/oidvector,
    # whose text ("1 2") SQLAlchemy splits.
    def test_2b_reflection_of_indexes(self):
        engine = create_engine(self.url)
        self.addCleanup(engine.dispose)
        indexes = {i["name"]: i for i in inspect(engine).get_indexes("posts")}
        self.assertEqual(indexes["ix_posts_user_id"]["column_names"], ["user_id"])
        self.assertFalse(indexes["ix_posts_user_id"]["unique"])

    def test_3_alembic_migration_up_and_down(self):
        engine = create_engine(self.url)
        self.addCleanup(engine.dispose)
        with tempfile.TemporaryDirectory() as tmp:
            scripts = os.path.join(tmp, "migrations")
            cfg = Config(os.path.join(tmp, "alembic.ini"))
            cfg.set_main_option("script_location", scripts)
            cfg.set_main_option("sqlalchemy.url", self.url)
            command.init(cfg, scripts, template="generic")
            rev = command.revision(cfg, message="add users.bio", rev_id="a1")
            with open(rev.path) as f:
                body = f.read()
            # The generated functions' bodies are `pass` (after a docstring in
            # newer Alembic): each gets its operation.
            up, down = body.split("def downgrade(")
            up = up.replace("    pass", "    op.add_column('users', sa.Column('bio', sa.Text(), server_default='none'))")
            down = down.replace("    pass", "    op.drop_column('users', 'bio')")
            body = up + "def downgrade(" + down
            with open(rev.path, "w") as f:
                f.write(body)
            command.upgrade(cfg, "head")
            with engine.connect() as conn:
                self.assertEqual(conn.execute(text("SELECT version_num FROM alembic_version")).scalar(), "a1")
                self.assertEqual(conn.execute(text("SELECT bio FROM users WHERE id = 1")).scalar(), "none")
            self.assertIn("bio", [c["name"] for c in inspect(engine).get_columns("users")])
            command.downgrade(cfg, "base")
            self.assertNotIn("bio", [c["name"] for c in inspect(engine).get_columns("users")])
            with engine.connect() as conn:
                self.assertEqual(conn.execute(text("SELECT count(*) FROM alembic_version")).scalar(), 0)

    def test_4_drop_all(self):
        engine = create_engine(self.url)
        self.addCleanup(engine.dispose)
        app.Base.metadata.drop_all(engine)
        self.assertEqual(inspect(engine).get_table_names(), ["alembic_version"])


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
