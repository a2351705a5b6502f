"""Analysis of a played game: every move judged by the stored values, as a chess site's
analysis board judges one by its engine.

A move is judged by its value for the player who made it, before and after: **best**
(it keeps the value, and the game length with it: the win soonest, the loss latest),
**good** (it keeps the value, not the length), **mistake** (a worse value that is not a
loss: a win thrown to a tie or a draw, a tie to a draw) or **blunder** (a loss where the
mover did not have to lose).  With more than two players a value is whether the mover
can still avoid losing, whatever the others do together: a move that keeps that is best,
one that throws it away a blunder.  A letter no word continues (Ghost) loses at once.

Pure: positions come from a lookup the caller gives (the store's, or a pack's probe),
so this knows no database.  For word games each mistake and blunder names the word behind
it: the word the best line after the move ends on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ghostdb.errors import BadFragment, BadMove
from ghostdb.games.base import Game
from ghostdb.values import Outcome, Play, Position

Lookup = Callable[[str], Position]
RANK = {"win": 0, "tie": 1, "draw": 2, "loss": 3}
"""Values for the mover, best first."""
VERDICTS = ("best", "good", "mistake", "blunder")
MAX_MOVES = 200
"""The most moves an analysis takes (a request's cap; no stored game is longer)."""


@dataclass(frozen=True)
class Review:
    """One move of the game, judged."""

    number: int
    """1 for the first move."""
    player: int
    move: str
    """In the game's notation."""
    before: str
    """The position the move was made from."""
    after: str
    value_before: str
    """The mover's value before the move (win, tie, draw, loss)."""
    value_after: str
    """The mover's value after it."""
    length_before: int | None
    length_after: int | None
    best: tuple[str, ...]
    """The moves that keep the value and the length (the best moves instead)."""
    verdict: str
    word: str | None = None
    """Word games, a mistake or blunder: the word the best line after the move ends on."""
    ends: bool = False
    """The move ended the game."""

    def note(self, game: Game) -> str:
        """What a reader is told of the move, e.g. "after 'tre', 'w' loses to 'trews';
        'n' would have won"."""
        if self.verdict in ("best", "good"):
            return ""
        label = game.label
        instead = " or ".join(repr(m) for m in self.best[:3]) + (" …" if len(self.best) > 3 else "")
        verb = {"win": "won", "tie": "tied", "draw": "drawn", "loss": "lost"}[self.value_before]
        to = f" to {self.word!r}" if self.word else ""
        result = "loses" if self.value_after == "loss" else f"{self.value_after}s"
        would = f"; {instead} would have {verb}" if self.best else ""
        return f"after {label(self.before)}, {self.move!r} {result}{to}{would}"

    def as_dict(self, game: Game) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "move": self.move,
            "before": self.before,
            "after": self.after,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "length_before": self.length_before,
            "length_after": self.length_after,
            "best": list(self.best),
            "verdict": self.verdict,
            "word": self.word,
            "ends": self.ends,
            "note": self.note(game),
        }


@dataclass(frozen=True)
class Analysis:
    """A game's moves judged, each player's accuracy and the first decisive mistake."""

    name: str
    game: Game
    start: str
    players: int
    reviews: tuple[Review, ...]

    @property
    def accuracy(self) -> list[dict[str, Any]]:
        """Per player: moves made, moves that kept the value (best or good), their share."""
        found = []
        for player in range(self.players):
            mine = [r for r in self.reviews if r.player == player]
            kept = sum(r.verdict in ("best", "good") for r in mine)
            share = None if not mine else round(kept / len(mine), 4)
            found.append({"player": player, "moves": len(mine), "kept": kept, "accuracy": share})
        return found

    @property
    def decisive(self) -> Review | None:
        """The first mistake or blunder: where the game's result was decided."""
        return next((r for r in self.reviews if r.verdict in ("mistake", "blunder")), None)

    def as_dict(self) -> dict[str, Any]:
        decisive = self.decisive
        return {
            "name": self.name,
            "game": self.game.name,
            "rules": self.game.key,
            "start": self.start,
            "moves": [r.as_dict(self.game) for r in self.reviews],
            "accuracy": self.accuracy,
            "decisive": None if decisive is None else decisive.number,
        }


