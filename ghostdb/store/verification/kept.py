"""Kept whole-solution answers worked out again from the stored positions and compared
(for `verify`): figures, plans, comparisons, puzzles and common words."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove
from ghostdb.games.base import LOSS, VALUE_NAMES, WIN, PositionGraph
from ghostdb.store.answers import dictionaries, kept
from ghostdb.store.answers.comparing import work_out_pair
from ghostdb.store.answers.keeping import work_out
from ghostdb.store.answers.puzzles import PUZZLES
from ghostdb.store.answers.vocabularies import COMMON_WORDS, rank
from ghostdb.store.verification.stored import NONE, StoredRows
from ghostdb.values import Outcome

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb.store.answers.handle import Handle


def check_kept(
    engine: Engine,
    solution_id: int,
    handle: Callable[[int], Handle | None],
    checked: Collection[int] = (),
    done: Collection[str] = (),
) -> tuple[int, list[str]]:
    """Work every answer kept about a solution out again from the stored positions and
    compare (for `verify`): its own, and its comparisons either way round (one whose
    first solution is in ``checked`` is left to that one's check); ``handle`` gives a
    published solution's handle by id (None: not published); the solution's own answers
    to the questions ``done`` were checked already (the puzzles, over the arrays of
    `ghostdb.store.verification.solutions`: `check_puzzles_over`).  Returns how many
    answers were checked and what disagrees."""

    with engine.connect() as conn:
        answers = kept.stored_texts(conn, solution_id, checked)
    problems: list[str] = []
    for i, (key, text) in enumerate(answers):
        answers[i] = (key, "")  # each text let go once compared: one answer at a time
        if key.solution_id == solution_id and not key.other_id and key.question in done:
            continue
        here = handle(key.solution_id)
        if key.other_id:
            other = handle(key.other_id)
            if here is None or other is None:
                missing = key.other_id if other is None else key.solution_id
                problems.append(f"a comparison is kept with unpublished solution {missing}")
                continue
            fresh = work_out_pair(here, other, json.loads(text).get("limit", 0))
            what = (
                f"the comparison of {here.name} {here.rules.key} "
                f"with {other.name} {other.rules.key}"
            )
        elif key.question == PUZZLES:  # found over the solve's arrays: each one checked
            assert here is not None
            problems += check_puzzles(here, json.loads(text))
            continue
        elif key.question == COMMON_WORDS:  # ranked by wordfreq, not from the positions
            assert here is not None
            problems += check_common_words(here, json.loads(text))
            continue
        else:
            assert here is not None
            fresh = work_out(here, key.question)
            what = f"the kept {key.question}"
        if not kept.same_as_kept(text, fresh):
            problems.append(f"{what} differs from what the positions give")
        del fresh
    return len(answers), problems


def check_puzzles(solution: Handle, body: dict[str, Any]) -> list[str]:
    """Each kept puzzle against its lookup (for `verify`): reachable, a win for the
    mover, exactly one winning move and at least one other, its length as stored."""
    problems = []
    keys = [p[0] for p in body["puzzles"]]
    for (key, length, others, _), pos in zip(
        body["puzzles"], solution.lookup_many(keys), strict=True
    ):
        if pos is None:
            problems.append(f"the kept puzzle {key!r} is not a stored position")
            continue
        winning = sum(p.wins for p in pos.plays)
        if (
            pos.outcome is not Outcome.WIN
            or not pos.reachable
            or winning != 1
            or len(pos.plays) - 1 != others
            or pos.game_length != length
        ):
            problems.append(
                f"the kept puzzle {key!r} is not one: {winning} winning moves of "
                f"{len(pos.plays)}, {pos.outcome.value} in {pos.game_length}"
            )
    return problems


def check_puzzles_over(graph: PositionGraph, stored: StoredRows, body: dict[str, Any]) -> list[str]:
    """`check_puzzles` over the arrays `verify` reads a solution into (``stored``, the
    graph's positions as stored, its `StoredRows.nodes` those of the puzzles' keys), not
    a lookup a puzzle: every kept puzzle a reachable win for the mover, exactly one
    winning move and at least one other, its length as stored.  A position's plays are
    its moves to other positions (a final one has none)."""
    import numpy as np

    parent, child = graph.edge_parent, graph.edge_child
    play = child != parent
    plays = np.bincount(parent[play], minlength=graph.size)
    wins = np.bincount(parent[play & (stored.value[child] == LOSS)], minlength=graph.size)
    problems = []
    for key, length, others, _ in body["puzzles"]:
        i = stored.nodes.get(key)
        if i is None:
            problems.append(f"the kept puzzle {key!r} is not a stored position")
            continue
        value, held = int(stored.value[i]), int(stored.length[i])
        if (
            value != WIN
            or not stored.reachable[i]
            or wins[i] != 1
            or plays[i] - 1 != others
            or held != length
        ):
            problems.append(
                f"the kept puzzle {key!r} is not one: {wins[i]} winning moves of "
                f"{plays[i]}, {VALUE_NAMES[value] if value >= 0 else '?'} in "
                f"{held if held != NONE else None}"
            )
    return problems


def check_common_words(solution: Handle, body: dict[str, Any]) -> list[str]:
    """The kept ranking against a fresh one (for `verify`); without wordfreq, that its
    words are distinct game words of the dictionary."""

    what = f"the kept common words of {solution.name} {solution.rules.key}"
    size = len(body["words"])
    try:
        fresh = rank(solution, size + 1 if body["all"] else size)
    except BadMove:  # no wordfreq here: what can be checked without it
        words = set(dictionaries.words(solution.engine, solution.name, solution.rules.min_length))
        if len(set(body["words"])) == size and words.issuperset(body["words"]):
            return []
        return [f"{what} are not distinct words of the dictionary"]
    if kept.same(body, fresh):
        return []
    return [f"{what} differ from wordfreq's ranking of the dictionary (another wordfreq?)"]
