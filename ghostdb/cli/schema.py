"""`ghostdb db upgrade` and `db current`: the schema's revision."""

from __future__ import annotations

from ghostdb.cli.group import emit, remember, store_for, sub_app
from ghostdb.cli.options import DbOption, Json

db_app = sub_app("db", "Inspect and upgrade the database schema.")


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None) -> None:
    """Create the schema or upgrade it to the newest revision."""
    with store_for(db, create=True) as store:
        emit(f"schema at revision {store.schema_revision()}")


@db_app.command("current")
def db_current(db: DbOption = None, json: Json = False) -> None:
    """Show the schema revision of the database (changes nothing)."""
    from ghostdb.store.sql.db import inspect_schema

    remember(db)
    schema = inspect_schema(db)
    notes = {
        "head": "(head)",
        "older": f"(older than this ghostdb's {schema.head}: run `ghostdb db upgrade`)",
        "newer": f"(newer than this ghostdb knows, {schema.head}: upgrade ghostdb to use it)",
        "empty": "(no ghostdb schema yet: `ghostdb db upgrade` or `ghostdb ingest` creates it)",
    }
    note = notes[schema.state]
    if schema.foreign:
        note = "(no ghostdb schema: it holds tables of something else)"
    if json:
        from ghostdb.text.common import to_json

        state = "foreign" if schema.foreign else schema.state
        emit(to_json({"revision": schema.revision, "head": schema.head, "state": state}))
        return
    emit(f"{schema.revision or 'empty'} {note}")
