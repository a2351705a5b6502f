"""The models and the Alembic migrations agree; upgrades and downgrades work."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from ghostdb.db import alembic_config, current_revision, make_engine, upgrade
from ghostdb.schema import HEAD_REVISION, metadata
from ghostdb.store import open_store


def test_single_head_matches_the_code() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [HEAD_REVISION]


def test_upgrade_of_an_empty_database_reaches_head_and_matches_models(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "m.db"))
    upgrade(engine)
    with engine.connect() as conn:
        assert current_revision(conn) == HEAD_REVISION
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []


def test_downgrade_to_base_and_back(tmp_path: Path) -> None:
    engine = make_engine(str(tmp_path / "m.db"))
    upgrade(engine)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "base")
    with engine.connect() as conn:
        assert current_revision(conn) is None
    upgrade(engine)
    with engine.connect() as conn:
        assert current_revision(conn) == HEAD_REVISION


def test_older_database_is_upgraded_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = make_engine(str(path))
    upgrade(engine, "0001")
    engine.dispose()
    with open_store(str(path)) as store:
        assert store.schema_revision() == HEAD_REVISION
