"""An independent brute-force Ghost solver for tests: plain recursion over strings.

It shares nothing with ghostdb's solver (no graph, no numpy, no levels), so agreement
between the two on random small dictionaries means something.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ghostdb.rules import Rules, Variant


@dataclass
class Brute:
    """``value(f)`` → (player to move wins, moves left); ``plan(f, strategist_moves)`` →
    (lossiness, outcomes, letters) of the best plan; ``fragments``: every fragment."""

    value: Callable[[str], tuple[bool, int]]
    plan: Callable[[str, bool], tuple[int, int, int]]
    plays: Callable[[str], list[str]]
    is_fragment: Callable[[str], bool]
    game_words: list[str]


def brute_force(words: list[str], rules: Rules) -> Brute:
    game = [w for w in words if len(w) >= rules.min_length]
    if rules.variant is Variant.GHOST:

        def is_fragment(f: str) -> bool:
            return any(w.startswith(f) for w in game)
    else:

        def is_fragment(f: str) -> bool:
            return any(f in w for w in game)

    letters = sorted(set("".join(game)))

    def plays(f: str) -> list[str]:
        if f in game:
            return []
        out: list[str] = []
        for c in letters:
            options = [f + c]
            if rules.variant is not Variant.GHOST:
                options.append(c + f)
            if rules.variant is Variant.SUPERDUPER:
                options += [f[::-1] + c, c + f[::-1]]
            for g in options:
                if g not in out and is_fragment(g):
                    out.append(g)
        return out

    @cache
    def value(f: str) -> tuple[bool, int]:
        if f in game:
            return (not rules.misere, 0)
        results = [value(g) for g in plays(f)]
        losing = [n for win, n in results if not win]
        if losing:
            return True, 1 + min(losing)
        return False, 1 + max(n for _, n in results)

    @cache
    def plan(f: str, strategist_moves: bool) -> tuple[int, int, int]:
        """Best plan rank for a strategist who is (or is not) to move at ``f``.

        Every outcome is a path to a word; the strategist wins there if the word's
        value (for the player to move at it) is a win and the strategist is to move.
        """
        if f in game:
            strategist_wins = value(f)[0] == strategist_moves
            return (0 if strategist_wins else 2, 1, len(f))
        options = [plan(g, not strategist_moves) for g in plays(f)]
        if strategist_moves:
            return min(options)
        lossy = {o[0] for o in options}
        return (
            lossy.pop() if len(lossy) == 1 else 1,
            sum(o[1] for o in options),
            sum(o[2] for o in options),
        )

    return Brute(value, plan, plays, is_fragment, game)


def brute_safe(words: list[str], rules: Rules) -> Callable[[str], frozenset[int]]:
    """``safe(f)``: the seats that can avoid losing from fragment ``f`` whatever all the
    other seats do together, by plain recursion over strings (N seats in turn)."""
    n = rules.players
    base = brute_force(words, Rules(rules.variant, rules.min_length, rules.misere))

    @cache
    def safe(f: str) -> frozenset[int]:
        if f in base.game_words:
            completer = (len(f) - 1) % n
            if rules.misere:
                return frozenset({completer})
            return frozenset(range(n)) - {completer}
        mover = len(f) % n
        kids = [safe(g) for g in base.plays(f)]
        seats = set()
        for s in range(n):
            if s == mover:
                if any(s in k for k in kids):
                    seats.add(s)
            elif all(s in k for k in kids):
                seats.add(s)
        return frozenset(seats)

    return safe
