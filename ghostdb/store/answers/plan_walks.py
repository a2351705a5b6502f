"""A player's best plan from any position (`ghostdb strategy`), walked through the stored
positions (`ghostdb.store.answers.walks`) along the stored plan's plays
(`ghostdb.store.answers.plan_rows`).  The plans from the start and the openings' are
kept (`ghostdb.store.answers.plans`): this walk works them out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ghostdb.errors import BadMove, DatabaseError, DeadFragment
from ghostdb.store.answers.plan_rows import missing_plans, plan_plays, plan_sizes
from ghostdb.store.answers.walks import Republished, changed_twice, walk
from ghostdb.strategies import Strategy, endings

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle


def strategy(
    solution: Handle, player: int | None, position: str, limit: int | None = None
) -> Strategy:
    """``player``'s best plan from ``position``: by default the winner's."""
    solution.require_plans("plans to memorise")
    name, rules = solution.name, solution.rules
    for _retry in (False, True):
        start = solution.lookup(position)
        ref = solution.ref
        player = start.winner if player is None else player
        if player not in (0, 1):
            raise BadMove(f"a plan is for player 0 or 1, not {player!r}")
        if not start.reachable:
            raise DeadFragment(
                f"{start.fragment!r} cannot arise in a game (a shorter fragment is already a "
                "word): plans start from fragments a game can reach"
            )
        if not ref.has_plans:
            raise missing_plans(name, rules)
        parity = (player - start.to_move) % 2  # 0: the strategist moves first
        try:
            with solution.engine.connect() as conn:
                sizes = plan_sizes(conn, ref.id, ref.game, start)
            if sizes is None:  # every reachable position has a plan: republished
                raise Republished(f"the solution of {name} changed before the walk")
            follow = plan_plays(solution.lookups, ref, name, parity)
            tree, _ = walk(solution.lookups, ref, name, start, follow, limit, "strategy")
        except Republished:
            _published_again(solution, ref.id)
            continue
        return Strategy(name, rules, player, start.fragment, sizes[parity], tree, endings(tree))
    raise changed_twice(name)


def _published_again(solution: Handle, read: int) -> None:
    """After a plan was found missing: find the published solution again, or, if it is
    still the one read (its plans and positions disagree), say what to do."""
    if solution.refresh().id == read:
        name, flags = solution.name, solution.rules.flags()
        raise DatabaseError(
            f"the stored plans of {name} for {solution.rules.describe()} disagree with its "
            f"positions: run `ghostdb verify {name}{flags}`, then "
            f"`ghostdb solve {name}{flags} --force`"
        )
