"""Lookups: a stored position and its plays, by the fastest read the database allows.

The hot path of ghostdb (the computer player, the web page, a `ghostdb lookup` process)
is here, with what makes it fast: the published solution's id and game are found once
and cached (`SolutionRef`); each thread reads through a raw DB-API connection in
autocommit mode with statements compiled once; plain Ghost on SQLite reads a position
and its plays as one range of the primary key; and the Position of that read is built
from plain tuples.  Nothing here imports numpy, the solvers or the solve jobs.

A lookup reads by a solution id cached when it was found.  It needs no check that the
solution is still the published one: a superseded solution's rows stay whole until the
one transaction that deletes them all, so a stale id reads the old complete solution or
finds nothing, and the caller then asks for the new id (`Lookups.ref` with ``refresh``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import threading
from collections.abc import Sequence
from itertools import groupby
from typing import Any, NamedTuple

from sqlalchemy import Integer, bindparam, select, text, union_all
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import Select

from ghostdb.errors import DeadFragment, NotSolved, UnknownDictionary
from ghostdb.games import registry as g
from ghostdb.games.base import Game, RuleSet
from ghostdb.games.registry import played_as
from ghostdb.positions import DRAW as _DRAW
from ghostdb.positions import FIELDS as POSITION_FIELDS
from ghostdb.positions import LOSS as _LOSS
from ghostdb.positions import OUTCOMES as _OUTCOMES
from ghostdb.positions import best_move as _best_move
from ghostdb.positions import move_counts as _move_counts
from ghostdb.positions import position_from_rows as _position
from ghostdb.positions import seats as _seats
from ghostdb.store.sql import raw
from ghostdb.values import Play, Position

# The schema's tables (`ghostdb.store.sql.schema`) and the Core queries over them are imported
# by the functions that use them: building the tables is more of a `ghostdb lookup`
# process's start than the lookup, which reads through SQL text (`POSITIONS`, `ref`).

LOOKUP_CACHE_KIB = 16 * 1024
"""The page cache of a thread's SQLite connection for lookups (see `Lookups.dbapi`)."""

BATCH_KEYS = 1000
"""The most plain-Ghost positions `Lookups.read_many` asks for in one statement."""


class SolutionRef(NamedTuple):
    """A published solution as a lookup needs it: its id and the game to read it with."""

    id: int
    has_plans: bool
    game: Game


