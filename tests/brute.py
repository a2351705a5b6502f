"""An independent brute-force Ghost solver for tests: plain recursion over strings.

It shares nothing with ghostdb's solver (no graph, no numpy, no levels), so agreement
between the two on random small dictionaries means something.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ghostdb.games.ghost.rules import Rules, Variant


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
    infixes = {w[i:j] for w in game for i in range(len(w)) for j in range(i, len(w) + 1)}
    if rules.variant is Variant.GHOST:

        def is_fragment(f: str) -> bool:
            return any(w.startswith(f) for w in game)
    elif rules.variant is Variant.ANAGRAM:

        def is_fragment(f: str) -> bool:  # a multiset, as its sorted letters
            return any(sorted(x) == sorted(f) for x in infixes)
    else:

        def is_fragment(f: str) -> bool:
            return any(f in w for w in game)

    def is_word(f: str) -> bool:
        if rules.variant is not Variant.ANAGRAM:
            return f in game
        # Anagram Ghost: over only when no arrangement that is part of a word is a non-word.
        said = [x for x in infixes if sorted(x) == sorted(f)]
        return bool(said) and all(x in game for x in said)

    letters = sorted(set("".join(game)))

    def plays(f: str) -> list[str]:
        if is_word(f):
            return []
        out: list[str] = []
        for c in letters:
            if rules.variant is Variant.ANAGRAM:
                options = ["".join(sorted(f + c))]
            elif rules.variant is Variant.INSERT:
                options = [f[:i] + c + f[i:] for i in range(len(f) + 1)]
            else:
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
        if is_word(f):
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
        if is_word(f):
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

    words_of_game = [f for f in sorted(infixes | {""}) if is_fragment(f) and is_word(f)]
    if rules.variant is Variant.ANAGRAM:
        words_of_game = sorted({"".join(sorted(f)) for f in words_of_game})
    return Brute(value, plan, plays, is_fragment, words_of_game)


def brute_safe(words: list[str], rules: Rules) -> Callable[[str], frozenset[int]]:
    """``safe(f)``: the seats that can avoid losing from fragment ``f`` whatever all the
    other seats do together, by plain recursion over strings (N seats in turn)."""
    n = rules.players
    base = brute_force(words, Rules(rules.variant, rules.min_length, rules.misere))
    finals = set(base.game_words)

    @cache
    def safe(f: str) -> frozenset[int]:
        if f in finals:
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
