"""Decisive words: which single-word edits change the outcome at a position, and the
fewest edits that do, worked out from a solution's stored values (see
`ghostdb.games.ghost.decisive.plain`; nothing is solved again) and kept in the ``decisive``
tables beside that solution.

An answer is worked out on the first request and stored in one write transaction; every
later request reads it back (one primary-key range).  The rows belong to the solution
they were worked out from, so a new solve of the rule set starts afresh, and replacing
the pool dictionary drops the answers that drew on it (`queries.clear_dictionary`).  A
reader that may not write (the web server) asks with ``compute=False`` and gets
NotWorkedOut when nothing is stored.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import String, cast, func, insert, null, select

from ghostdb import memory
from ghostdb.errors import BadMove, NotWorkedOut
from ghostdb.games.base import VALUE_NAMES
from ghostdb.games.ghost.rules import Variant
from ghostdb.store.answers import dictionaries
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.db import serialise, writing
from ghostdb.store.sql.queries import now
from ghostdb.store.sql.raw import FastQuery
from ghostdb.store.sql.schema import decisive as runs
from ghostdb.store.sql.schema import decisive_words, positions, solutions
from ghostdb.store.sql.schema import words as words_table

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from sqlalchemy.engine import Connection

    from ghostdb.games.base import RuleSet
    from ghostdb.games.ghost.fragments import Fragments
    from ghostdb.records import DecisiveWords, WhyDiffer
    from ghostdb.store.answers.handle import Handle, Opener

NORMALISING = ("keep_capitalised", "fold_accents")
"""Ingest options that change which words a list holds: a pool must share them."""

EDITS, WHY = "edits", "why"
"""The two questions stored: decisive words at a position, why two dictionaries differ."""
WORD_KINDS = ("delete", "add", "fewest_delete", "fewest_add")
WORD_FIELDS = ("kind", "word", "outcome", "move", "move_before", "move_after")


def decisive(
    solution: Handle, position: str = "", pool: str | None = None, compute: bool = True
) -> DecisiveWords:
    """See `Solution.decisive`."""
    from ghostdb.records import DecisiveWords

    solution.game.check_decisive()
    at = solution.lookup(position)  # the position, checked and in its stored form
    pool_id = _pool_id(solution, pool) if pool is not None else 0
    key = (solution.id, EDITS, at.fragment, pool_id)
    answer = _read(solution, key)
    if answer is None:
        if not compute:
            where = f" --position {at.fragment}" if at.fragment else ""
            with_pool = f" --pool {pool}" if pool is not None else ""
            raise NotWorkedOut(
                f"the decisive words of {solution.name} under {solution.rules.key} at "
                f"{repr(at.fragment) if at.fragment else 'the start'}"
                f"{with_pool and ' with ' + pool} are not "
                f"worked out yet: run `ghostdb decisive {solution.name}"
                f"{solution.rules.flags()}{where}{with_pool}` to work them out and keep them"
            )
        answer = _work_out(solution, key, at.fragment, pool)
    row, found = answer
    return DecisiveWords(
        name=solution.name,
        rules=solution.rules.key,
        position=at.fragment,
        outcome=at.outcome.value,
        to_move=at.to_move,
        pool=pool,
        deletions=tuple(found["delete"]),
        additions=None if pool is None else tuple(found["add"]),
        fewest=_fewest(row, found),
    )


def _work_out(
    solution: Handle, key: tuple[int, str, str, int], position: str, pool: str | None
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Work out and store the decisive words at ``position`` (see `Decider`)."""
    started = time.perf_counter()
    inputs = _inputs(solution.engine, key)  # before the words: see `_store`
    min_length = solution.rules.min_length
    pool_words = _pool(solution, pool, min_length) if pool is not None else None
    decider = _decider(solution)
    found = {
        "delete": decider.single_deletions(position),
        "add": [] if pool_words is None else decider.single_additions(position, pool_words),
    }
    fewest = decider.fewest(position, pool_words or ())
    row = {
        "outcome": decider.outcome(position),
        "target": fewest.outcome or decider.outcome(position),
        "fewest_count": fewest.count,
        "exact": fewest.exact,
        "only_here": None,
        "only_pool": None,
    }
    found["fewest_delete"] = [e for e in fewest.edits if not e.added]
    found["fewest_add"] = [e for e in fewest.edits if e.added]
    _store(solution, key, inputs, row, found, time.perf_counter() - started)
    return row, found


