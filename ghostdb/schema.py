"""The database schema as SQLAlchemy 2 models.

The schema is created and changed only by the Alembic migrations in ``migrations/``;
these models describe the same tables for queries, and a test checks that the two
agree.  Core tables rather than ORM classes: ghostdb reads and writes rows in bulk and
never needs identity-mapped objects, and a lookup command starts faster without the ORM.

Bump ``HEAD_REVISION`` with every new migration (a test checks that too): opening a
database compares its revision with this constant, so the common case needs no Alembic
import.

Tables (the bulk ones, ``words``, ``positions`` and ``plans``, have no foreign
keys: SQLite checks a foreign key row by row, which made a solve's write 60% slower; the
store writes and deletes their rows together with their owner, in one transaction):

* ``dictionaries`` and ``words``: ingested word lists.
* ``solutions``: one row per solve job, keyed by (dictionary, rules, min_length, misere);
  at most one ``complete`` row per key is the published solution.
* ``positions``: one row per fragment of a solution, with its solved values.
* ``plans``: the best memorisable plans at each reachable position.
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

HEAD_REVISION = "0002"

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

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
    Column(
        "dictionary_id",
        Integer,
        ForeignKey("dictionaries.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("rules", String(20), nullable=False),
    Column("min_length", Integer, nullable=False),
    Column("misere", Boolean, nullable=False),
    Column("status", String(20), nullable=False),
    Column("solver_version", String(20), nullable=False),
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
    CheckConstraint("rules IN ('ghost', 'super', 'superduper')", name="rules"),
    # The published solution of a rule set is unique.
    Index(
        "ix_solutions_published",
        "dictionary_id",
        "rules",
        "min_length",
        "misere",
        unique=True,
        sqlite_where=text("status = 'complete'"),
        postgresql_where=text("status = 'complete'"),
    ),
    # Ids are never reused, so a cached id can never name another solution.
    sqlite_autoincrement=True,
)

# One fragment of a solution and its solved values.  A fragment that is a word has
# game_length 0.  Plays are not stored: they are the stored fragments one letter longer
# that the rules' move forms make from it (see ghostdb.queries), found by primary key.
positions = Table(
    "positions",
    metadata,
    Column("solution_id", Integer, primary_key=True),
    Column("fragment", Text, primary_key=True),
    Column("reachable", Boolean, nullable=False),
    Column("outcome", String(4), nullable=False),  # 'win' / 'loss' for the player to move
    Column("game_length", SmallInteger, nullable=False),
    Column("best_next", Text),  # the fragment after the best play; NULL at a word
    Column("winning_moves", SmallInteger, nullable=False),
    sqlite_with_rowid=False,
)

# The best plans at a reachable position (revision 0002), for both roles: mover_* when
# the strategist is to move here (and plays to plan_next), waiter_* when the opponent is.
# Each is the plan's rank: lossiness, number of outcomes, letters over all outcomes (see
# ghostdb.solver).  Only reachable positions have plans: a plan followed from one never
# leaves them.
plans = Table(
    "plans",
    metadata,
    Column("solution_id", Integer, primary_key=True),
    Column("fragment", Text, primary_key=True),
    Column("plan_next", Text),
    Column("mover_lossiness", SmallInteger, nullable=False),
    Column("mover_outcomes", BigInteger, nullable=False),
    Column("mover_letters", BigInteger, nullable=False),
    Column("waiter_lossiness", SmallInteger, nullable=False),
    Column("waiter_outcomes", BigInteger, nullable=False),
    Column("waiter_letters", BigInteger, nullable=False),
    sqlite_with_rowid=False,
)
