"""A position built from its stored fields: the store's rows and a pack's records alike.

A stored position is its key and the fields of `FIELDS`; its plays are the stored
positions one move away (the game's `candidates` that are stored).  Building the
`Position` a lookup answers from them is the same wherever the fields were read, so
`ghostdb.store.answers.lookups` and `ghostdb.pack` both build here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ghostdb.games.base import VALUE_NAMES
from ghostdb.values import Outcome, Play, Position

if TYPE_CHECKING:
    from ghostdb.games.base import Game

FIELDS = (
    "fragment",
    "reachable",
    "outcome",
    "game_length",
    "best_play",
    "safe_seats",
    "label",
)
"""A stored position's fields, in the order a record holds them.  The counts of winning
and drawing moves are not stored: they are counted from the plays read with it
(`move_counts`)."""

OUTCOMES = tuple(Outcome(name) for name in VALUE_NAMES)
"""The Outcome of each stored value code (``positions.outcome``)."""
LOSS, DRAW = OUTCOMES.index(Outcome.LOSS), OUTCOMES.index(Outcome.DRAW)


def position_from_rows(
    name: str,
    game: Game,
    key: str,
    rows: Sequence[Any],
    candidates: list[tuple[str, str]],
    *,
    derive_best: bool = False,
) -> Position:
    """A Position from position rows (fields as `FIELDS`): the one at ``key`` and those
    one move away (``candidates``: the game's moves from ``key``).  With ``derive_best``
    (a pack's records, which hold no best play) the best move is `derived_best`."""
    by_key = {r[0]: r for r in rows}
    head = by_key[key]
    is_final = head[3] == 0
    plays: list[Play] = []
    if not is_final:  # the game is over here: continuations are no plays
        for move, child in candidates:
            r = by_key.get(child)
            if r is not None and child != key:
                outcome = OUTCOMES[r[2]]
                plays.append(Play(move, child, outcome, r[3], r[3] == 0, seats(r[5]), r[6]))
    to_move = game.to_move(key)
    winning, drawing = move_counts(plays, to_move)
    best = derived_best(plays, to_move) if derive_best else head[4]
    return Position(
        name=name,
        game=game.name,
        rules=game.key,
        fragment=key,
        outcome=OUTCOMES[head[2]],
        game_length=head[3],
        best_move=best_move(best, plays),
        winning_moves=winning,
        drawing_moves=drawing,
        is_final=is_final,
        ending=game.ending(key) if is_final else None,
        reachable=bool(head[1]),
        to_move=to_move,
        plays=tuple(plays),
        safe_seats=seats(head[5]),
        label=head[6],
    )


def move_counts(plays: Sequence[Play], to_move: int) -> tuple[int, int]:
    """A position's winning and drawing moves, counted from its plays as the solvers
    count them (`ghostdb.solvers.Values`): a move wins when the opponent is lost after it
    (with more than two players: when the mover is still safe after it), and draws when
    it leads to a draw.  Counted rather than stored (revision 0010): two columns of every
    row, which a lookup has the plays to count anyway."""
    if plays and plays[0].safe_seats is not None:
        return sum(to_move in p.safe_seats for p in plays if p.safe_seats is not None), 0
    outcomes = [p.outcome for p in plays]
    return outcomes.count(Outcome.LOSS), outcomes.count(Outcome.DRAW)


def derived_best(plays: Sequence[Play], to_move: int | None) -> int | None:
    """The number of the best play by the solvers' rule (`ghostdb.solvers`), from the
    plays' own values: for two players the first in move order among those that achieve
    the value and the length (`Play.sort_key`: wins soonest, ties soonest, draws, losses
    latest); with more, the first that keeps the mover safe, else the first.  None where
    there is no play."""
    if not plays:
        return None
    if plays[0].safe_seats is not None:
        return next((i for i, p in enumerate(plays) if to_move in (p.safe_seats or ())), 0)
    return min(range(len(plays)), key=lambda i: plays[i].sort_key())


def best_move(best_play: int | None, plays: Sequence[Play]) -> str | None:
    """The move of the play numbered ``best_play`` (None at a final position, or for a
    number that no play has)."""
    if best_play is None or not 0 <= best_play < len(plays):
        return None
    return plays[best_play].move


def seats(mask: int | None) -> tuple[int, ...] | None:
    """The seats of a safe-seat bit mask (None: a two-player solution)."""
    if mask is None:
        return None
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)
