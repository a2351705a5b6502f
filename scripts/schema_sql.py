"""Write migrations/head.sqlite.sql: the SQLite schema that running every migration creates.

    python scripts/schema_sql.py

A new empty SQLite database gets its schema from that file rather than from running the
migrations one by one (see ghostdb.store.sql.db); run this after adding a migration.  The tests
fail until the file matches the migrations.
"""

from __future__ import annotations

from pathlib import Path

from ghostdb.store.sql.db import HEAD_SQL, sqlite_head_sql

TARGET = Path(__file__).resolve().parent.parent / "migrations" / HEAD_SQL

if __name__ == "__main__":
    TARGET.write_text(sqlite_head_sql(), encoding="utf-8")
    print(f"wrote {TARGET.name}")
