"""Which words decide plain Ghost: single-word edits that change the outcome at a
position, and the fewest deletions that do, from stored values without solving again.

A word's deletion or addition changes only the fragments along that word, so its effect
is found by re-evaluating one path: from the edited word up towards the position, each
fragment's value follows from its children's, which are stored, and the walk stops at
the first fragment whose value does not change (or at a shorter word, below which
nothing is reachable).  Per fragment the walk needs how many children it has and how
many of them are lost for their mover; both are counted once from the stored values.

The fewest deletions are exact: the words below different moves are disjoint, so the
cost of making each fragment won, lost or gone (every word under it deleted) follows
from its children's costs, one pass from the deepest fragments up.

Plain Ghost for two players only (normal or misère): in the Super variants a word's
infixes are fragments too, so edits interact and a path no longer says it all.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

WIN, LOSS, GONE = "win", "loss", "gone"
"""A fragment's state after an edit: won or lost for the player to move there, or no
longer a fragment (no word begins with it)."""
INFINITE = 1 << 60
_TOP = chr(0x10FFFF)


@dataclass(frozen=True)
class Edit:
    """A single-word edit and the outcome at the position after it."""

    word: str
    added: bool
    outcome: str

    def as_dict(self) -> dict[str, object]:
        return {"word": self.word, "outcome": self.outcome}


@dataclass(frozen=True)
class Fewest:
    """The fewest deletions that change the outcome at the position, and one such set."""

    count: int | None
    """None when no set of deletions changes it (every way leaves the position gone)."""
    delete: tuple[str, ...]
    outcome: str | None

    def as_dict(self) -> dict[str, object]:
        return {
            "count": self.count,
            "delete": list(self.delete),
            "add": [],
            "outcome": self.outcome,
        }


class Decider:
    """One stored plain-Ghost solution: its game words and every fragment's value.

    ``values`` maps every stored fragment to its outcome for the player to move there
    (``win`` or ``loss``); ``words`` are the game words (of at least the minimum length).
    """

    def __init__(self, words: Iterable[str], values: Mapping[str, str], misere: bool) -> None:
        self.words = sorted(words)
        self.word_set = frozenset(self.words)
        self.values = values
        self.terminal = LOSS if misere else WIN
        """The value at a word for the player to move there: the other completed it."""
        self.children: dict[str, int] = {}
        self.losing: dict[str, int] = {}
        for fragment, value in values.items():
            if fragment:
                parent = fragment[:-1]
                self.children[parent] = self.children.get(parent, 0) + 1
                if value == LOSS:
                    self.losing[parent] = self.losing.get(parent, 0) + 1

    # -- the shape of the word list ----------------------------------------------------------

    def words_under(self, fragment: str) -> int:
        """How many game words begin with ``fragment``."""
        lo = bisect.bisect_left(self.words, fragment)
        return bisect.bisect_left(self.words, fragment + _TOP, lo) - lo

    def words_below(self, fragment: str) -> list[str]:
        lo = bisect.bisect_left(self.words, fragment)
        return self.words[lo : bisect.bisect_left(self.words, fragment + _TOP, lo)]

    def outcome(self, position: str) -> str:
        return self.values[position]

    # -- one path re-evaluated ---------------------------------------------------------------

    def _propagate(self, position: str, node: str, old: str, new: str) -> str:
        """The state of ``position`` once ``node`` (below or at it) went from ``old`` to
        ``new``, re-evaluating its ancestors up to ``position`` until one is unchanged."""
        while node != position and old != new:
            parent = node[:-1]
            if parent in self.word_set:
                return self.values[position]  # a word stops play: nothing below it counts
            children = self.children.get(parent, 0) + (new != GONE) - (old != GONE)
            losing = self.losing.get(parent, 0) + (new == LOSS) - (old == LOSS)
            state = GONE if children == 0 else WIN if losing else LOSS
            node, old, new = parent, self.values[parent], state
        return new if node == position else self.values[position]

    def _blocked(self, position: str, word: str) -> bool:
        """Whether a shorter word from ``position`` on ends play before ``word``."""
        return any(word[:k] in self.word_set for k in range(len(position), len(word)))

    def deleted(self, position: str, word: str) -> str:
        """The state of ``position`` with ``word`` (a game word below it) deleted."""
        if self._blocked(position, word):
            return self.values[position]
        # Longer words go on: play continues past it (its value from its children).
        on = self.words_under(word) > 1
        new = (WIN if self.losing.get(word, 0) else LOSS) if on else GONE
        return self._propagate(position, word, self.values[word], new)

    def added(self, position: str, word: str) -> str:
        """The state of ``position`` with ``word`` (not a game word; below it) added."""
        if self._blocked(position, word):
            return self.values[position]
        if word in self.values:  # a fragment already: it becomes a word, and play stops
            return self._propagate(position, word, self.values[word], self.terminal)
        k = len(position)
        while word[: k + 1] in self.values:
            k += 1
        first_new = word[: k + 1]
        # A chain of new fragments each with one move: the value flips at every step up.
        value = self.terminal
        if (len(word) - len(first_new)) % 2:
            value = LOSS if value == WIN else WIN
        return self._propagate(position, first_new, GONE, value)

    def single_deletions(self, position: str) -> list[Edit]:
        """Every game word below ``position`` whose deletion alone changes its outcome."""
        now = self.values[position]
        found = []
        for word in self.words_below(position):
            state = self.deleted(position, word)
            if state != now:
                found.append(Edit(word, False, state))
        return found

    def single_additions(self, position: str, pool: Iterable[str]) -> list[Edit]:
        """Every word of ``pool`` (game words of another list) not in this one, below
        ``position``, whose addition alone changes its outcome."""
        now = self.values[position]
        found = []
        for word in sorted(set(pool) - self.word_set):
            if word.startswith(position) and word != position:
                state = self.added(position, word)
                if state != now:
                    found.append(Edit(word, True, state))
        return found

    # -- the fewest deletions ----------------------------------------------------------------

    def fewest_deletions(self, position: str) -> Fewest:
        """The fewest deletions that change the outcome at ``position``, exactly, with
        one such set of words (the first in move order among the cheapest)."""
        below = sorted(
            (f for f in self.values if f.startswith(position)), key=lambda f: (-len(f), f)
        )
        costs: dict[str, tuple[int, int]] = {}  # fragment -> (cost to win, cost to lose)
        kids: dict[str, list[str]] = {}
        for fragment in below:
            if fragment != position:
                kids.setdefault(fragment[:-1], []).append(fragment)
        for fragment in below:
            children = sorted(kids.get(fragment, ()))
            win, lose = self._child_costs(children, costs)
            if fragment in self.word_set:  # keep the word: its value; or delete it
                keep = (0, INFINITE) if self.terminal == WIN else (INFINITE, 0)
                win, lose = min(keep[0], 1 + win), min(keep[1], 1 + lose)
            costs[fragment] = (win, lose)
        target = LOSS if self.values[position] == WIN else WIN
        cost = costs[position][0 if target == WIN else 1]
        if cost >= INFINITE:
            return Fewest(None, (), None)
        chosen: list[str] = []
        self._collect(position, target, kids, costs, chosen)
        return Fewest(cost, tuple(sorted(chosen)), target)

    def _child_costs(
        self, children: Sequence[str], costs: Mapping[str, tuple[int, int]]
    ) -> tuple[int, int]:
        """The cheapest way to make a fragment with these children won (one child lost)
        and lost (every child won or gone, at least one left)."""
        if not children:
            return INFINITE, INFINITE
        win = min(costs[c][1] for c in children)
        lose = 0
        extra = INFINITE
        for c in children:
            won, gone = costs[c][0], self.words_under(c)
            lose += min(won, gone)
            extra = min(extra, max(won - gone, 0))
        if all(self.words_under(c) < costs[c][0] for c in children):
            lose += extra  # one child must stay: the cheapest to keep, won
        return win, min(lose, INFINITE)

    def _collect(
        self,
        fragment: str,
        target: str,
        kids: Mapping[str, list[str]],
        costs: Mapping[str, tuple[int, int]],
        chosen: list[str],
    ) -> None:
        """Add to ``chosen`` the deletions that give ``fragment`` the value ``target`` at
        its stored cost (the choices `fewest_deletions` priced)."""
        index = 0 if target == WIN else 1
        if costs[fragment][index] == 0:
            return
        children = sorted(kids.get(fragment, ()))
        if fragment in self.word_set:
            keep_ok = self.terminal == target
            if not keep_ok:
                chosen.append(fragment)  # deleting the word lets play go on
        if target == WIN:
            best = min(children, key=lambda c: costs[c][1])
            self._collect(best, LOSS, kids, costs, chosen)
            return
        options = [(costs[c][0], self.words_under(c), c) for c in children]
        kept = None
        if all(gone < won for won, gone, _ in options):
            kept = min(options, key=lambda o: (o[0] - o[1], o[2]))[2]
        for won, gone, child in options:
            if child == kept or won <= gone:
                self._collect(child, WIN, kids, costs, chosen)
            else:
                chosen.extend(self.words_below(child))