def analyse(
    name: str, game: Game, lookup: Lookup, moves: Sequence[str], start: str = ""
) -> Analysis:
    """Judge ``moves`` (typed as `play` prints them: a move in the game's notation, or,
    in a word game, the position it makes) from ``start`` (default the game's start).
    BadMove (one line, naming the first bad move) for a record that is not a game."""
    if len(moves) > MAX_MOVES:
        raise BadMove(f"a game of {len(moves)} moves: at most {MAX_MOVES} are analysed")
    players = getattr(game.rules, "players", 2)
    pos = lookup(game.key_of(start))
    origin = pos.fragment
    reviews: list[Review] = []
    first = pos.to_move or 0
    for number, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise TypeError(f"move {number} is {text!r}: a move is text, as play prints it")
        where = f"move {number} ({text.strip()!r})"
        if pos.is_final or not pos.plays or (reviews and reviews[-1].ends):
            raise BadMove(f"{where}: the game was already over at {game.label(pos.fragment)}")
        player = (first + number - 1) % players
        notation, child = _read_move(game, pos, text, where)
        play = next((p for p in pos.plays if p.fragment == child), None)
        if play is None:
            if game.dead_play(child, [p.fragment for p in pos.plays]) is None:
                raise BadMove(f"{where} is not a legal move at {game.label(pos.fragment)}")
            reviews.append(_dead(number, player, notation, pos, child, players))
            continue
        review = _review(number, player, pos, play, players)
        if review.verdict in ("mistake", "blunder") and game.word_game:
            review = _with_word(review, play, lookup)
        reviews.append(review)
        if not play.is_final:
            pos = lookup(play.fragment)
        else:
            reviews[-1] = _ended(reviews[-1])
    return Analysis(name, game, origin, players, tuple(reviews))


def _read_move(game: Game, pos: Position, text: str, where: str) -> tuple[str, str]:
    """The move typed: in the game's notation, or (a word game) as the position it makes."""
    try:
        return game.parse_move(pos.fragment, text)
    except BadMove as exc:
        if game.word_game:
            try:
                key = game.clean_key(text)
            except BadFragment:
                key = None
            if key is not None:
                try:  # the position the move makes: its notation
                    return game.describe_move(pos.fragment, key), key
                except BadMove:
                    pass
        raise BadMove(f"{where}: {exc}") from None


def mover_values(pos: Position, play: Play | None, players: int) -> tuple[str, str]:
    """The mover's value before the move and after it (None: a move that loses at once)."""
    if pos.safe_seats is not None:  # more than two players: can the mover avoid losing?
        before = "win" if pos.to_move in pos.safe_seats else "loss"
        after = (
            "loss"
            if play is None
            else ("win" if play.safe_seats and pos.to_move in play.safe_seats else "loss")
        )
        return before, after
    return pos.outcome.value, "loss" if play is None else play.category


def best_moves(pos: Position) -> tuple[str, ...]:
    """The moves that keep the mover's value and the game length."""
    if pos.safe_seats is not None:
        return tuple(p.move for p in pos.safe_moves)
    length = None if pos.game_length is None else pos.game_length - 1
    value = pos.outcome.value
    return tuple(
        p.move
        for p in pos.plays
        if p.category == value and (pos.outcome is Outcome.DRAW or p.game_length == length)
    )


def verdict(before: str, after: str, is_best: bool) -> str:
    if RANK[after] <= RANK[before]:
        return "best" if is_best or RANK[after] < RANK[before] else "good"
    return "blunder" if after == "loss" else "mistake"


def _review(number: int, player: int, pos: Position, play: Play, players: int) -> Review:
    before, after = mover_values(pos, play, players)
    best = best_moves(pos)
    return Review(
        number,
        player,
        play.move,
        pos.fragment,
        play.fragment,
        before,
        after,
        pos.game_length,
        play.game_length,
        best,
        verdict(before, after, play.move in best),
    )


def _dead(
    number: int, player: int, notation: str, pos: Position, child: str, players: int
) -> Review:
    """A move to a position no game reaches (Ghost: a letter no word continues): its
    mover loses at once."""
    before, after = mover_values(pos, None, players)
    best = best_moves(pos)
    return Review(
        number,
        player,
        notation,
        pos.fragment,
        child,
        before,
        after,
        pos.game_length,
        0,
        best,
        verdict(before, after, False),
        ends=True,
    )


def _ended(review: Review) -> Review:
    return Review(**{**review.__dict__, "ends": True})


def _with_word(review: Review, play: Play, lookup: Lookup) -> Review:
    """The word the best line after a bad move ends on (at most 100 moves on)."""
    fragment, pos = play.fragment, None
    for _ in range(100):
        if play.is_final:
            break
        pos = lookup(fragment)
        nxt = next((p for p in pos.plays if p.move == pos.best_move), None)
        if nxt is None:
            break
        play, fragment = nxt, nxt.fragment
    return Review(**{**review.__dict__, "word": fragment if play.is_final else None})
