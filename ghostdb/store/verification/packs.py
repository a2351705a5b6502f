"""A pack checked against the stored solution it was written from (`verify --db`): its
rule set, its positions, every field, and each best move a probe of it gives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ghostdb.positions import FIELDS
from ghostdb.store.exports.packs import stored_records

if TYPE_CHECKING:
    from ghostdb.pack import Pack
    from ghostdb.pack.format import Record
    from ghostdb.store.answers.handle import Handle


def compare_with_store(pack: Pack, solution: Handle) -> list[str]:
    """Where ``pack`` and the stored ``solution`` disagree (at most a few named): its
    header's rule set, its positions, any position's fields, and every best move a probe
    of the pack gives (`ghostdb.positions.derived_best`) against the stored one."""
    problems: list[str] = []
    if (pack.header["game"], pack.header["rules"]) != (solution.game.name, solution.rules.key):
        return [f"the pack is of {pack.header['rules']}, the store's of {solution.rules.key}"]
    engine = solution.engine
    solution.refresh()
    plays = _best_plays(pack)
    differ, row = 0, -1
    with engine.connect() as conn, conn.begin(), stored_records(conn, solution.id) as stored:
        for mine, theirs in _pairs(pack.records(), stored):
            row += mine is not None
            if mine is not None and theirs is not None:
                best = _derived_play(pack, plays, row, mine[0], theirs[4])
                mine = (*mine[:4], best, *mine[5:])
            if mine != theirs:
                differ += 1
                if len(problems) < 5:
                    key = (mine or theirs)[0]  # type: ignore[index]
                    problems.append(_difference(key, mine, theirs))
    if differ > len(problems):
        problems.append(f"… {differ:,} positions differ in all")
    return problems


def _best_plays(pack: Pack) -> Any:
    """The best play a probe gives of each of the pack's positions, all at once
    (`ghostdb.pack.moves.best_plays`), over the moves of the rule set's graph made from
    the pack's final positions; None where that graph cannot be made (each is probed)."""
    from ghostdb.pack.moves import best_plays, graph_of
    from ghostdb.pack.whole import read_whole

    whole = read_whole(pack)
    if whole.nul:
        return None
    words = whole.texts(whole.values >> 2 == 1)
    graph = graph_of(pack.game, words, lambda *_: None)
    return None if graph is None else best_plays(pack.game, graph, whole)


def _derived_play(pack: Pack, plays: Any, row: int, key: str, stored: int | None) -> int | None:
    """The number of the play a probe of ``key`` (the pack's row ``row``) gives as the
    best move (None at a final position, where the store holds none either): read from
    ``plays``, or a probe where they do not know it."""
    if stored is None:
        return None
    if plays is not None and plays[row] != -2:
        return None if plays[row] == -1 else int(plays[row])
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
