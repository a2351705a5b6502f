"""Decisive words: which single-word edits change the outcome at a position, and the
fewest deletions that do, worked out from a solution's stored values (see
`ghostdb.games.ghost.decisive`); nothing is solved again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from ghostdb.errors import BadMove
from ghostdb.store import dictionaries
from ghostdb.store.schema import positions

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet
    from ghostdb.reports import DecisiveWords, WhyDiffer
    from ghostdb.store.solution import Solution
    from ghostdb.store.store import Store

NORMALISING = ("keep_capitalised", "fold_accents")
"""Ingest options that change which words a list holds: a pool must share them."""


def decisive(solution: Solution, position: str = "", pool: str | None = None) -> DecisiveWords:
    """See `Solution.decisive`."""
    from ghostdb.reports import DecisiveWords

    solution.game.check_decisive()
    at = solution.lookup(position)  # the position, checked and in its stored form
    min_length = solution.rules.min_length
    words = dictionaries.words(solution.engine, solution.name, min_length)
    pool_words = _pool(solution, pool, min_length) if pool is not None else None
    decider = solution.game.decider(words, _values(solution))
    return DecisiveWords(
        name=solution.name,
        rules=solution.rules.key,
        position=at.fragment,
        outcome=at.outcome.value,
        to_move=at.to_move,
        pool=pool,
        deletions=tuple(decider.single_deletions(at.fragment)),
        additions=None
        if pool_words is None
        else tuple(decider.single_additions(at.fragment, pool_words)),
        fewest=decider.fewest(at.fragment, pool_words or ()),
    )


def why(store: Store, a: str, b: str, rules: RuleSet) -> WhyDiffer:
    """See `Store.why`."""
    from ghostdb.reports import WhyDiffer

    left, right = store.solution(a, rules), store.solution(b, rules)
    left.game.check_decisive()
    start_a, start_b = left.lookup(), right.lookup()
    min_length = left.rules.min_length
    words_a = dictionaries.words(store.engine, a, min_length)
    words_b = _pool(left, b, min_length)  # ingested the same way, or one line why not
    both = set(words_a) & set(words_b)
    if start_a.outcome == start_b.outcome:
        found = None
    else:
        decider = left.game.decider(words_a, _values(left))
        found = decider.fewest("", set(words_b) - both, both, start_b.outcome.value)
    return WhyDiffer(
        a=a,
        b=b,
        rules=rules.key,
        outcome_a=start_a.outcome.value,
        outcome_b=start_b.outcome.value,
        only_a=len(set(words_a) - both),
        only_b=len(set(words_b) - both),
        fewest=found,
    )


def _values(solution: Solution) -> dict[str, str]:
    """Every stored fragment of a solution with its outcome."""
    with solution.engine.connect() as conn:
        rows = conn.execute(
            select(positions.c.fragment, positions.c.outcome).where(
                positions.c.solution_id == solution.id
            )
        ).all()
    return {fragment: outcome for fragment, outcome in rows}


def _pool(solution: Solution, pool: str, min_length: int) -> list[str]:
    """The game words of another stored dictionary, ingested the same way."""
    if pool == solution.name:
        raise BadMove(f"the pool is {pool} itself: give another dictionary to add words from")
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