class Lookups:
    """The lookup machinery of one store: its cached solution refs, its compiled
    statements and each thread's raw connection."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._refs: dict[tuple[str, RuleSet], SolutionRef] = {}
        self._queries: dict[int, tuple[raw.FastQuery, list[str]]] = {}
        self._plan_play: raw.FastQuery | None = None
        # Where every move appends a character (plain Ghost), a position and its plays
        # are one range of the primary key (see `extended_positions_sql`).
        self.range_sql = extended_positions_sql(engine.dialect.name)
        self.batch_sql = batch_positions_sql(engine.dialect.name)
        self.level_sql = level_positions_sql(engine.dialect.name)
        self._local = threading.local()

    def close(self) -> None:
        """Close this thread's raw connection, if it opened one."""
        raw = getattr(self._local, "raw", None)
        if raw is not None:
            if self.engine.dialect.name != "sqlite":  # back to the pool as it came
                raw.driver_connection.execute("RESET plan_cache_mode")
                # A pooled connection left in autocommit would run the next writer's
                # statements (a solve publishing on the same engine) outside its
                # transaction.
                raw.driver_connection.autocommit = False
            raw.close()
            del self._local.raw, self._local.driver

    # -- which solution --------------------------------------------------------------------

    def ref(self, name: str, rules: RuleSet, *, refresh: bool = False) -> SolutionRef:
        """The published solution of ``name`` under (checked) ``rules``, cached; with
        ``refresh``, found again (a cached id that was superseded finds no rows)."""
        key = (name, rules)
        ref = None if refresh else self._refs.get(key)
        if ref is None:
            with self.engine.connect() as conn:
                game, dictionary_id, alphabet = played_as(name), None, ""
                if game.word_game:  # as `dictionaries.subject`, keeping the row for its alphabet
                    dictionary = conn.execute(DICTIONARY_SQL, {"name": name}).first()
                    if dictionary is None:
                        raise UnknownDictionary.named(name)
                    dictionary_id, alphabet = dictionary.id, dictionary.alphabet
                row = solution_ref(conn, game.name, dictionary_id, rules.key)
                if row is None:
                    solution_row(conn, name, rules)  # raises the right error
            ref = SolutionRef(row.id, bool(row.has_plans), g.game_of(rules, alphabet))
            self._refs[key] = ref
        return ref

    # -- reading positions -----------------------------------------------------------------

    def read(self, name: str, ref: SolutionRef, key: str) -> Position | None:
        """The position at (canonical) ``key`` with its plays; None when it is not stored
        under ``ref`` (not a position, or the solution was republished meanwhile)."""
        game = ref.game
        if self.range_sql is not None and game.children_extend_key:
            args: Any = (ref.id, len(key), key, key + _HIGHEST)
            if self.engine.dialect.name != "sqlite":
                args = dict(zip("slfh", args, strict=True))
            rows = self.dbapi().execute(self.range_sql, args).fetchall()
            if rows and rows[0][0] == key:
                return _extended_position(name, game, key, rows)
            return None
        candidates = game.candidates(key)
        query, names = self._positions_query(len(candidates))
        params: dict[str, Any] = dict(zip(names, (c for _, c in candidates), strict=True))
        level = game.level(key)
        params["solution_id"] = ref.id
        params["f"] = key
        params["level"] = level
        params["child_level"] = game.level(candidates[0][1]) if candidates else level
        rows = query.run(self.dbapi(), params)
        for row in rows:
            if row[0] == key:
                return _position(name, game, key, rows, candidates)
        return None

    def read_many(self, name: str, ref: SolutionRef, keys: Sequence[str]) -> list[Position | None]:
        """`read` of each (canonical) key, in order, all in one read snapshot: what one
        process publishes meanwhile is seen by all of them or by none.

        One transaction instead of one a lookup: on SQLite that spares each read the
        file locks of its own transaction (a third of a lookup's time).  Plain Ghost's
        positions are read a thousand a statement (`batch_positions_sql`): on PostgreSQL
        a round trip costs more than the server's reading of a position.  The collector
        is paused meanwhile: the positions built are no cycles, and collecting as they
        pile up would cost a fifth of the time."""
        driver = self.dbapi()
        sqlite = self.engine.dialect.name == "sqlite"
        collecting = gc.isenabled()
        gc.disable()
        driver.execute("BEGIN" if sqlite else "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        try:
            if self.batch_sql is not None and ref.game.children_extend_key:
                found = self._read_batches(name, ref, keys)
            elif self.level_sql is not None and len(keys) > 1:
                found = self._read_by_level(name, ref, keys)
            else:
                found = [self.read(name, ref, key) for key in keys]
        except BaseException:
            with contextlib.suppress(Exception):  # the error that ended the reads is told
                driver.execute("ROLLBACK")
            raise
        finally:
            if collecting:
                gc.enable()
        driver.execute("COMMIT")
        return found

    def _read_batches(
        self, name: str, ref: SolutionRef, keys: Sequence[str]
    ) -> list[Position | None]:
        """Plain Ghost: `batch_positions_sql`, `BATCH_KEYS` keys a statement."""
        found: list[Position | None] = []
        game = ref.game
        sqlite = self.engine.dialect.name == "sqlite"
        for lo in range(0, len(keys), BATCH_KEYS):
            part = keys[lo : lo + BATCH_KEYS]
            args: Any
            if sqlite:
                args = (ref.id, json.dumps(part, ensure_ascii=False))
            else:
                args = {
                    "s": ref.id,
                    "l": [len(key) for key in part],
                    "f": list(part),
                    "h": [key + _HIGHEST for key in part],
                }
            rows = self.dbapi().execute(self.batch_sql, args).fetchall()
            heads: dict[int, list[Any]] = {}
            for i, group in groupby(rows, key=lambda r: r[0]):
                heads[i] = [r[2:] for r in group]
            for i, key in enumerate(part, 0 if sqlite else 1):
                got = heads.get(i)
                ok = got is not None and got[0][0] == key
                found.append(_extended_position(name, game, key, got) if ok else None)
        return found

    def _read_by_level(
        self, name: str, ref: SolutionRef, keys: Sequence[str]
    ) -> list[Position | None]:
        """Any other game: the keys and every candidate child of theirs, deduplicated and
        read level by level, `BATCH_KEYS` a statement (`level_positions_sql`).  Siblings
        share most of their candidates (SuperGhost adds a letter at either end): a walk's
        level of 250 positions is a few statements, not 250, each of which gave the
        interpreter lock up and waited to take it back behind a busy server's loop."""
        game = ref.game
        sqlite = self.engine.dialect.name == "sqlite"
        candidates = [game.candidates(key) for key in keys]
        wanted: dict[int, set[str]] = {}
        for key, plays in zip(keys, candidates, strict=True):
            wanted.setdefault(game.level(key), set()).add(key)
            for _, child in plays:
                wanted.setdefault(game.level(child), set()).add(child)
        rows: dict[str, Any] = {}
        for level, group in wanted.items():
            ordered = sorted(group)
            for lo in range(0, len(ordered), BATCH_KEYS):
                part = ordered[lo : lo + BATCH_KEYS]
                args: Any = (
                    (ref.id, level, json.dumps(part, ensure_ascii=False))
                    if sqlite
                    else {"s": ref.id, "l": level, "f": part}
                )
                for row in self.dbapi().execute(self.level_sql, args).fetchall():
                    rows[row[0]] = row
        found: list[Position | None] = []
        for key, plays in zip(keys, candidates, strict=True):
            if key not in rows:
                found.append(None)
                continue
            near = [rows[key], *(rows[c] for _, c in plays if c in rows)]
            found.append(_position(name, game, key, near, plays))
        return found

    def plan_play(self, ref: SolutionRef, key: str) -> int | None:
        """The play number of the stored plan's move at ``key`` (numbered as
        `Position.plays`); None when none is stored (a final or unreachable position, or
        the solution was republished meanwhile)."""
        if self._plan_play is None:
            from ghostdb.store.sql.schema import HAS_PLAN, positions

            stmt = select(positions.c.plan_play).where(
                positions.c.solution_id == bindparam("solution_id", type_=Integer),
                positions.c.level == bindparam("level", type_=Integer),
                positions.c.fragment == bindparam("f"),
                HAS_PLAN,
            )
            self._plan_play = raw.FastQuery(stmt, self.engine.dialect)
        params = {"solution_id": ref.id, "level": ref.game.level(key), "f": key}
        rows = self._plan_play.run(self.dbapi(), params)
        return rows[0][0] if rows else None

    def not_stored(self, name: str, rules: RuleSet, ref: SolutionRef, key: str) -> Exception:
        """The error for a key that is not a stored position: NotSolved if the solution
        is gone, else DeadFragment in the game's own words (`Game.not_stored`)."""
        game = ref.game
        with self.engine.connect() as conn:
            solution = solution_row(conn, name, rules)

            def stored(other: str) -> bool:
                return position_exists(conn, solution.id, game.level(other), other)

            return DeadFragment(game.not_stored(key, stored, name))

    def dbapi(self) -> Any:
        """This thread's raw DB-API connection for lookups, in autocommit mode so each
        query sees the latest published data."""
        try:
            return self._local.driver
        except AttributeError:
            raw = self.engine.raw_connection()
            if self.engine.dialect.name != "sqlite":  # SQLite's is autocommit already
                raw.driver_connection.autocommit = True
                # A lookup's statements are prepared once and always read one key range;
                # left to choose, PostgreSQL plans each execution again (its estimate of a
                # range with unknown bounds favours a custom plan), twice a lookup's time.
                raw.driver_connection.execute("SET plan_cache_mode = force_generic_plan")
            else:
                # Each lookup reads about two pages from anywhere in a solution: a page
                # cache that holds a whole ENABLE Ghost solution (16 MB) rather than
                # SQLite's default 2 MiB makes ENABLE lookups 10% faster.  It fills only
                # as pages are read, and SQLite empties it when another process writes.
                raw.driver_connection.execute(f"PRAGMA cache_size={-LOOKUP_CACHE_KIB}")
            self._local.raw = raw
            self._local.driver = raw.driver_connection
            return self._local.driver

    def _positions_query(self, count: int) -> tuple[raw.FastQuery, list[str]]:
        """The query for a position and ``count`` candidate children, and the names of the
        children's parameters."""
        found = self._queries.get(count)
        if found is None:
            query = raw.FastQuery(positions_statement(count), self.engine.dialect)
            found = self._queries[count] = (query, [f"c{i}" for i in range(count)])
        return found


def checked_rules(name: str, rules: RuleSet | str | None) -> RuleSet:
    """The given rules (a rule set, or its label such as ``superduper/3``: see
    `ghostdb.games.registry.rules_given`), checked against ``name``'s game, or that
    game's default."""
    return g.rules_given(name, rules)


def solution_row(conn: Connection, name: str, rules: RuleSet) -> Any:
    """The published solution's row; raise UnknownDictionary or NotSolved."""
    # Imported here: `dictionaries` brings the schema's tables, which a lookup that finds
    # its position never loads.
    from ghostdb.store.answers.dictionaries import subject
    from ghostdb.store.sql import queries as q

    row = q.published_solution(conn, *subject(conn, name), rules.key)
    if row is None:
        raise NotSolved(
            f"{name} is not solved for {rules.describe()}: run `ghostdb solve {name}"
            f"{rules.flags()}`"
        )
    return row


# -- SQL -----------------------------------------------------------------------------------
#
# Plays are not stored: a play is a stored position one move away.  A lookup asks for the
# position and every candidate the game's moves make from it, in one query through the
# primary key.


POSITIONS = "positions"
"""The name of the table of positions (`ghostdb.store.sql.schema.positions`, a test holds them
equal), for the statements below, which are SQL text."""

DICTIONARY_SQL = text("SELECT id, alphabet FROM dictionaries WHERE name = :name")
"""A dictionary's id and alphabet by its name (`ghostdb.store.sql.queries.dictionary_by_name`)."""
_PUBLISHED = "SELECT id, has_plans FROM solutions WHERE status = 'complete' AND rules = :rules"
SOLUTION_REF_SQL = {
    "dictionary": text(f"{_PUBLISHED} AND dictionary_id = :owner"),
    "game": text(f"{_PUBLISHED} AND dictionary_id IS NULL AND game = :owner"),
}
"""The published solution of a rule set of a dictionary's game, or of a game played
without one (`ghostdb.store.sql.queries.published_solution`): SQL text, as compiling a Core
statement costs every lookup process a millisecond (a test holds the two to the same
rows)."""


def solution_ref(
    conn: Connection, game: str, dictionary_id: int | None, rules_key: str
) -> Any | None:
    """The published solution of a rule set: ``id`` and ``has_plans``."""
    if dictionary_id is None:
        return conn.execute(SOLUTION_REF_SQL["game"], {"owner": game, "rules": rules_key}).first()
    params = {"owner": dictionary_id, "rules": rules_key}
    return conn.execute(SOLUTION_REF_SQL["dictionary"], params).first()


def position_exists(conn: Connection, solution_id: int, level: int, fragment: str) -> bool:
    from ghostdb.store.sql.schema import positions

    stmt = select(positions.c.outcome).where(
        positions.c.solution_id == solution_id,
        positions.c.level == level,
        positions.c.fragment == fragment,
    )
    return conn.execute(stmt).first() is not None


def _position_rows(level: str, match: Any) -> Select[Any]:
    from ghostdb.store.sql.schema import positions

    return select(*(positions.c[f] for f in POSITION_FIELDS)).where(
        positions.c.solution_id == bindparam("solution_id", type_=Integer),
        positions.c.level == bindparam(level, type_=Integer),
        match,
    )


def positions_statement(count: int) -> Any:
    """The position ``f`` at level ``level`` and the positions ``c0`` … ``c{count-1}`` at
    level ``child_level`` of solution ``solution_id``."""
    from ghostdb.store.sql.schema import positions

    head = _position_rows("level", positions.c.fragment == bindparam("f"))
    if count == 0:
        return head
    children = _position_rows(
        "child_level", positions.c.fragment.in_([bindparam(f"c{i}") for i in range(count)])
    )
    return union_all(head, children)


def extended_positions_sql(dialect: str) -> str | None:
    """The position at a level of a solution, then every position of the next level
    between it and it followed by the highest character: in plain Ghost, its plays, read
    as one range of the primary key.  The range needs keys compared by code point:
    SQLite compares text byte by byte, and PostgreSQL's key columns are in the C
    collation (revision 0006); None for another database.

    SQL text rather than a Core statement: compiling one costs every `ghostdb lookup`
    process a millisecond, and numbered parameters spare each lookup binding seven.
    Parameters: solution id, level, key, key followed by the highest character (SQLite's
    ``?1`` … ``?4``; PostgreSQL's ``%(s)s``, ``%(l)s``, ``%(f)s``, ``%(h)s``)."""
    if dialect == "sqlite":
        s, level, f, h = "?1", "?2", "?3", "?4"
    elif dialect == "postgresql":
        s, level, f, h = "%(s)s", "%(l)s", "%(f)s", "%(h)s"
    else:
        return None
    rows = f"SELECT {', '.join(POSITION_FIELDS)} FROM {POSITIONS} WHERE solution_id = {s}"
    head = f"{rows} AND level = {level} AND fragment = {f}"
    return f"{head} UNION ALL {rows} AND level = {level} + 1 AND fragment > {f} AND fragment < {h}"


def level_positions_sql(dialect: str) -> str | None:
    """The positions of one level of a solution whose keys are in a list: SQLite's ``?1``
    the solution id, ``?2`` the level, ``?3`` a JSON array of keys; PostgreSQL's
    ``%(s)s``, ``%(l)s`` and ``%(f)s`` an array.  None for another database."""
    fields = ", ".join(POSITION_FIELDS)
    rows = f"SELECT {fields} FROM {POSITIONS} WHERE solution_id = "
    if dialect == "sqlite":
        return f"{rows}?1 AND level = ?2 AND fragment IN (SELECT value FROM json_each(?3))"
    if dialect == "postgresql":
        return f"{rows}%(s)s AND level = %(l)s AND fragment = ANY(%(f)s::text[])"
    return None


def batch_positions_sql(dialect: str) -> str | None:
    """`extended_positions_sql` for many positions at once: each key's rows together, in
    the keys' order (the key's number first: from 0 on SQLite, from 1 on PostgreSQL),
    then 0 for the head and 1 for a play, then the fields; head first, plays in key
    order.  One statement for a thousand keys spares a round trip each on PostgreSQL,
    and on SQLite the driver's work of a statement each.

    Parameters: SQLite's ``?1`` the solution id, ``?2`` a JSON array of the keys (a
    key's level is its length); PostgreSQL's ``%(s)s`` the solution id, ``%(l)s``,
    ``%(f)s``, ``%(h)s`` arrays of levels, keys and keys followed by the highest
    character.  None for another database."""
    fields = ", ".join(f"p.{f}" for f in POSITION_FIELDS)
    head = "p.level = k.level AND p.fragment = k.fragment"
    plays = "p.level = k.level + 1 AND p.fragment > k.fragment AND p.fragment < {high}"
    if dialect == "sqlite":
        keys = "(SELECT key AS i, value AS fragment, length(value) AS level FROM json_each(?2))"
        rows = f"FROM {keys} AS k JOIN {POSITIONS} AS p ON p.solution_id = ?1 AND"
        high = "k.fragment || char(1114111)"
        return (
            f"SELECT k.i, 0, {fields} {rows} {head}"
            f" UNION ALL SELECT k.i, 1, {fields} {rows} {plays.format(high=high)}"
            " ORDER BY 1, 2, 3"
        )
    if dialect != "postgresql":
        return None
    # PostgreSQL plans a join of the keys with the table as a scan of the table: each
    # key's two reads are a lateral subquery instead, two index probes a key.
    rows = f"{fields} FROM {POSITIONS} AS p WHERE p.solution_id = %(s)s AND"
    picked = ", ".join(f"r.{f}" for f in POSITION_FIELDS)
    return (
        f"SELECT k.i, r.side, {picked}"
        " FROM unnest(%(l)s::integer[], %(f)s::text[], %(h)s::text[])"
        " WITH ORDINALITY AS k(level, fragment, high, i)"
        f" CROSS JOIN LATERAL (SELECT 0 AS side, {rows} {head}"
        f" UNION ALL SELECT 1, {rows} {plays.format(high='k.high')}) AS r"
        " ORDER BY k.i, r.side, r.fragment"
    )


# -- Position builders ---------------------------------------------------------------------


_HIGHEST = "\U0010ffff"
# A NamedTuple made from a tuple of its fields in order: no argument parsing.
_new = tuple.__new__


def _extended_position(name: str, game: Game, key: str, rows: Sequence[Any]) -> Position:
    """`_position` for plain Ghost's range read: the head row first, then its plays in
    key order, which is move order (each play's move is its last letter).

    Built as `_position` builds it, but from tuples of the fields in their declared
    order: the NamedTuples' keyword constructors would add a tenth to a lookup (a test
    compares the two builds)."""
    head = rows[0]
    length = head[3]
    is_final = length == 0
    plays: tuple[Play, ...] = ()
    to_move = game.to_move(key)
    winning = drawing = 0
    if not is_final:
        plays = tuple(
            [
                _new(
                    Play,
                    (
                        r[0][-1],
                        r[0],
                        _OUTCOMES[r[2]],
                        r[3],
                        r[3] == 0,
                        None if r[5] is None else _seats(r[5]),
                        r[6],
                    ),
                )
                for r in rows[1:]
            ]
        )
        if head[5] is None:  # two players: `_move_counts` on the codes, at C speed
            codes = [r[2] for r in rows[1:]]
            winning, drawing = codes.count(_LOSS), codes.count(_DRAW)
        else:
            winning, drawing = _move_counts(plays, to_move)
    return _new(
        Position,
        (
            name,
            game.name,
            game.key,
            key,
            _OUTCOMES[head[2]],
            length,
            _best_move(head[4], plays),
            winning,
            drawing,
            is_final,
            game.ending(key) if is_final else None,
            bool(head[1]),
            to_move,
            plays,
            None if head[5] is None else _seats(head[5]),
            head[6],
        ),
    )
