"""What a lookup answers: a position's outcome and its plays, small immutable values
shared by the store, the renderers and the game engine.

The store's other results (ingest reports, dictionaries, solutions, summaries,
comparisons) are in `ghostdb.records`: a lookup needs none of them.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple


class Outcome(enum.Enum):
    """The value of a position with perfect play, stated for the player to move."""

    WIN = "win"
    """The player to move can force a win (in Ghost: force the opponent to complete a word)."""
    LOSS = "loss"
    """Whatever the player to move does, the opponent can force a win."""
    TIE = "tie"
    """Neither side can force a win; the game ends with nobody winning (tic-tac-toe)."""
    DRAW = "draw"
    """Neither side can force the game to end (Chopsticks): play goes on for ever."""

    def flipped(self) -> Outcome:
        """The same position's value for the other player (2 players)."""
        return {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}.get(self, self)


CATEGORY = {Outcome.LOSS: "win", Outcome.WIN: "loss", Outcome.TIE: "tie", Outcome.DRAW: "draw"}
"""A move's category: the outcome it brings the player who makes it, in the outcome words.

Unlike the lichess tablebase API, whose category is the position's value for the side to
move after the move, ghostdb states a move's value for the player who makes it: with more
than two players (Ghost for N) the next player's value does not tell the mover's, and a
move list read by the mover is read best first either way.  A play's ``outcome`` is the
lichess-style value (for the player to move after it)."""
_PREFERENCE = {"win": 0, "tie": 1, "draw": 2, "loss": 3}


class Play(NamedTuple):
    """A legal move and the position it leads to (a NamedTuple: lookups make many)."""

    move: str
    """The move in the game's notation."""
    fragment: str
    """The position after the move (its text key)."""
    outcome: Outcome
    """Outcome of the new position for the player to move there (the opponent)."""
    game_length: int | None
    """Moves left after the move under best play (0 if it ends the game; None: a draw)."""
    is_final: bool
    """Whether the move ends the game (in Ghost: completes a word)."""
    safe_seats: tuple[int, ...] | None = None
    """More than two players: the seats that can still avoid losing after the move."""
    label: str | None = None
    """How the mover says the new position (Anagram Ghost: an arrangement of its letters)."""

    @property
    def wins(self) -> bool:
        """Whether the move wins for the player who makes it."""
        return self.outcome is Outcome.LOSS

    @property
    def is_word(self) -> bool:
        """Ghost's name for a move that ends the game: it completes a word."""
        return self.is_final

    @property
    def category(self) -> str:
        """win / loss / tie / draw for the player who makes the move (see `CATEGORY`)."""
        return CATEGORY[self.outcome]

    def sort_key(self) -> tuple[int, int]:
        """Best first for the mover: wins soonest, ties soonest, draws, losses latest."""
        rank = _PREFERENCE[self.category]
        length = self.game_length if self.game_length is not None else 0
        return rank, -length if rank == 3 else length

    def as_dict(self) -> dict[str, Any]:
        data = {
            "move": self.move,
            "position": self.fragment,
            "fragment": self.fragment,  # the older name, kept for scripts (the glossary)
            # Each value names whose view it is in: `outcome` beside `category` read as
            # "loss" beside "win" for one winning move.  The older names stay for scripts
            # (the glossary): outcome, category and wins.
            "outcome_for_mover": self.category,
            "outcome_for_next_player": self.outcome.value,
            "outcome": self.outcome.value,
            "category": self.category,
            "wins": self.wins,
            "game_length": self.game_length,
            "final": self.is_final,
        }
        if self.safe_seats is not None:
            data["safe_seats"] = list(self.safe_seats)
        if self.label is not None:
            data["say"] = self.label
        return data


class Position(NamedTuple):
    """A stored position with its solved values and its legal moves (a NamedTuple, not a
    frozen dataclass: lookups make one each, and this builds several times faster)."""

    name: str
    """The dictionary (word games) or the game it belongs to."""
    game: str
    rules: str
    """The rule set's key, e.g. ``ghost/3``, ``superduper/4/misere``, ``chopsticks/5``."""
    fragment: str
    """The position's text key: Ghost letters, Chopsticks hands, a tic-tac-toe board."""
    outcome: Outcome
    game_length: int | None
    """Moves left with best play (see `ghostdb.solvers`); None for a draw."""
    best_move: str | None
    winning_moves: int
    drawing_moves: int
    is_final: bool
    """The game is over here; its outcome is decided by the rules."""
    ending: str | None
    """Why the game is over here (None if it is not)."""
    reachable: bool
    """Whether a real game can arrive here (Ghost: no earlier fragment was a word)."""
    to_move: int | None
    """Index of the player to move (0 made the first move); None where the position does
    not tell (Chopsticks: the same for both players)."""
    plays: tuple[Play, ...] = ()
    """The legal moves, in move order."""
    safe_seats: tuple[int, ...] | None = None
    """More than two players: the seats that can avoid losing from here whatever the
    others do together (None for two players)."""
    label: str | None = None
    """How the position is said (Anagram Ghost: an arrangement of its letters)."""

    @property
    def safe_moves(self) -> list[Play]:
        """More than two players: the moves after which the mover is still safe."""
        if self.to_move is None or self.safe_seats is None:
            return []
        return [p for p in self.plays if p.safe_seats and self.to_move in p.safe_seats]

    @property
    def dictionary(self) -> str:
        return self.name

    @property
    def is_word(self) -> bool:
        return self.is_final

    @property
    def winner(self) -> int | None:
        """The player who wins from here with perfect play, where one does and the
        position says whose turn it is."""
        if self.to_move is None or self.outcome not in (Outcome.WIN, Outcome.LOSS):
            return None
        if self.safe_seats is not None:
            return None  # more than two players: see safe_seats
        return self.to_move if self.outcome is Outcome.WIN else 1 - self.to_move

    def ranked_plays(self) -> list[Play]:
        """The moves best first for the mover (ties keep move order)."""
        return sorted(self.plays, key=Play.sort_key)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "rules": self.rules,
            "position": self.fragment,
            "fragment": self.fragment,  # the older name, kept for scripts (the glossary)
            "to_move": self.to_move,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "game_length": self.game_length,
            "best_move": self.best_move,
            "winning_moves": self.winning_moves,
            "drawing_moves": self.drawing_moves,
            "final": self.is_final,
            "ending": self.ending,
            "reachable": self.reachable,
            **({} if self.label is None else {"say": self.label}),
            **({} if self.safe_seats is None else {"safe_seats": list(self.safe_seats)}),
            "plays": [p.as_dict() for p in self.ranked_plays()],
        }
