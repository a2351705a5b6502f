"""Solve jobs' less common paths: a job recorded with its rows because another process
held the write lock when it started, a failure in the plans, and a dictionary replaced
while it was being solved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import write_list

from ghostdb import NotSolved, Rules, Store, open_store
from ghostdb.errors import SolveFailed
from ghostdb.store.solving import bulk, jobs
from ghostdb.store.sql import queries as q

FIVE = "ghost green tan tree tries"


FRAGMENTS = ("", "g", "t", "tr", "gr")


def _answers(store: Store, rules: Rules | None = None) -> list[object]:
    return [store.solution("small", rules).lookup(f) for f in FRAGMENTS]


@pytest.fixture
def expected(tmp_path: Path) -> list[object]:
    """The answers of a plain solve of the same list, in a store of its own."""
    folder = tmp_path / "reference"
    folder.mkdir()
    with open_store(str(folder / "reference.db"), create=True) as reference:
        reference.ingest(write_list(folder, FIVE))
        reference.solve("small", Rules())
        return _answers(reference)


def _statuses(store: Store) -> list[tuple[str, str]]:
    return [(s.rules, s.status) for s in store.solutions("small")]


def _late(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if another process held the write lock when the job started."""
    monkeypatch.setattr(jobs, "_record", lambda engine, job: None)


def test_a_job_recorded_with_its_rows_publishes(
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    expected: list[object],
) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    _late(monkeypatch)
    result = jobs.run_solve(store.engine, "small", Rules())
    assert _statuses(store) == [("ghost/3", "complete")]
    assert _answers(store) == expected
    assert result.job_id == store.solutions("small")[0].id
    assert all(v.ok for v in store.verify("small", every=True))


@pytest.mark.parametrize("late", [False, True])
def test_a_failed_write_publishes_nothing_and_leaves_the_pool_clean(
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    late: bool,
    expected: list[object],
) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small", Rules())
    before = _statuses(store)
    if late:
        _late(monkeypatch)

    def fail(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(q, "bulk_insert", fail)
    with pytest.raises(SolveFailed, match="disk full"):
        jobs.run_solve(store.engine, "small", Rules(), force=True)
    # Recorded at the start: marked failed.  Recorded with the rows: rolled back with them.
    assert _statuses(store) == before + ([] if late else [("ghost/3", "failed")])
    assert _answers(store) == expected
    monkeypatch.undo()
    # No connection went back to the pool with a transaction open.
    for _ in range(3):
        jobs.run_solve(store.engine, "small", Rules(min_length=4), force=True)
    assert all(v.ok for v in store.verify("small", every=True))


@pytest.mark.parametrize("late", [False, True])
def test_a_dictionary_replaced_while_solving_publishes_nothing(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, late: bool
) -> None:
    store.ingest(write_list(tmp_path, FIVE))
    if late:
        _late(monkeypatch)
    rows = bulk.position_rows

    def replace_meanwhile(*args: Any) -> Any:
        # Reading and solving take no lock: another process may replace the words.
        folder = tmp_path / "other"
        folder.mkdir()
        other = write_list(folder, "zebra yak", name="small")
        store.ingest(other, replace=True)
        return rows(*args)

    monkeypatch.setattr(bulk, "position_rows", replace_meanwhile)
    with pytest.raises(NotSolved, match=r"replaced .* while it was being solved"):
        jobs.run_solve(store.engine, "small", Rules())
    assert [s for s in store.solutions("small") if s.status == "complete"] == []
    assert store.words("small") == ["yak", "zebra"]


@pytest.mark.parametrize(
    ("error", "raised"),
    [(OverflowError("plan sizes overflow 64 bits"), SolveFailed), (KeyboardInterrupt(), None)],
    ids=["error", "ctrl-c"],
)
def test_plans_that_fail_publish_nothing(
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: BaseException,
    raised: type[BaseException] | None,
    expected: list[object],
) -> None:
    """What goes wrong while the plans are worked out ends the solve before a row is
    written: the job is marked failed, nothing is published, and the store answers as
    before."""
    from ghostdb.errors import Interrupted
    from ghostdb.solvers import plans

    store.ingest(write_list(tmp_path, FIVE))
    store.solve("small", Rules())
    before = _statuses(store)
    written: list[str] = []
    insert = q.bulk_insert

    def counted(conn: Any, table: Any, *args: Any, **kwargs: Any) -> None:
        written.append(table.name)
        insert(conn, table, *args, **kwargs)

    def fail(*args: Any) -> None:
        raise error

    monkeypatch.setattr(q, "bulk_insert", counted)
    monkeypatch.setattr(plans, "solve", fail)
    with pytest.raises(raised or Interrupted, match=str(error) or "nothing was published"):
        jobs.run_solve(store.engine, "small", Rules(), force=True)
    assert written == []  # the plans come before the write lock
    assert _statuses(store) == [*before, ("ghost/3", "failed")]
    assert _answers(store) == expected
    monkeypatch.undo()
    jobs.run_solve(store.engine, "small", Rules(min_length=4), force=True)
    assert all(v.ok for v in store.verify("small", every=True))


def test_a_failed_solve_is_listed_with_the_one_line_the_user_saw(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A driver's error carries its SQL and parameters over several lines; the job keeps
    the line `ghostdb solve` printed, as `ghostdb solutions` lists it."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from ghostdb.store.sql.faults import describe

    store.ingest(write_list(tmp_path, FIVE))
    error = OperationalError(
        "INSERT INTO positions (solution_id, fragment) VALUES (?, ?)",
        [(1, "gh"), (1, "gho")],
        sqlite3.OperationalError("disk I/O error"),
    )
    assert "\n" in str(error)

    def fail(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(q, "bulk_insert", fail)
    with pytest.raises(SolveFailed):
        jobs.run_solve(store.engine, "small", Rules())
    (failed,) = [s for s in store.solutions("small") if s.status == "failed"]
    assert failed.error == describe(error) and "\n" not in failed.error
    assert "INSERT" not in failed.error and "disk I/O error" in failed.error
