"""Chopsticks, the finger game: a game whose moves can cycle, so endless play is a draw.

Each player has two hands showing 0–4 fingers (0 = dead); both start with one finger on
each hand; the player to move with two dead hands has lost.  A move is

* a **tap** ``a>b``: the mover's live hand showing a adds its fingers to one of the
  opponent's **live** hands showing b; a hand that reaches 5 (``fingers``) or more dies
  (with ``rollover`` it keeps the remainder modulo 5, dying only at exactly 0);
* or a **transfer** ``=xy`` (unless ``transfers`` is off): k fingers go from one of the
  mover's hands to the other, the source keeping at least one finger and the target
  staying alive, so that the mover's hands become x and y; merely swapping the two hands
  is not a move.  A transfer into a dead hand revives it.

A position is written ``ab-cd``: the mover's two hands, then the opponent's, each pair in
ascending order (a player's two hands are interchangeable), so the start is ``11-11``.
The key says nothing of which player is to move: the position is the same for both.
Moves are ordered taps first (by the tapping hand, then the tapped one), then transfers
(by the hands they leave); that order breaks ties between equally good moves.

Some descriptions (and ghostdb's origin) let a tap land on a dead hand and bring it back;
the standard rules used here do not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ghostdb.errors import BadFragment, BadMove
from ghostdb.games.base import LOSS, NOT_FINAL, Game, PositionGraph, explore
from ghostdb.games.chopsticks_rules import OPTIONS, ChopsticksRules

_KEY_RE = re.compile(r"^\s*(\d)\s*(\d)\s*[-/ ,]?\s*(\d)\s*(\d)\s*$")


def _key(mover: Sequence[int], opponent: Sequence[int]) -> str:
    a, b = sorted(mover)
    c, d = sorted(opponent)
    return f"{a}{b}-{c}{d}"


class Chopsticks(Game):
    name = "chopsticks"
    title = "Chopsticks"
    rules_type = ChopsticksRules
    options = OPTIONS
    board = "hands"
    how_to_play = (
        "Each player starts with one finger up on each hand. On your turn, tap one of the "
        "opponent's live hands with one of yours: it gains as many fingers as yours shows, "
        "and a hand that reaches the limit (5) dies. Or, with transfers, move fingers "
        "between your own hands. Whoever loses both hands loses; play that goes round for "
        "ever is a draw."
    )
    example_positions = ("11-11", "12-11")

    # -- moves ---------------------------------------------------------------------------

    def _moves(self, key: str) -> list[tuple[int, str, str]]:
        """``(rank, notation, child)`` for every move, in move order, one per child."""
        mine, theirs = (int(key[0]), int(key[1])), (int(key[3]), int(key[4]))
        n, found, seen = self.rules.fingers, [], set()
        if max(mine) == 0 or max(theirs) == 0:
            return []  # the game is over

        def add(rank: int, notation: str, child: str) -> None:
            if child not in seen:
                seen.add(child)
                found.append((rank, notation, child))

        for x in sorted({h for h in mine if h}):
            for y in sorted({h for h in theirs if h}):
                total = x + y
                hit = total % n if self.rules.rollover else (total if total < n else 0)
                other = theirs[1] if theirs[0] == y else theirs[0]
                add(10 * x + y, f"{x}>{y}", _key((hit, other), mine))
        if self.rules.transfers:
            results = set()
            for source, target in (mine, mine[::-1]):
                for k in range(1, min(source - 1, n - 1 - target) + 1):
                    if source - k != target:  # a swap is not a move
                        results.add(tuple(sorted((source - k, target + k))))
            for lo, hi in sorted(results):
                add(100 + 10 * lo + hi, f"={lo}{hi}", _key(theirs, (lo, hi)))
        return found

    def candidates(self, key: str) -> list[tuple[str, str]]:
        return [(notation, child) for _, notation, child in self._moves(key)]

    def parse_move(self, key: str, text: str) -> tuple[str, str]:
        wanted = re.sub(r"\s+", "", text).lower()
        for notation, child in self.candidates(key):
            if notation == wanted:
                return notation, child
        raise BadMove(f"{text.strip()!r} is not a move here: {self.move_hint()}")

    def move_hint(self) -> str:
        transfer = "; '=13' moves fingers between your hands to leave 1 and 3"
        return "type 'a>b' to tap their hand showing b with yours showing a" + (
            transfer if self.rules.transfers else ""
        )

    # -- positions -----------------------------------------------------------------------

    def start(self) -> str:
        return "11-11"

    def level(self, key: str) -> int:
        return 0

    def clean_key(self, text: str) -> str:
        match = _KEY_RE.match(text)
        if not match:
            raise BadFragment(
                f"{text!r} is not a Chopsticks position: write your two hands, a dash and "
                "the opponent's, e.g. 11-11"
            )
        digits = [int(d) for d in match.groups()]
        if max(digits) >= self.rules.fingers:
            raise BadFragment(
                f"{text!r} has a hand of {max(digits)} fingers: hands show 0 to "
                f"{self.rules.fingers - 1}"
            )
        return _key(digits[:2], digits[2:])

    def ending(self, key: str) -> str:
        return "the player to move has two dead hands"

    def label(self, key: str) -> str:
        return key

    def explain(self) -> str:
        rules = self.rules
        limit = (
            f"a hand that reaches {rules.fingers} or more keeps only what is over "
            f"{rules.fingers}, dying at exactly {rules.fingers}"
            if rules.rollover
            else f"a hand that reaches {rules.fingers} fingers dies"
        )
        transfers = (
            " Or move fingers between your own hands (not just swapping them)."
            if rules.transfers
            else ""
        )
        return (
            "Each player starts with one finger up on each hand. On your turn, tap one of "
            "the opponent's live hands with one of yours: it gains as many fingers as yours "
            f"shows, and {limit}.{transfers} Whoever loses both hands loses; play that goes "
            "round for ever is a draw."
        )

    def picture(self, key: str, players: Sequence[str], to_move: int) -> list[str]:
        """Both players' hands, each on its own line after its name, player 0's first
        whoever is to move (a key is the mover's hands first, so they would swap every
        turn), a dead hand shown as ``-``."""
        mover, other = key.split("-")
        hands = {to_move: mover, 1 - to_move: other}
        width = max(map(len, players))
        return [
            f"    {players[p] + ':':<{width + 1}}  hands {_hand(hands[p][0])} {_hand(hands[p][1])}"
            for p in (0, 1)
        ]

    # -- the graph -------------------------------------------------------------------------

    @classmethod
    def standard_rule_sets(cls, misere: bool = False) -> list[ChopsticksRules]:
        """With and without rollover and transfers."""
        if misere:
            raise BadMove("--misere is not a rule option of chopsticks")
        return [
            ChopsticksRules(5, rollover, transfers)
            for rollover in (False, True)
            for transfers in (True, False)
        ]

    def build(self, words: Sequence[str] | None = None) -> PositionGraph:
        def moves(key: str) -> list[tuple[int, str]]:
            return [(rank, child) for rank, _, child in self._moves(key)]

        def final(key: str) -> int:
            return LOSS if key[:2] == "00" else NOT_FINAL

        return explore(self.start(), moves, final, self.level, acyclic=False)


def _hand(fingers: str) -> str:
    return "-" if fingers == "0" else fingers
