"""Decisive-word answers re-evaluated (for `verify`): each listed edit gives what is
kept, a sample of the other words changes nothing, the fewest count is found again."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from ghostdb.games.ghost.rules import Variant
from ghostdb.store.answers.decisive import (
    EDITS,
    read_fragments,
    stored_answers,
    stored_values,
    stored_words,
)
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.schema import dictionaries as dictionaries_table
from ghostdb.store.sql.schema import solutions

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection


SAMPLE = 500


def check_answers(
    conn: Connection, solution_id: int, game: Any, words: Callable[[], Sequence[str] | None]
) -> tuple[int, list[str]]:
    """Re-check every answer kept for a solution by re-evaluation (for `verify`): each
    listed edit must give the outcome and move states kept; a sample of the other words
    must change nothing; the fewest count must be what the recursion finds again.
    ``words()`` reads the game words (only when some answer is kept).  Returns how many
    answers were checked and what disagrees."""
    answers = stored_answers(conn, solution_id)
    if not answers:
        return 0, []
    decider = _checking_decider(conn, solution_id, game, words() or ())
    problems: list[str] = []
    for row in answers:
        problems += _check_answer(conn, row, decider, game.rules.min_length)
    return len(answers), problems


def _checking_decider(conn: Connection, solution_id: int, game: Any, words: Sequence[str]) -> Any:
    """The decider `check_answers` re-evaluates with: from arrays in plain Ghost (see
    `_decider`), the game words those verify read."""
    if game.rules.variant is not Variant.GHOST:
        return game.decider(words, stored_values(conn, solution_id))
    alphabet = conn.execute(
        select(dictionaries_table.c.alphabet)
        .select_from(solutions.join(dictionaries_table))
        .where(solutions.c.id == solution_id)
    ).scalar_one()
    found = read_fragments(conn, solution_id, alphabet)
    found.mark_words(["\n".join(words)])
    return game.decider((), found)


def _check_answer(conn: Connection, row: Any, decider: Any, min_length: int) -> list[str]:

    kept, position = stored_words(conn, row), row["position"]
    where = f"decisive words at {position!r}" if row["question"] == EDITS else "why"
    pool = q.dictionary_words(conn, row["pool_id"], min_length) if row["pool_id"] else []
    if decider.values.get(position) != row["outcome"]:
        return [f"{where}: kept for outcome {row['outcome']}, but the position is stored otherwise"]
    problems = []
    for kind, added in (("delete", False), ("add", True)):
        for e in kept[kind]:
            if decider.explain(position, e.word, added) != e:
                problems.append(f"{where}: {kind} {e.word} does not give what is kept")
    if row["question"] == EDITS:  # a sample of the words not listed changes nothing
        rng = random.Random(f"{row['solution_id']}/{position}/{row['pool_id']}")
        listed = {e.word for e in kept["delete"] + kept["add"]}
        below = [w for w in decider.words_below(position) if w not in listed]
        others = sorted(
            w for w in set(pool) - decider.word_set - listed if decider.reaches(position, w)
        )
        for word, added in [(w, False) for w in rng.sample(below, min(SAMPLE, len(below)))] + [
            (w, True) for w in rng.sample(others, min(SAMPLE, len(others)))
        ]:
            state = decider.added(position, word) if added else decider.deleted(position, word)
            if state != row["outcome"]:
                problems.append(f"{where}: {'adding' if added else 'deleting'} {word} changes it")
    if row["question"] == EDITS:
        again = decider.fewest(position, pool)
    else:
        both = set(pool) & decider.word_set
        again = decider.fewest("", set(pool) - both, both, row["target"])
    if row["fewest_count"] != again.count:
        problems.append(f"{where}: kept {row['fewest_count']} fewest edits, found {again.count}")
    return problems