def why(open_solution: Opener, a: str, b: str, rules: RuleSet, compute: bool = True) -> WhyDiffer:
    """See `Store.why`."""
    from ghostdb.records import WhyDiffer

    left, right = open_solution(a, rules), open_solution(b, rules)
    left.game.check_decisive()
    start_a, start_b = left.lookup(), right.lookup()
    pool_id = _pool_id(left, b)
    key = (left.id, WHY, "", pool_id)
    answer = _read(left, key)
    if answer is None:
        if not compute:
            raise NotWorkedOut(
                f"why {a} and {b} differ under {rules.key} is not worked out yet: run "
                f"`ghostdb compare {a} {b}{rules.flags()} --why` to work it out and keep it"
            )
        answer = _work_out_why(left, key, b, start_b.outcome.value)
    row, found = answer
    differ = start_a.outcome != start_b.outcome
    return WhyDiffer(
        a=a,
        b=b,
        rules=rules.key,
        outcome_a=start_a.outcome.value,
        outcome_b=start_b.outcome.value,
        only_a=row["only_here"],
        only_b=row["only_pool"],
        fewest=_fewest(row, found) if differ else None,
    )


def _work_out_why(
    left: Handle, key: tuple[int, str, str, int], b: str, target: str
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    started = time.perf_counter()
    inputs = _inputs(left.engine, key)
    min_length = left.rules.min_length
    words_a = dictionaries.words(left.engine, left.name, min_length)
    words_b = _pool(left, b, min_length)  # ingested the same way, or one line why not
    both = set(words_a) & set(words_b)
    decider = _decider(left)
    outcome = decider.outcome("")
    found: dict[str, list[Any]] = {kind: [] for kind in WORD_KINDS}
    row = {
        "outcome": outcome,
        "target": target,
        "fewest_count": 0,
        "exact": True,
        "only_here": len(words_a) - len(both),
        "only_pool": len(words_b) - len(both),
    }
    if outcome != target:
        fewest = decider.fewest("", set(words_b) - both, both, target)
        row["fewest_count"], row["exact"] = fewest.count, fewest.exact
        found["fewest_delete"] = [e for e in fewest.edits if not e.added]
        found["fewest_add"] = [e for e in fewest.edits if e.added]
    _store(left, key, inputs, row, found, time.perf_counter() - started)
    return row, found


def _fewest(row: dict[str, Any], found: dict[str, list[Any]]) -> Any:
    """The stored fewest set as a `Fewest`."""
    from ghostdb.games.ghost.decisive.plain import Fewest

    count = row["fewest_count"]
    edits = tuple(sorted(found["fewest_delete"] + found["fewest_add"], key=lambda e: e.word))
    changed = count is not None and count > 0
    return Fewest(
        count,
        tuple(e.word for e in edits if not e.added),
        row["target"] if changed or count == 0 else None,
        tuple(e.word for e in edits if e.added),
        exact=bool(row["exact"]),
        edits=edits,
    )


# -- the tables --------------------------------------------------------------------------------


def _read(
    solution: Handle, key: tuple[int, str, str, int]
) -> tuple[dict[str, Any], dict[str, list[Any]]] | None:
    """A stored answer: its row and its words by kind, or None."""
    with solution.engine.connect() as conn:
        row = conn.execute(select(runs).where(*_match(runs, key))).mappings().first()
        return None if row is None else (dict(row), stored_words(conn, row))


def _inputs(engine: Any, key: tuple[int, str, str, int]) -> tuple[Any, ...]:
    """What an answer is worked out from, as the store says now: the solution's status
    and the pool's recorded hash."""
    with engine.connect() as conn:
        return _inputs_in(conn, key)


def _inputs_in(conn: Connection, key: tuple[int, str, str, int]) -> tuple[Any, ...]:

    solution_id, _, _, pool_id = key
    pool_sha = q.dictionary_sha256(conn, pool_id) if pool_id else None
    return q.job_status(conn, solution_id), pool_sha


def _store(
    solution: Handle,
    key: tuple[int, str, str, int],
    inputs: tuple[Any, ...],
    row: dict[str, Any],
    found: dict[str, list[Any]],
    seconds: float,
) -> None:
    """Keep an answer, unless another process kept the same one meanwhile, or what it was
    worked out from changed meanwhile (the solution superseded, the pool replaced: the
    answer is still returned, as read, but a stale one is never kept)."""
    keys = dict(zip(("solution_id", "question", "position", "pool_id"), key, strict=True))
    with writing(solution.engine) as conn:
        serialise(conn, runs)
        if conn.execute(select(runs.c.solution_id).where(*_match(runs, key))).first():
            return
        if _inputs_in(conn, key) != inputs or inputs[0] != "complete":
            return
        conn.execute(insert(runs).values(**keys, **row, seconds=seconds, worked_out_at=now()))
        rows = [
            dict(
                keys,
                kind=kind,
                word=e.word,
                outcome=e.outcome,
                move=e.move,
                move_before=e.move_before,
                move_after=e.move_after,
            )
            for kind, edits in found.items()
            for e in edits
        ]
        if rows:
            conn.execute(insert(decisive_words), rows)


def _match(table: Any, key: tuple[int, str, str, int]) -> list[Any]:
    solution_id, question, position, pool_id = key
    return [
        table.c.solution_id == solution_id,
        table.c.question == question,
        table.c.position == position,
        table.c.pool_id == pool_id,
    ]


def stored_answers(conn: Connection, solution_id: int) -> Sequence[Any]:
    """Every answer kept for a solution (for `verify`)."""
    return conn.execute(select(runs).where(runs.c.solution_id == solution_id)).mappings().all()


def stored_words(conn: Connection, row: Any) -> dict[str, list[Any]]:
    """The words of one kept answer (a ``decisive`` row), by kind, each kind in
    code-point order as worked out (a server's collation may sort text otherwise)."""
    from ghostdb.games.ghost.decisive.plain import Edit

    key = (row["solution_id"], row["question"], row["position"], row["pool_id"])
    fields = [decisive_words.c[f] for f in WORD_FIELDS]
    rows = conn.execute(select(*fields).where(*_match(decisive_words, key))).all()
    found: dict[str, list[Any]] = {kind: [] for kind in WORD_KINDS}
    for kind, word, outcome, move, before, after in sorted(rows, key=lambda r: r[1]):
        found[kind].append(Edit(word, kind.endswith("add"), outcome, move, before, after))
    return found


# -- verify -------------------------------------------------------------------------------------

"""How many words verify re-evaluates beyond those an answer lists, per answer."""


# -- what an answer is worked out from -----------------------------------------------------------


def values(solution: Handle) -> Mapping[str, str]:
    """Every stored fragment of a solution with its outcome: in plain Ghost a
    `Fragments` (arrays, the game words marked in it: see `read_fragments`), in the
    Super variants a dict."""
    with solution.engine.connect() as conn:
        if solution.rules.variant is not Variant.GHOST:
            return stored_values(conn, solution.id)
        dictionary = dictionaries.dictionary_row(conn, solution.name)
        found = read_fragments(conn, solution.id, dictionary.alphabet)
        found.mark_words(_word_pieces(conn, dictionary.id, solution.rules.min_length))
        return found


def stored_values(conn: Connection, solution_id: int) -> dict[str, str]:
    """Straight from the driver: SQLAlchemy's per-row work would double the time on a
    large list."""
    stmt = select(positions.c.fragment, positions.c.outcome).where(
        positions.c.solution_id == solution_id
    )
    rows = FastQuery(stmt, conn.dialect).run(conn.connection.driver_connection, {})
    return {fragment: VALUE_NAMES[code] for fragment, code in rows}


def _decider(solution: Handle) -> Any:
    """The solution's decider (`ghostdb.games.ghost.decisive.plain`), once the memory it needs
    is known to be there (TooBig otherwise, before anything is read)."""
    with solution.engine.connect() as conn:
        count = conn.execute(
            select(solutions.c.fragment_count).where(solutions.c.id == solution.id)
        ).scalar_one()
    plain = solution.rules.variant is Variant.GHOST
    memory.check_decisive(count or 0, plain, solution.name, solution.rules.describe())
    # Plain Ghost's fragments bring their words marked (read once, as arrays).
    min_length = solution.rules.min_length
    words = () if plain else dictionaries.words(solution.engine, solution.name, min_length)
    return solution.game.decider(words, values(solution))


PIECE = 1_000_000
"""How many fragments or words one read brings (as one text each)."""


def read_fragments(conn: Connection, solution_id: int, alphabet: str) -> Fragments:
    """A plain-Ghost solution's fragments and values as arrays, a length at a time, each
    piece of a length read as one text (the fragments end to end: all are that long)
    and one of outcome digits: no Python object a row."""
    import numpy as np

    from ghostdb.games.ghost.fragments import Encoder, Fragments

    code = Encoder(alphabet)
    won_code = np.array([name == "win" for name in VALUE_NAMES] + [False] * 6)
    keys: list[Any] = []
    won: list[Any] = []
    while True:
        level = _read_level(conn, solution_id, len(keys), code, won_code, alphabet)
        if level is None:
            break
        keys.append(level[0])
        won.append(level[1])
    return Fragments(alphabet, keys, np.concatenate(won) if won else np.zeros(0, bool))


def _read_level(
    conn: Connection, solution_id: int, n: int, code: Any, won_code: Any, alphabet: str
) -> tuple[Any, Any] | None:
    """The sorted keys and values of the fragments of ``n`` letters, or None if none."""
    import numpy as np

    from ghostdb.games.ghost.fragments import decode, flattened

    sqlite = conn.dialect.name == "sqlite"
    keys, won = [], []
    start: str | None = None  # a piece starts after the highest fragment of the one before
    while True:
        piece = (
            select(positions.c.fragment, positions.c.outcome)
            .where(positions.c.solution_id == solution_id, positions.c.level == n)
            .order_by(positions.c.fragment)
            .limit(PIECE)
        )
        if start is not None:
            piece = piece.where(positions.c.fragment > start)
        sub = piece.subquery()
        high = null() if sqlite else func.max(sub.c.fragment)
        text, digits, highest, count = conn.execute(
            select(
                func.aggregate_strings(sub.c.fragment, ""),
                func.aggregate_strings(cast(sub.c.outcome, String), ""),
                high,
                func.count(),
            )
        ).one()
        if not count:
            break
        if len(text) != count * n or len(digits) != count:
            raise ValueError(f"the fragments of level {n} are not {n} letters long")
        piece_keys = code(text, n)
        piece_won = won_code[np.frombuffer(digits.encode("ascii"), np.uint8) - ord("0")]
        if n == 0:  # the start alone
            return piece_keys, piece_won
        order = np.argsort(flattened(piece_keys), kind="stable")  # the database's order, or not
        keys.append(piece_keys[order])
        won.append(piece_won[order])
        if count < PIECE:
            break
        following = decode(code.alphabet, bytes(keys[-1][-1]), code.width) if sqlite else highest
        if following == start:  # a piece that does not move on would be read forever
            raise RuntimeError(f"reading the fragments stopped at {start!r}")
        start = following
    if not keys:
        return None
    level_keys, level_won = np.concatenate(keys), np.concatenate(won)
    if len(keys) > 1:  # pieces in a server's collation: sorted again by code point
        order = np.argsort(flattened(level_keys), kind="stable")
        level_keys, level_won = level_keys[order], level_won[order]
    return level_keys, level_won


def _word_pieces(conn: Connection, dictionary_id: int, min_length: int) -> Iterator[str]:
    """A dictionary's words of at least ``min_length`` letters, `PIECE` at a time, each
    piece one text of words joined by newlines (as `queries.dictionary_words` reads them,
    left unsplit)."""
    sqlite = conn.dialect.name == "sqlite"
    start: str | None = None
    while True:
        piece = (
            select(words_table.c.word)
            .where(
                words_table.c.dictionary_id == dictionary_id,
                func.length(words_table.c.word) >= min_length,
            )
            .order_by(words_table.c.word)
            .limit(PIECE)
        )
        if start is not None:
            piece = piece.where(words_table.c.word > start)
        sub = piece.subquery()
        high = null() if sqlite else func.max(sub.c.word)
        joined, highest, count = conn.execute(
            select(func.aggregate_strings(sub.c.word, "\n"), high, func.count())
        ).one()
        if not count:
            return
        yield joined
        if count < PIECE:
            return
        following = max(joined.split("\n")) if sqlite else highest
        if following == start:
            raise RuntimeError(f"reading the words stopped at {start!r}")
        start = following


def _pool_id(solution: Handle, pool: str) -> int:
    """The id of the pool dictionary (UnknownDictionary when there is none)."""
    if pool == solution.name:
        raise BadMove(f"the pool is {pool} itself: give another dictionary to add words from")
    with solution.engine.connect() as conn:
        return int(dictionaries.dictionary_row(conn, pool).id)


def _pool(solution: Handle, pool: str, min_length: int) -> list[str]:
    """The game words of another stored dictionary (its name checked by `_pool_id`),
    ingested the same way."""
    mine = dictionaries.dictionary(solution.engine, solution.name).report.get("options") or {}
    theirs = dictionaries.dictionary(solution.engine, pool).report.get("options") or {}
    for option in NORMALISING:
        if bool(mine.get(option)) != bool(theirs.get(option)):
            flag = "--" + option.replace("_", "-")
            raise BadMove(
                f"{pool} was ingested {'with' if theirs.get(option) else 'without'} {flag} and "
                f"{solution.name} {'with' if mine.get(option) else 'without'}: their words "
                f"are not comparable; ingest both the same way"
            )
    return dictionaries.words(solution.engine, pool, min_length)
