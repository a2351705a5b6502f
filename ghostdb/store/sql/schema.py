"""The database schema as SQLAlchemy 2 models.

The schema is created and changed only by the Alembic migrations in ``migrations/``;
these models describe the same tables for queries, and a test checks that the two
agree.  Core tables rather than ORM classes: ghostdb reads and writes rows in bulk and
never needs identity-mapped objects, and a lookup command starts faster without the ORM.

Bump ``HEAD_REVISION`` (`ghostdb.store.sql.db`, named here too) with every new migration (a
test checks that too): opening a database compares its revision with this constant, so
the common case needs no Alembic import, and builds none of the tables below.

Tables (the bulk ones, ``words`` and ``positions``, have no foreign
keys: SQLite checks a foreign key row by row, which made a solve's write 60% slower; the
store writes and deletes their rows together with their owner, in one transaction):

* ``dictionaries`` and ``words``: ingested word lists.
* ``solutions``: one row per solve job of a game under a rule set (and, for word games,
  over a dictionary); at most one ``complete`` row per key is the published solution.
* ``positions``: one row per position of a solution, with its solved values and, at the
  reachable positions of a word game, its best memorisable plan.
* ``decisive`` and ``decisive_words``: decisive words worked out from a solution
  (`ghostdb.store.answers.decisive`), kept once asked for.
* ``kept_answers``: whole-solution answers (a report's figures, the plans from the start,
  the openings' plans, a comparison of two solutions) worked out once and read back
  (`ghostdb.store.answers.kept`).
* ``rooms``, ``room_seats`` and ``room_events``: matches played by several people over
  the web, each an append-only log of events (`ghostdb.store.rooms.log`); the only tables
  the web server writes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    text,
)

from ghostdb.store.sql.db import HEAD_REVISION as HEAD_REVISION  # (named here too)

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

KEY_TEXT = Text().with_variant(Text(collation="C"), "postgresql")
"""Position keys: compared by code point on PostgreSQL too (revision 0006), as a lookup's
key range needs; SQLite compares text byte by byte already."""

dictionaries = Table(
    "dictionaries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(100), nullable=False, unique=True),
    Column("source", Text, nullable=False),
    Column("sha256", String(64), nullable=False, index=True),  # of the normalised sorted words
    Column("word_count", Integer, nullable=False),
    Column("alphabet", Text, nullable=False),
    Column("ingested_at", DateTime(timezone=True), nullable=False),
    Column("report", Text, nullable=False),  # JSON: what ingest accepted and left out
)

words = Table(
    "words",
    metadata,
    Column("dictionary_id", Integer, primary_key=True),
    Column("word", Text, primary_key=True),
    sqlite_with_rowid=False,
)

solutions = Table(
    "solutions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("game", String(20), nullable=False, server_default=text("'ghost'")),
    # The word list a word game is played over; NULL for games without one.
    Column(
        "dictionary_id",
        Integer,
        ForeignKey("dictionaries.id", ondelete="CASCADE"),
        nullable=True,
        index=True,
    ),
    Column("rules", String(60), nullable=False),  # the rule set's key, e.g. ghost/3, chopsticks/5
    Column("status", String(20), nullable=False),
    Column("solver_version", String(20), nullable=False),
    # SHA-256 of what was solved: the sorted words, or the game's rule key (tamper evidence).
    Column("input_sha256", String(64)),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True)),
    Column("word_count", Integer),
    Column("fragment_count", Integer),
    Column("reachable_count", Integer),
    Column("seconds", Float),
    Column("host", String(255)),
    Column("pid", Integer),
    Column("error", Text),
    Column("has_plans", Boolean, nullable=False, server_default=text("false")),
    CheckConstraint("status IN ('running', 'complete', 'failed', 'superseded')", name="status"),
    # The published solution of a rule set is unique: per dictionary for word games, per
    # game for the others (two indexes, since NULLs never collide in a unique index).
    # Both are partial, WHERE status = 'complete' AND dictionary_id IS [NOT] NULL: the
    # migration creates them so.  The predicate is not repeated here because a
    # dialect-specific argument imports that dialect at every start-up (+50 ms).
    Index("ix_solutions_published", "dictionary_id", "rules", unique=True),
    Index("ix_solutions_published_game", "game", "rules", unique=True),
    # Ids are never reused, so a cached id can never name another solution.
    sqlite_autoincrement=True,
)

# One position of a solution and its solved values, keyed by (level, fragment) so that a
# Ghost fragment's plays (the next level, same prefix) are one contiguous range.
# ``fragment`` is the position's text key in every game.  ``outcome`` is the value for the
# player to move as its code (`ghostdb.games.base.VALUE_NAMES`: 0 loss, 1 draw, 2 tie,
# 3 win); ``game_length`` is NULL for a draw and 0 at a final position.  Plays are not
# stored: they are the stored positions one move away (see ghostdb.store.answers.lookups), found
# by primary key; ``best_play`` numbers the best of them in move order (0 the first).
# Integer codes rather than words and keys (revision 0007): a row is a fifth smaller.
# The counts of winning and drawing moves are counted from the plays a lookup reads
# (revision 0010), not stored.
positions = Table(
    "positions",
    metadata,
    Column("solution_id", Integer, primary_key=True),
    Column("level", SmallInteger, primary_key=True),
    Column("fragment", KEY_TEXT, primary_key=True),
    Column("reachable", Boolean, nullable=False),
    Column("outcome", SmallInteger, nullable=False),
    Column("game_length", SmallInteger),
    Column("best_play", SmallInteger),  # NULL when final
    # With more than two players: bit s is set when seat s can avoid losing from here
    # whatever the other seats do together (NULL for two players).
    Column("safe_seats", SmallInteger),
    # How the position is said when it is not its key (Anagram Ghost: an arrangement).
    Column("label", Text),
    # The best memorisable plan at a reachable position of a word game (NULL in the other
    # rows): ``plan_play``, the strategist's move when to move here, numbered among the
    # plays as ``best_play`` is (NULL when final), and waiter_*, the rank of the best plan
    # when the opponent is to move here: lossiness, number of outcomes, letters over all
    # outcomes (see ghostdb.solvers.plans).  The rank with the strategist to move is the
    # waiter_* rank of the position the plan's move leads to (at a final position: the
    # same word, lost by the other role), so it is not stored (revision 0009; see
    # ghostdb.store.answers.plan_rows.plan_sizes).  Only reachable positions have plans: a plan
    # followed from one never leaves them.  Columns of the position's row rather than a
    # table of their own (revision 0010): SuperDuperGhost has a plan at nearly every
    # position, and a second table repeated every key (24 of Polish's 63 bytes a
    # position); where few positions are reachable (plain Ghost) the NULLs cost a byte
    # each.  A row has all three ranks or none.
    Column("plan_play", SmallInteger),
    Column("waiter_lossiness", SmallInteger),
    Column("waiter_outcomes", BigInteger),
    Column("waiter_letters", BigInteger),
    sqlite_with_rowid=False,
)

PLAN_FIELDS = ("plan_play", "waiter_lossiness", "waiter_outcomes", "waiter_letters")
"""The plan columns of a position row (see ``positions``), in table order."""

HAS_PLAN = positions.c.waiter_lossiness.is_not(None)
"""A position row that holds a plan, as lookups and walks read one (a plan has all three
ranks; `ghostdb.store.verification.solutions` looks at every plan column, to find one
half written)."""


# Decisive words asked of a solution (see ghostdb.store.answers.decisive): ``question`` is
# ``edits`` (the words that decide the game at ``position``, additions drawn from the
# dictionary ``pool_id``, 0 for none) or ``why`` (the fewest differences from the
# dictionary ``pool_id`` behind a different outcome at the start).  ``target`` is the
# outcome the fewest edits give; ``exact`` says whether ``fewest_count`` is the minimum or
# an upper bound; ``only_here`` and ``only_pool`` count the words in one list only.
decisive = Table(
    "decisive",
    metadata,
    Column("solution_id", Integer, primary_key=True),
    Column("question", String(8), primary_key=True),
    Column("position", Text, primary_key=True),
    Column("pool_id", Integer, primary_key=True),
    Column("outcome", String(4), nullable=False),
    Column("target", String(4), nullable=False),
    Column("fewest_count", Integer),
    Column("exact", Boolean, nullable=False),
    Column("only_here", Integer),
    Column("only_pool", Integer),
    Column("seconds", Float, nullable=False),
    Column("worked_out_at", DateTime(timezone=True), nullable=False),
    Index("ix_decisive_pool_id", "pool_id"),
    sqlite_with_rowid=False,
)

# The words of a `decisive` answer: ``kind`` is ``delete`` or ``add`` (a single edit that
# changes the outcome) or ``fewest_delete`` / ``fewest_add`` (a member of the fewest set);
# ``outcome`` is the outcome at the position after the edit (after the whole set for the
# fewest); ``move`` is the position one move on that the word lies under, and
# ``move_before`` / ``move_after`` its state (win, loss, gone) before and after.
decisive_words = Table(
    "decisive_words",
    metadata,
    Column("solution_id", Integer, primary_key=True),
    Column("question", String(8), primary_key=True),
    Column("position", Text, primary_key=True),
    Column("pool_id", Integer, primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("word", Text, primary_key=True),
    Column("outcome", String(4), nullable=False),
    Column("move", Text, nullable=False),
    Column("move_before", String(4), nullable=False),
    Column("move_after", String(4), nullable=False),
    sqlite_with_rowid=False,
)


# Whole-solution answers worked out once and read back (see ghostdb.store.answers.kept): a
# solution's summary, its plans from the start, its openings' plans, and a comparison
# with ``other_id`` (0 for an answer about one solution).  ``body`` is the answer as
# JSON, in the form `ghostdb.store.answers.kept` writes and reads.  The rows belong to the
# solutions they were worked out from (ids are never reused), and go with them.
kept_answers = Table(
    "kept_answers",
    metadata,
    Column("solution_id", Integer, primary_key=True),
    Column("other_id", Integer, primary_key=True),
    Column("question", String(16), primary_key=True),
    Column("body", Text, nullable=False),
    Column("seconds", Float, nullable=False),
    Column("worked_out_at", DateTime(timezone=True), nullable=False),
    Index("ix_kept_answers_other_id", "other_id"),
    sqlite_with_rowid=False,
)


# Rooms (see ghostdb.store.rooms.log): a match played by several people over the web, kept as
# an append-only log of events.  ``id`` is a random URL-safe id made by the room's
# creator; ``name`` the dictionary or game played and ``rules`` its rule set's key;
# ``settings`` JSON; ``status`` 'waiting', 'playing' or 'over'; ``version`` the ``v`` of
# the room's last event, which a writer moves on only from the version it read (that is
# what makes two writers of one room take turns); ``rematch`` the id of the room its
# rematch is played in, once made.
rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(100), nullable=False),
    Column("rules", String(200), nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("rematch", String(32)),
)

# A room's seats in seat order (0 first): ``player`` is 'human' or a computer strategy
# ('optimal', 'common:2000'); ``name`` the display name of the person who joined it;
# ``token_hash`` the SHA-256 (hex) of the seat's token, which is never stored itself, so
# that a copy of the database lets nobody take a seat.
room_seats = Table(
    "room_seats",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(40), nullable=False),
    Column("name", String(40)),
    Column("token_hash", String(64)),
    Column("joined_at", DateTime(timezone=True)),
    sqlite_with_rowid=False,
)

# A room's log: event ``v`` (1, 2, 3, … within the room), its ``type`` (also in the body,
# kept apart to be read without parsing), and its ``body``, the whole event as JSON.  The
# key (room_id, v) makes two writers of one version collide: exactly one wins.
room_events = Table(
    "room_events",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("v", Integer, primary_key=True),
    Column("type", String(24), nullable=False),
    Column("body", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    sqlite_with_rowid=False,
)
