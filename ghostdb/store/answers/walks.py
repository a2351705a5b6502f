"""Walks: principal lines, and the walk that plans share, read from the stored positions
one lookup a step.

One walk serves every game and variant: it expands a position by looking it up (the
position and all its plays in one query, see `ghostdb.store.answers.lookups`) and follows the
plays a rule chooses, breadth first, building the tree as it goes.  The game's own
moves (`Game.candidates`) make the plays, so nothing here knows how any game moves.

* A **line** follows, where the game keeps plans (two-player word games), every play
  that keeps the value and uses up exactly one move of the game length (winning plays
  that end soonest, losing plays that last longest); elsewhere (many players, games with
  draws) the stored best move.
* A **plan** (`ghostdb.store.answers.plan_walks`) follows the stored plan move at the
  strategist's turns and every play at the opponent's.

A walk stops at final positions, and where a position comes again on its own path (a
draw's cycle).  A solution republished during a walk finds nothing at its old id: the
walk raises `Republished` and the caller walks again on the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ghostdb.errors import NotSolved, TooLarge
from ghostdb.strategies import Lines, Node, endings

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle
    from ghostdb.store.answers.lookups import Lookups, SolutionRef
    from ghostdb.values import Play, Position

Follow = Callable[["Position", int], list["Play"]]
"""The plays a walk follows from a position (given its distance from the start)."""


class Republished(NotSolved):
    """The solution walked was replaced during the walk (or before it, where a plan's walk
    found no plan at its start): walk again on the new one."""


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
    raise changed_twice(solution.name)


def changed_twice(name: str) -> NotSolved:
    """What a walk that found its solution republished twice during one call raises."""
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
