"""An independent brute-force referee of a room's match, for tests: plain Python over the
word list itself (no store, no graph, nothing of ``ghostdb.play.rooms``).

It knows the rules as the manual states them: a turn is a letter or a challenge of the
previous player (never on a round's first move); completing a word of the minimum length
or more loses the round at once (misère: the others lose it); a challenged player names a
word of the list, of the minimum length or more, that the fragment can become (begins
with it in Ghost, has it inside in Super and SuperDuper), or concedes; a valid word loses
the round for the challenger, anything else for the challenged; each loser takes a letter,
a player with every letter is out, the loser (or the next player still in) starts the
next round, and the last one standing wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class BruteRoom:
    words: frozenset[str]
    min_length: int
    variant: str  # ghost, super, superduper
    misere: bool
    seats: int
    lives: int
    letters: list[int] = field(default_factory=list)
    fragment: str = ""
    order: list[int] = field(default_factory=list)
    turn: int = 0
    last: int | None = None
    challenger: int | None = None
    winners: list[int] | None = None

    def __post_init__(self) -> None:
        self.letters = [0] * self.seats
        self._new_round(0)

    # -- the word list, read directly --------------------------------------------------------

    def counts(self, word: str) -> bool:
        return word in self.words and len(word) >= self.min_length

    def extends(self, fragment: str, word: str) -> bool:
        return word.startswith(fragment) if self.variant == "ghost" else fragment in word

    def has_word(self, fragment: str) -> bool:
        return any(self.extends(fragment, w) for w in self.words if len(w) >= self.min_length)

    # -- the rules --------------------------------------------------------------------------

    def still_in(self) -> list[int]:
        return [s for s in range(self.seats) if self.letters[s] < self.lives]

    def _new_round(self, starter: int) -> None:
        playing = self.still_in()
        at = playing.index(starter)
        self.order = playing[at:] + playing[:at]
        self.fragment, self.turn, self.last, self.challenger = "", starter, None, None

    def _next(self, seat: int) -> int:
        return self.order[(self.order.index(seat) + 1) % len(self.order)]

    def move(self, seat: int, fragment: str) -> list[int] | None:
        """``seat`` makes ``fragment``: the round's losers if it ends, else None."""
        assert seat == self.turn and self.challenger is None
        self.fragment, self.last = fragment, seat
        if self.counts(fragment):
            losers = [s for s in self.order if s != seat] if self.misere else [seat]
            return self._end(losers)
        self.turn = self._next(seat)
        return None

    def challenge(self, seat: int) -> None:
        assert seat == self.turn and self.last is not None and self.challenger is None
        self.challenger, self.turn = seat, self.last

    def answer(self, seat: int, word: str) -> list[int]:
        assert seat == self.turn and self.challenger is not None
        valid = self.counts(word) and self.extends(self.fragment, word)
        return self._end([self.challenger] if valid else [seat])

    def concede(self, seat: int) -> list[int]:
        assert seat == self.turn
        return self._end([seat])

    def _end(self, losers: list[int]) -> list[int]:
        for s in losers:
            self.letters[s] += 1
        still = self.still_in()
        if len(still) <= 1:
            self.winners = still
        else:
            first = losers[0]
            starter = first
            while starter not in still:
                starter = (starter + 1) % self.seats
            self._new_round(starter)
        return losers
