"""A published solution written out as a pack (`ghostdb.pack`), and a pack checked
against the solution it came from."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from ghostdb.pack import write_pack
from ghostdb.pack.format import Record
from ghostdb.positions import FIELDS
from ghostdb.store import queries as q
from ghostdb.store.schema import dictionaries, positions

if TYPE_CHECKING:
    from ghostdb.pack import Pack
    from ghostdb.store.handle import Handle

STREAM = 20_000
"""Rows fetched at a time while a solution is read out in key order."""


def pack_solution(solution: Handle, path: Path) -> tuple[int, int]:
    """Write ``solution`` (every stored position) to a pack at ``path``, read in one
    snapshot; (positions, bytes written)."""
    from ghostdb import __version__

    engine = solution.engine
    solution.refresh()
    with engine.connect() as conn, conn.begin():
        row = q.solution_by_id(conn, solution.id)
        if row is None:  # replaced or withdrawn since the refresh: ask again
            solution.refresh()
            row = q.solution_by_id(conn, solution.id)
        assert row is not None
        sha = None
        if row.dictionary_id is not None:
            sha = conn.execute(
                select(dictionaries.c.sha256).where(dictionaries.c.id == row.dictionary_id)
            ).scalar_one()
        header = {
            "game": solution.game.name,
            "name": solution.name,
            "rules": solution.rules.key,
            "alphabet": getattr(solution.game, "alphabet", ""),
            "solver_version": row.solver_version,
            "words_sha256": sha,
            "positions": row.fragment_count,
            "reachable": row.reachable_count,
            "solved_at": row.finished_at.isoformat() if row.finished_at else None,
            "packed_by": f"ghostdb {__version__}",
        }
        with _records(conn, row.id) as records:
            size = write_pack(path, header, records)
    return row.fragment_count, size


@contextlib.contextmanager
def _records(conn: Any, solution_id: int) -> Iterator[Iterator[Record]]:
    """Every position of a solution in key order (the key columns compare bytes: SQLite's
    BINARY, PostgreSQL's C collation, revision 0006), read on ``conn`` by a thread a
    batch ahead of their use, while the blocks are made; the thread is stopped on the
    way out, before ``conn`` may be used again."""
    stmt = (
        select(*(positions.c[f] for f in FIELDS))
        .where(positions.c.solution_id == solution_id)
        .order_by(positions.c.fragment)
    )
    # The raw connection's rows as they come (millions of them): SQLite's reachable is 0
    # or 1, which a pack takes as it takes False and True.
    ahead = q.stream_ahead(conn, stmt, STREAM)
    try:
        yield chain.from_iterable(ahead)
    finally:
        ahead.close()


def compare_with_store(pack: Pack, solution: Handle) -> list[str]:
    """Where ``pack`` and the stored ``solution`` disagree (at most a few named): its
    header's rule set, its positions, any position's fields, and every best move a probe
    of the pack gives (`ghostdb.positions.derived_best`) against the stored one."""
    problems: list[str] = []
    if (pack.header["game"], pack.header["rules"]) != (solution.game.name, solution.rules.key):
        return [f"the pack is of {pack.header['rules']}, the store's of {solution.rules.key}"]
    engine = solution.engine
    solution.refresh()
    differ = 0
    with engine.connect() as conn, conn.begin(), _records(conn, solution.id) as stored:
        for mine, theirs in _pairs(pack.records(), stored):
            if mine is not None and theirs is not None:
                mine = (*mine[:4], _derived_play(pack, mine[0], theirs[4]), *mine[5:])
            if mine != theirs:
                differ += 1
                if len(problems) < 5:
                    key = (mine or theirs)[0]  # type: ignore[index]
                    problems.append(_difference(key, mine, theirs))
    if differ > len(problems):
        problems.append(f"… {differ:,} positions differ in all")
    return problems


def _derived_play(pack: Pack, key: str, stored: int | None) -> int | None:
    """The number of the play a probe of ``key`` gives as the best move (None at a
    final position, where the store holds none either)."""
    if stored is None:
        return None
    found = pack.probe(key)
    return next((i for i, p in enumerate(found.plays) if p.move == found.best_move), None)


def _pairs(a: Iterator[Record], b: Iterator[Record]) -> Iterator[tuple[Any, Any]]:
    """Two key-ordered streams side by side, None where one lacks the other's key."""
    x, y = next(a, None), next(b, None)
    while x is not None or y is not None:
        if y is None or (x is not None and x[0].encode() < y[0].encode()):
            yield x, None
            x = next(a, None)
        elif x is None or y[0].encode() < x[0].encode():
            yield None, y
            y = next(b, None)
        else:
            yield x, y
            x, y = next(a, None), next(b, None)


def _difference(key: str, mine: Record | None, theirs: Record | None) -> str:
    if theirs is None:
        return f"{key!r} is in the pack, not in the store"
    if mine is None:
        return f"{key!r} is in the store, not in the pack"
    fields = [f for f, m, t in zip(FIELDS, mine, theirs, strict=True) if m != t]
    return f"{key!r} differs in {', '.join(fields)}"
