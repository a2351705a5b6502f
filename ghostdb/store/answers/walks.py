"""Walks: principal lines and plans, read from the stored positions one lookup a step.

One walk serves every game and variant: it expands a position by looking it up (the
position and all its plays in one query, see `ghostdb.store.answers.lookups`) and follows the
plays a rule chooses, breadth first, building the tree as it goes.  The game's own
moves (`Game.candidates`) make the plays, so nothing here knows how any game moves.

* A **line** follows, where the game keeps plans (two-player word games), every play
  that keeps the value and uses up exactly one move of the game length (winning plays
  that end soonest, losing plays that last longest); elsewhere (many players, games with
  draws) the stored best move.
* A **plan** follows the stored plan move at the strategist's turns and every play at
  the opponent's.

A walk stops at final positions, and where a position comes again on its own path (a
draw's cycle).  A solution republished during a walk finds nothing at its old id: the
walk raises `Republished` and the caller walks again on the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ghostdb.errors import (
    BadMove,
    DatabaseError,
    DeadFragment,
    MissingPlans,
    NotSolved,
    TooLarge,
)
from ghostdb.store.sql.schema import HAS_PLAN, PLAN_FIELDS, positions
from ghostdb.strategies import Lines, Node, Strategy, endings

if TYPE_CHECKING:
    from ghostdb.games.base import Game, RuleSet
    from ghostdb.store.answers.handle import Handle
    from ghostdb.store.answers.lookups import Lookups, SolutionRef
    from ghostdb.strategies import PlanSize
    from ghostdb.values import Play, Position

Follow = Callable[["Position", int], list["Play"]]
"""The plays a walk follows from a position (given its distance from the start)."""


class Republished(NotSolved):
    """The solution walked was replaced during the walk: walk again on the new one."""


def line(solution: Handle, position: str, limit: int | None = None) -> Lines:
    """The principal lines from ``position`` (see the module's docstring)."""
    for _retry in (False, True):
        start = solution.lookup(position)
        ref = solution.ref
        try:
            tree, cycle = walk(
                solution.lookups, ref, solution.name, start, principal_plays(ref), limit
            )
        except Republished:
            solution.refresh()
            continue
        return Lines(solution.name, solution.rules, start.fragment, tree, endings(tree), cycle)
    raise _changed(solution.name)


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
        with solution.engine.connect() as conn:
            sizes = plan_sizes(conn, ref.id, ref.game, start)
        if sizes is None:  # every reachable position has a plan: republished
            _published_again(solution, ref.id)
            continue
        try:
            follow = plan_plays(solution.lookups, ref, name, parity)
            tree, _ = walk(solution.lookups, ref, name, start, follow, limit, "strategy")
        except Republished:
            _published_again(solution, ref.id)
            continue
        return Strategy(name, rules, player, start.fragment, sizes[parity], tree, endings(tree))
    raise _changed(name)


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


def _changed(name: str) -> NotSolved:
    # Only if the solution was republished twice during this one call.
    return NotSolved(f"the solution of {name} changed during the query: try again")


def walk(
    lookups: Lookups,
    ref: SolutionRef,
    name: str,
    start: Position,
    follow: Follow,
    limit: int | None = None,
    what: str = "line",
) -> tuple[Node, bool]:
    """The tree of the plays ``follow`` chooses from ``start``, children in move order,
    and whether a position came again on its own path (its node is then not expanded).
    Each position is read once, when it is expanded.  More than ``limit`` positions
    raise TooLarge (a reader that answers in bounded time, the web server, sets it)."""
    game = ref.game
    root = Node(start.fragment, None, start.to_move, start.outcome, start.game_length)
    nodes = 1
    # Each entry: (node, its position if read, its parent entry).  The parent links are
    # walked only where a move does not raise the level, the one way a path comes back.
    frontier: list[_Entry] = [(root, start, None)]
    depth, cycle = 0, False
    while frontier:
        following: list[_Entry] = []
        # Every position not final that is expanded adds a node at least (a line's next
        # move, a plan's move or the opponent's replies): a frontier that would pass the
        # limit is refused before it is read (a walk that is refused cost the most).
        growing = sum(1 for n, _, _ in frontier if n.game_length != 0)
        if limit is not None and nodes + growing > limit:
            raise _too_large(what, start.fragment, limit, name)
        read = _read_level(lookups, ref, name, frontier)
        for entry in frontier:
            node, pos, _ = entry
            if node.game_length == 0:  # final: the game is over here
                continue
            key = node.fragment
            pos = pos or read[key]
            for play in follow(pos, depth):
                child = Node(
                    play.fragment,
                    play.move,
                    game.to_move(play.fragment),
                    play.outcome,
                    play.game_length,
                )
                node.children.append(child)
                nodes += 1
                if limit is not None and nodes > limit:
                    raise _too_large(what, start.fragment, limit, name)
                if game.level(play.fragment) <= game.level(key) and _on_path(play.fragment, entry):
                    cycle = True
                    continue
                following.append((child, None, entry))
        frontier = following
        depth += 1
    return root, cycle


_Entry = tuple[Node, "Position | None", Any]


def _too_large(what: str, fragment: str, limit: int, name: str) -> TooLarge:
    return TooLarge(
        f"that {what} from {fragment!r} passes more than {limit:,} positions: ask from a "
        f"position further on, or run `ghostdb {what} {name}` for the whole of it"
    )


def _read_level(
    lookups: Lookups, ref: SolutionRef, name: str, frontier: list[_Entry]
) -> dict[str, Position]:
    """The positions of a frontier still to expand, read together (`Lookups.read_many`:
    one snapshot, a thousand a statement where the game allows, a fraction of a read
    each)."""
    keys = list(
        dict.fromkeys(n.fragment for n, pos, _ in frontier if pos is None and n.game_length != 0)
    )
    if not keys:
        return {}
    found = lookups.read_many(name, ref, keys)
    if any(p is None for p in found):  # a stored play is gone: the solution was replaced
        raise Republished(f"the solution of {name} changed during the walk")
    return dict(zip(keys, found, strict=True))  # type: ignore[arg-type]


def _on_path(key: str, entry: _Entry | None) -> bool:
    while entry is not None:
        if entry[0].fragment == key:
            return True
        entry = entry[2]
    return False


def principal_plays(ref: SolutionRef) -> Follow:
    """What a line follows (see the module's docstring)."""
    if ref.game.keeps_plans:

        def ties(pos: Position, _depth: int) -> list[Play]:
            length = pos.game_length - 1
            return [
                p for p in pos.plays if p.outcome is not pos.outcome and p.game_length == length
            ]

        return ties

    def best(pos: Position, _depth: int) -> list[Play]:
        return [p for p in pos.plays if p.move == pos.best_move][:1]

    return best


def plan_plays(lookups: Lookups, ref: SolutionRef, name: str, parity: int) -> Follow:
    """Where the strategist is to move (at the depths of ``parity``) a plan follows the
    stored plan's move; elsewhere every play."""

    def follow(pos: Position, depth: int) -> list[Play]:
        if depth % 2 != parity:
            return list(pos.plays)
        number = lookups.plan_play(ref, pos.fragment)
        if number is None or not 0 <= number < len(pos.plays):
            # A reachable position that is not final has its plan's move stored.
            raise Republished(f"the solution of {name} changed during the walk")
        return [pos.plays[number]]

    return follow


def plan_sizes(
    conn: Connection, solution_id: int, game: Game, start: Position
) -> tuple[PlanSize, PlanSize] | None:
    """The best plans' ranks at ``start`` (as looked up): (strategist to move, opponent
    to move); None if it has no plan (not reachable, or the solution was replaced).

    A position keeps its plan's opponent-to-move rank only (revision 0009): with the
    strategist to move, the best plan is the stored move's, so its rank is the
    opponent-to-move rank of the position that move leads to; at a final position the
    game is over and the one outcome is the same word, lost by the other player.
    """
    from ghostdb.strategies import PlanSize

    here = _plan_row(conn, solution_id, game, start.fragment)
    if here is None:
        return None
    waiter = PlanSize(*here[1:])
    if here[0] is None:  # final: won for one role exactly when lost for the other
        return PlanSize(2 - waiter.lossiness, waiter.outcomes, waiter.letters), waiter
    if not 0 <= here[0] < len(start.plays):
        return None
    after = _plan_row(conn, solution_id, game, start.plays[here[0]].fragment)
    if after is None:
        return None
    return PlanSize(*after[1:]), waiter


def _plan_row(conn: Connection, solution_id: int, game: Game, key: str) -> Any | None:
    """(plan_play, waiter_lossiness, waiter_outcomes, waiter_letters) of one position;
    None if it has no plan (or is no position)."""
    stmt = select(*(positions.c[f] for f in PLAN_FIELDS)).where(
        positions.c.solution_id == solution_id,
        positions.c.level == game.level(key),
        positions.c.fragment == key,
        HAS_PLAN,
    )
    return conn.execute(stmt).first()


def missing_plans(name: str, rules: RuleSet) -> MissingPlans:
    """A solution stored before schema revision 0002 has no plans until solved again."""
    return MissingPlans(
        f"the stored solution of {name} for {rules.describe()} has no plans (it predates "
        f"them): run `ghostdb solve {name}{rules.flags()} --force`"
    )
