"""Insert and Anagram Ghost on ENABLE, words of 3+ and of 4+ letters: the stored winner and
winning first moves against an independent search, and the manual's table against both.

The reference shares nothing with ghostdb: the legal positions are a Python set built
from every infix of every word (Anagram: every infix's sorted letters, with whether some
arrangement of them is part of a word without being one), and the values come from a
plain recursive search over strings that stops at the first winning move it finds.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from conftest import ROOT, copy_db

from ghostdb import Rules, Store, open_store
from ghostdb.games.ghost.rules import Variant

pytestmark = [pytest.mark.slow, pytest.mark.long]  # Insert and Anagram Ghost on ENABLE: minutes

CASES = [(v, m) for v in (Variant.INSERT, Variant.ANAGRAM) for m in (3, 4)]


class Reference:
    """Who wins Insert or Anagram Ghost from a position, by plain recursion."""

    def __init__(self, words: list[str], variant: Variant, min_length: int) -> None:
        game = {w for w in words if len(w) >= min_length}
        self.letters = sorted({c for w in game for c in w})
        self.anagram = variant is Variant.ANAGRAM
        if self.anagram:
            # sorted letters -> some arrangement is part of a word but not a word itself
            sayable: dict[str, bool] = {}
            for x in _infixes(game):
                key = "".join(sorted(x))
                sayable[key] = sayable.get(key, False) or x not in game
            self.legal: Callable[[str], bool] = sayable.__contains__
            self.final: Callable[[str], bool] = lambda k: not sayable.get(k, True)
        else:
            infixes = set(_infixes(game))
            self.legal = infixes.__contains__
            self.final = game.__contains__
        self.wins = cache(self._wins)
        sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def moves(self, f: str) -> Iterator[str]:
        seen = set()
        for c in self.letters:
            if self.anagram:
                options = ["".join(sorted(f + c))]
            else:
                options = [f[:i] + c + f[i:] for i in range(len(f) + 1)]
            for g in options:
                if g not in seen and self.legal(g):
                    seen.add(g)
                    yield g

    def _wins(self, f: str) -> bool:
        """Whether the player to move at ``f`` wins (at a word: the mover has won)."""
        if self.final(f):
            return True
        return any(not self.wins(g) for g in self.moves(f))

    def winning_first_moves(self) -> list[str]:
        return [g for g in self.moves("") if not self.wins(g)]


def _infixes(words: set[str]) -> Iterator[str]:
    for w in words:
        for i in range(len(w)):
            for j in range(i + 1, len(w) + 1):
                yield w[i:j]


@pytest.fixture(scope="module")
def store(solved_enable1: Store, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A copy of the solved ENABLE store with every variant solved at 3+ and 4+."""
    path = tmp_path_factory.mktemp("variants") / "ghost.db"
    copy_db(solved_enable1.engine.url.database, path)
    with open_store(str(path), create=True) as copy:
        for variant in Variant:
            for min_length in (3, 4):
                copy.solve("enable1", Rules(variant, min_length))
        yield copy


@pytest.mark.parametrize(("variant", "min_length"), CASES, ids=lambda x: str(x))
def test_winner_and_winning_first_moves_match_an_independent_search(
    store: Store, enable1: Path, variant: Variant, min_length: int
) -> None:
    rules = Rules(variant, min_length)
    reference = Reference(enable1.read_text().split(), variant, min_length)
    start = store.solution("enable1", rules).lookup()
    assert (start.outcome.value == "win") == reference.wins("")
    stored = sorted(p.fragment for p in start.plays if p.wins)
    assert stored == sorted(reference.winning_first_moves())
    # Every second move too: the values of all positions two moves from the start.
    for play in start.plays[:6]:
        after = store.solution("enable1", rules).lookup(play.fragment)
        assert (after.outcome.value == "win") == reference.wins(play.fragment)
        for reply in after.plays:  # a play's outcome is for the player to move after it
            assert (reply.outcome.value == "win") == reference.wins(reply.fragment), (
                play.fragment,
                reply.fragment,
            )


def test_the_manuals_table(store: Store) -> None:
    """The manual's table of ENABLE under every rule set is what the store says."""
    text = (ROOT / "docs" / "guide" / "variants.md").read_text()
    rows = re.findall(
        r"^\| (\w+) \| (\d)\+ \| ([\d,]+) \| ([\d,]+) \| (.+?) \| (.*?) \|$", text, re.M
    )
    table = {(r[0], int(r[1])): r[2:] for r in rows}
    assert set(table) == {(v.value, m) for v in Variant for m in (3, 4)}
    for (name, min_length), (positions, reachable, winner, first) in table.items():
        rules = Rules(Variant(name), min_length)
        summary = store.solution("enable1", rules).summary()
        assert int(positions.replace(",", "")) == summary.fragment_count
        assert int(reachable.replace(",", "")) == summary.reachable_count
        assert winner == f"player {summary.winner}"
        assert first == (" ".join(summary.winning_first_moves) or "none")
