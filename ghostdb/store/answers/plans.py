"""Plans from the start and each opening's plans (`ghostdb plan`, `ghostdb openings`): walked
through the stored positions (`ghostdb.store.answers.plan_walks`), kept at publish, read back
after."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove
from ghostdb.store.answers import kept
from ghostdb.store.answers.kept import Key
from ghostdb.strategies import OpeningPlans, Strategy

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle

from ghostdb.store.answers.kept import OPENINGS, may_compute, plan_question


def start_plan(
    solution: Handle, player: int | None = None, compute: bool | None = None
) -> Strategy:
    """``player``'s (by default the winner's) best plan from the start (kept)."""
    from ghostdb.store.answers import plan_walks

    player, key, words = _start_question(solution, player)
    # Kept in the API's form (`Strategy.as_dict`): the server sends it as it is read.
    body = kept.answer(
        solution.engine,
        key,
        lambda: plan_walks.strategy(solution, player, "").as_dict(),
        compute=may_compute(solution, compute),
        **words,
    )
    return Strategy.from_dict(body, solution.rules)


def start_plan_text(solution: Handle, player: int | None = None) -> str:
    """The kept plan from the start as the API's JSON text (`Strategy.as_dict`), read
    only: NotWorkedOut when it is not kept."""
    _, key, words = _start_question(solution, player)
    return kept.answer_text(solution.engine, key, **words)


def _start_question(solution: Handle, player: int | None) -> tuple[int, Key, dict[str, str]]:
    """The kept question of a plan from the start: the player whose plan is asked for (by
    default the winner from the start), its key, and what it is called with the command
    that works it out (what NotWorkedOut names)."""
    solution.require_plans("plans to memorise")
    if player is None:
        player = solution.openings().winner
    if player not in (0, 1):
        raise BadMove(f"a plan is for player 0 or 1, not {player!r}")
    name, rules = solution.name, solution.rules
    words = {
        "what": f"player {player}'s plan for {name} under {rules.key}",
        "command": f"ghostdb strategy {name}{rules.flags()} --player {player}",
    }
    return player, Key(solution.id, plan_question(player)), words


def opening_plans(solution: Handle, compute: bool | None = None) -> list[OpeningPlans]:
    """For every first move, the winning plan of the player who wins from there (kept)."""
    body = _openings(solution, compute)
    found = []
    for move, fragment, winner, plan in body:
        strategy = Strategy.from_dict(plan, solution.rules)
        pair = (strategy, None) if winner == 0 else (None, strategy)
        found.append(OpeningPlans(move, fragment, pair))
    return found


def opening_plan_dicts(solution: Handle, compute: bool | None = False) -> list[dict[str, Any]]:
    """The kept openings' plans as the API answers them (``openings --words --json``),
    made from the kept JSON without building a tree (read only unless ``compute``, as
    `opening_plans`)."""
    found = []
    for move, fragment, winner, plan in _openings(solution, compute):
        endings = plan["endings"]
        found.append(
            {
                "move": move,
                "fragment": fragment,
                "player_0": endings if winner == 0 else None,
                "player_1": endings if winner == 1 else None,
            }
        )
    return found


def _openings(solution: Handle, compute: bool | None) -> list[list[Any]]:
    solution.require_plans("plans to memorise")
    return kept.answer(
        solution.engine,
        Key(solution.id, OPENINGS),
        lambda: work_out_openings(solution),
        compute=may_compute(solution, compute),
        what=f"the plan after each opening of {solution.name} under {solution.rules.key}",
        command=f"ghostdb openings {solution.name}{solution.rules.flags()} --words",
    )


def work_out_openings(solution: Handle) -> list[list[Any]]:
    """Each first move with its winner's plan from there, walked."""
    from ghostdb.store.answers import plan_walks

    found = []
    for play in solution.openings().plays:
        winner = 0 if play.wins else 1
        plan = plan_walks.strategy(solution, winner, play.fragment)
        found.append([play.move, play.fragment, winner, plan.as_dict()])
    return found
