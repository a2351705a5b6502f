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

Plain Ghost for two players (normal or misère).  In the Super variants a word's infixes
are fragments too, so an edit reaches beyond one path and the fewest edits are no longer
exact: see `ghostdb.games.ghost.decisive.infix`.
"""

from __future__ import annotations

import bisect
import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ghostdb.games.ghost.fragments import GONE, LOSS, WIN, Fragments, WordSet

if TYPE_CHECKING:  # numpy is imported where it is used: a kept answer reads without
    import numpy as np

INFINITE = 1 << 60
CAP = 1 << 40
"""Infinite in the price arrays: sums of a fragment's children stay far from int64's end."""


@dataclass(frozen=True)
class Edit:
    """A word edited and the outcome at the position after it (after the whole set, for a
    member of the fewest edits), with where it matters: ``move``, the position one move
    on that the word lies under, and that move's state (win, loss or gone, for the player
    to move there) before and after."""

    word: str
    added: bool
    outcome: str
    move: str = ""
    move_before: str = ""
    move_after: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "word": self.word,
            "outcome": self.outcome,
            "move": self.move,
            "move_before": self.move_before,
            "move_after": self.move_after,
        }


@dataclass(frozen=True)
class Fewest:
    """The fewest edits that change the outcome at the position, and one such set."""

    count: int | None
    """None when no set of the edits allowed changes it."""
    delete: tuple[str, ...]
    outcome: str | None
    add: tuple[str, ...] = ()
    exact: bool = True
    """False when ``count`` is an upper bound (a variant whose positions share words)."""
    edits: tuple[Edit, ...] = ()
    """Each word of the set with where it matters (`Edit`)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "count": self.count,
            "exact": self.exact,
            "delete": list(self.delete),
            "add": list(self.add),
            "outcome": self.outcome,
            "edits": [dict(e.as_dict(), edit="add" if e.added else "delete") for e in self.edits],
        }


class SingleEdits(ABC):
    """Every single-word edit that changes a position's outcome, for a decider that says
    which words' edits may reach a position and what each gives."""

    values: Mapping[str, str]
    word_set: frozenset[str] | set[str]

    @abstractmethod
    def words_below(self, position: str) -> list[str]:
        """The game words whose deletion may change ``position``."""

    @abstractmethod
    def reaches(self, position: str, word: str) -> bool:
        """Whether editing ``word`` may change ``position``."""

    @abstractmethod
    def deleted(self, position: str, word: str) -> str:
        """The state of ``position`` with the game word ``word`` deleted."""

    @abstractmethod
    def added(self, position: str, word: str) -> str:
        """The state of ``position`` with ``word`` added."""

    @abstractmethod
    def explain(self, position: str, word: str, added: bool, outcome: str | None = None) -> Edit:
        """The edit with its outcome and the move it changes."""

    def single_deletions(self, position: str) -> list[Edit]:
        """Every game word whose deletion alone changes ``position``'s outcome."""
        now = self.values[position]
        found = []
        for word in self.words_below(position):
            state = self.deleted(position, word)
            if state != now:
                found.append(self.explain(position, word, False, state))
        return found

    def single_additions(self, position: str, pool: Iterable[str]) -> list[Edit]:
        """Every word of ``pool`` (game words of another list) not in this one whose
        addition alone changes ``position``'s outcome."""
        now = self.values[position]
        found = []
        for word in sorted(set(pool) - self.word_set):
            if self.reaches(position, word):
                state = self.added(position, word)
                if state != now:
                    found.append(self.explain(position, word, True, state))
        return found


class Decider(SingleEdits):
    """One stored plain-Ghost solution: its game words and every fragment's value.

    ``values`` maps every stored fragment to its outcome for the player to move there
    (``win`` or ``loss``); ``words`` are the game words (of at least the minimum length).
    A `Fragments` brings its words marked already (``words`` is then not read again).
    """

    def __init__(self, words: Iterable[str], values: Mapping[str, str], misere: bool) -> None:
        self.fragments = values if isinstance(values, Fragments) else Fragments.of(values, words)
        self.values: Mapping[str, str] = self.fragments
        self.word_set = WordSet(self.fragments)
        self.terminal = LOSS if misere else WIN
        """The value at a word for the player to move there: the other completed it."""

    @property
    def words(self) -> list[str]:
        """Every game word, sorted (made on request: a large list's are millions)."""
        return self.fragments.words_under("")

    # -- the shape of the word list ----------------------------------------------------------

    def words_under(self, fragment: str) -> int:
        """How many game words begin with ``fragment``."""
        i = self.fragments.index(fragment)
        return int(self.fragments.under[i]) if i >= 0 else 0

    def reaches(self, position: str, word: str) -> bool:
        """Whether editing ``word`` may change ``position``: it lies below it."""
        return word != position and word.startswith(position)

    def words_below(self, fragment: str) -> list[str]:
        return self.fragments.words_under(fragment)

    def outcome(self, position: str) -> str:
        return self.values[position]

    # -- one path re-evaluated ---------------------------------------------------------------

    def _counts(self, fragment: str) -> tuple[int, int]:
        """A stored fragment's children, and those lost for their mover."""
        i = self.fragments.index(fragment)
        if i < 0:
            return 0, 0
        return int(self.fragments.children[i]), int(self.fragments.losing[i])

    def _propagate(self, position: str, node: str, old: str, new: str) -> str:
        """The state of ``position`` once ``node`` (below or at it) went from ``old`` to
        ``new``, re-evaluating its ancestors up to ``position`` until one is unchanged."""
        while node != position and old != new:
            parent = node[:-1]
            if parent in self.word_set:
                return self.values[position]  # a word stops play: nothing below it counts
            children, losing = self._counts(parent)
            children += (new != GONE) - (old != GONE)
            losing += (new == LOSS) - (old == LOSS)
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
        new = (WIN if self._counts(word)[1] else LOSS) if on else GONE
        return self._propagate(position, word, self.values[word], new)

    def single_deletions(self, position: str) -> list[Edit]:
        """Every game word whose deletion alone changes ``position``'s outcome: what a
        change of each fragment's state does to ``position`` is worked out for every
        fragment below it at once, a length at a time from ``position`` down (see
        `_effects`), and each word read off by the state its deletion leaves it in."""
        import numpy as np

        f = self.fragments
        now = _CODE[self.values[position]]
        found = []
        for (lo, hi), effect in zip(
            f.under_position(position), self._effects(position), strict=True
        ):
            at = np.flatnonzero(f.word[lo:hi])
            ids = at + lo
            # Longer words go on: play continues past it (its value from its children).
            new = np.where(f.under[ids] > 1, (f.losing[ids] > 0).astype(np.int8), _G)
            changed = at[effect[at, new] != now]
            found += [f.fragment(int(i) + lo) for i in changed]
        return [self.explain(position, w, False) for w in sorted(found)]

    def _effects(self, position: str) -> Iterator[np.ndarray]:
        """For each length from ``position``'s on, for each fragment of that length below
        ``position``: the state ``position`` is left in when the fragment's state becomes
        loss, win or gone (columns 0, 1, 2), as `_propagate` walks it."""
        import numpy as np

        f = self.fragments
        now = _CODE[self.values[position]]
        effect = np.array([[_L, _W, _G]], np.int8)  # at the position: the change itself
        runs = f.under_position(position)
        yield effect
        for (p_lo, _), (lo, hi) in itertools.pairwise(runs):
            parent = f.parent[lo:hi]
            old = f.won[lo:hi].astype(np.int8)
            blocked = f.word[parent]
            before = f.won[parent].astype(np.int8)
            local = parent - p_lo
            following = np.empty((hi - lo, 3), np.int8)
            for state in (_L, _W, _G):
                children = f.children[parent] + (state != _G) - 1
                losing = f.losing[parent] + (state == _L) - (old == _L)
                after = np.where(children == 0, _G, (losing > 0).astype(np.int8))
                same = blocked | (state == old) | (after == before)
                following[:, state] = np.where(same, now, effect[local, after])
            effect = following
            yield effect

    def added(self, position: str, word: str) -> str:
        """The state of ``position`` with ``word`` (not a game word; below it) added."""
        if self._blocked(position, word):
            return self.values[position]
        if word in self.values:  # a fragment already: it becomes a word, and play stops
            return self._propagate(position, word, self.values[word], self.terminal)
        k = len(position)
        if position not in self.values:  # a new fragment (a move the word makes possible)
            return self._chain(position, word)
        while word[: k + 1] in self.values:
            k += 1
        first_new = word[: k + 1]
        return self._propagate(position, first_new, GONE, self._chain(first_new, word))

    def _chain(self, fragment: str, word: str) -> str:
        """The value of a new fragment on an added word's new chain: each fragment of it
        has one move, so the value flips at every step up from the word."""
        value = self.terminal
        if (len(word) - len(fragment)) % 2:
            value = LOSS if value == WIN else WIN
        return value

    def explain(self, position: str, word: str, added: bool, outcome: str | None = None) -> Edit:
        """A single edit with the outcome it gives at ``position`` and the move it changes:
        the state one move on follows by the same walk, stopped one fragment earlier."""
        if outcome is None:
            outcome = self.added(position, word) if added else self.deleted(position, word)
        move = word[: len(position) + 1]
        after = self.added(move, word) if added else self.deleted(move, word)
        return Edit(word, added, outcome, move, self.values.get(move, GONE), after)

    # -- the fewest edits ----------------------------------------------------------------------

    def fewest(
        self,
        position: str,
        pool: Iterable[str] = (),
        keep: Iterable[str] = (),
        target: str | None = None,
    ) -> Fewest:
        """The fewest edits — deletions of this list's words but those in ``keep``, and
        additions of ``pool``'s words — that give ``position`` the outcome ``target`` (by
        default: change it), exactly, with one such set (the first in move order among
        the cheapest).

        One pass from the deepest fragment up prices each fragment won, lost and gone:
        won needs one child lost; lost needs every child won or gone, one left; gone needs
        every word below deleted; a fragment that is a word (kept, or added) has the
        word's value whatever lies below.  The words below different children are
        disjoint, so these prices add up and the minimum is exact.
        """
        added = {w for w in pool if w.startswith(position) and w != position} - self.word_set
        prices = _Prices(self, position, added, frozenset(keep))
        now = self.values[position]
        goal = target or (LOSS if now == WIN else WIN)
        root = prices.local(position)
        cost = prices.price(root, goal)
        if cost >= INFINITE or goal == now:
            return Fewest(None if goal != now else 0, (), None if goal != now else now)
        deleting: list[int] = []
        adding_at: list[int] = []
        chosen: dict[int, str] = {}
        self._choose(root, goal, prices, deleting, adding_at, chosen)
        deleted = [prices.fragment(i) for i in deleting]
        adding = [prices.fragment(i) for i in adding_at]
        edits = []
        for word in sorted(deleted + adding):
            move = word[: len(position) + 1]
            before = self.values.get(move, GONE)
            after = chosen[prices.local(move)]
            edits.append(Edit(word, word in adding, goal, move, before, after))
        return Fewest(cost, tuple(sorted(deleted)), goal, tuple(sorted(adding)), edits=tuple(edits))

    def _choose(
        self,
        node: int,
        state: str,
        prices: _Prices,
        deleted: list[int],
        adding: list[int],
        chosen: dict[int, str],
    ) -> None:
        """The edits that give the fragment numbered ``node`` (in ``prices``) ``state`` at
        its price (`_Prices`' choices); ``chosen`` gets the state given to each fragment
        visited."""
        chosen[node] = state
        price = prices.price(node, state)
        if price == 0:
            return
        word = bool(prices.word[node])
        children = prices.children(node)
        if state == GONE:
            if word:
                deleted.append(node)
            for child in children:
                self._choose(child, GONE, prices, deleted, adding, chosen)
            return
        as_word = 0 if word else 1 if prices.added[node] else INFINITE
        if self.terminal == state and as_word == price:
            if not word:
                adding.append(node)
            return
        if word:
            deleted.append(node)
        if state == WIN:
            best = min(children, key=lambda c: prices.price(c, LOSS))
            self._choose(best, LOSS, prices, deleted, adding, chosen)
            return
        won = {c: prices.price(c, WIN) for c in children}
        gone = {c: prices.price(c, GONE) for c in children}
        left = None
        if all(gone[c] < won[c] for c in children):
            left = min(children, key=lambda c: won[c] - gone[c])
        for child in children:
            keep = child == left or won[child] <= gone[child]
            self._choose(child, WIN if keep else GONE, prices, deleted, adding, chosen)


class _Prices:
    """What it costs to make each fragment below a position won, lost and gone (see
    `Decider.fewest`), worked out for every fragment at once, a level at a time, from the
    deepest up, in arrays: won needs one child lost; lost needs every child won or gone,
    one left won; gone needs every word below deleted; a fragment that is a word (kept,
    or added) has the word's value whatever lies below.

    The fragments are the stored ones below the position, with the new ones the added
    words make merged into their runs: sorted by length, then as strings, so a
    fragment's children are one run of the next level: sums and minima over them are
    ``reduceat``s.
    """

    def __init__(
        self, decider: Decider, position: str, added: set[str], kept: frozenset[str]
    ) -> None:
        import numpy as np

        self.fragments = f = decider.fragments
        new = {w[:k] for w in added for k in range(len(position), len(w) + 1)}
        new = {x for x in new if f.index(x) < 0}
        self._layout(position, new)
        n = self.size
        word = np.zeros(n, bool)
        added_at = np.zeros(n, bool)
        kept_at = np.zeros(n, bool)
        for local, (lo, hi) in zip(self.stored, self.runs, strict=True):
            word[local] = f.word[lo:hi]
        for fragment in added:
            added_at[self.local(fragment)] = True
        for fragment in kept:
            if fragment in decider.word_set and fragment.startswith(position):
                kept_at[self.local(fragment)] = True
        as_word = np.where(word, 0, np.where(added_at, 1, CAP))
        not_word = np.where(word, np.where(kept_at, CAP, 1), 0)
        self.word, self.added = word, added_at
        self._sweep(decider.terminal == WIN, as_word, not_word)

    def _layout(self, position: str, new: set[str]) -> None:
        """Number the fragments: each level's stored run with the new fragments of that
        length merged in order; every fragment's parent as such a number."""
        import numpy as np

        f = self.fragments
        self.base = len(position)
        self.runs = f.under_position(position)
        deepest = max([len(x) for x in new] + [len(position) + len(self.runs) - 1])
        self.runs += [(0, 0)] * (deepest + 1 - len(position) - len(self.runs))
        self.new: list[list[str]] = []
        self.stored: list[np.ndarray] = []  # each level: where its stored run lands
        self.new_at: list[np.ndarray] = []  # each level: where its new fragments land
        self.start = [0]
        for n, (lo, hi) in enumerate(self.runs, start=len(position)):
            level = sorted(x for x in new if len(x) == n)
            gaps = f.places(level, n, lo, hi)
            stored = np.arange(hi - lo) + np.searchsorted(gaps, np.arange(hi - lo), "right")
            self.new.append(level)
            self.stored.append(stored + self.start[-1])
            self.new_at.append(gaps + np.arange(len(level)) + self.start[-1])
            self.start.append(self.start[-1] + hi - lo + len(level))
        self.size = self.start[-1]
        self.named = {
            x: int(i)
            for lv, at in zip(self.new, self.new_at, strict=True)
            for x, i in zip(lv, at, strict=True)
        }
        parent = np.full(self.size, -1, np.int64)
        for k in range(1, len(self.runs)):
            lo, hi = self.runs[k]
            p_lo, _ = self.runs[k - 1]
            above = f.parent[lo:hi] - p_lo
            parent[self.stored[k]] = self.stored[k - 1][above]
            for x, i in zip(self.new[k], self.new_at[k], strict=True):
                parent[i] = self.local(x[:-1])
        self.parent = parent

    def local(self, fragment: str) -> int:
        """A fragment's number here (stored below the position, or new)."""
        if fragment in self.named:
            return self.named[fragment]
        k = len(fragment) - self.base
        return int(self.stored[k][self.fragments.index(fragment) - self.runs[k][0]])

    def fragment(self, i: int) -> str:
        """The fragment numbered ``i`` here."""
        import numpy as np

        k = bisect.bisect_right(self.start, i) - 1
        stored = self.stored[k]
        at = int(np.searchsorted(stored, i)) if len(stored) else 0
        if at < len(stored) and stored[at] == i:
            return self.fragments.fragment(self.runs[k][0] + at)
        new_at = self.new_at[k]
        return self.new[k][int(np.searchsorted(new_at, i))]

    def _sweep(self, terminal_won: bool, as_word: np.ndarray, not_word: np.ndarray) -> None:
        """The prices, from the deepest level up (see the class)."""
        import numpy as np

        n = self.size
        self.won, self.lost, self.gone = (np.full(n, CAP, np.int64) for _ in range(3))
        # Children of each fragment: the run [first, first + count) of the next level.
        self.first = np.zeros(n, np.int64)
        self.count = np.zeros(n, np.int64)
        bounds = self.start
        for level in range(len(bounds) - 2, -1, -1):
            lo, hi = bounds[level], bounds[level + 1]
            win_below, lose_below, gone_below = self._below(lo, hi, bounds, level, self.parent)
            won = np.minimum(not_word[lo:hi] + win_below, CAP)
            lost = np.minimum(not_word[lo:hi] + lose_below, CAP)
            if terminal_won:
                won = np.minimum(won, as_word[lo:hi])
            else:
                lost = np.minimum(lost, as_word[lo:hi])
            self.won[lo:hi], self.lost[lo:hi] = won, lost
            self.gone[lo:hi] = np.minimum(not_word[lo:hi] + gone_below, CAP)

    def _below(
        self, lo: int, hi: int, bounds: np.ndarray, level: int, parent: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the fragments [lo, hi) of one level, from their children's prices: the
        cheapest child lost, every child won or gone with one left won, every child gone."""
        import numpy as np

        size = hi - lo
        win_below = np.full(size, CAP, np.int64)
        lose_below = np.full(size, CAP, np.int64)
        gone_below = np.zeros(size, np.int64)
        if level + 2 >= len(bounds):
            return win_below, lose_below, gone_below
        c_lo, c_hi = bounds[level + 1], bounds[level + 2]
        if c_lo == c_hi:
            return win_below, lose_below, gone_below
        owner = parent[c_lo:c_hi] - lo
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        owners = owner[starts]
        self.first[lo + owners] = c_lo + starts
        self.count[lo + owners] = np.diff(np.r_[starts, c_hi - c_lo])
        won, lost, gone = self.won[c_lo:c_hi], self.lost[c_lo:c_hi], self.gone[c_lo:c_hi]
        win_below[owners] = np.minimum.reduceat(lost, starts)
        gone_below[owners] = np.minimum(np.add.reduceat(gone, starts), CAP)
        stays = np.minimum(won, gone)
        kept_one = np.logical_or.reduceat(won <= gone, starts)
        keep_one = np.minimum.reduceat(np.where(won > gone, won - gone, CAP), starts)
        total = np.add.reduceat(stays, starts) + np.where(kept_one, 0, keep_one)
        lose_below[owners] = np.minimum(total, CAP)
        return win_below, lose_below, gone_below

    def price(self, node: int, state: str) -> int:
        price = int((self.won, self.lost, self.gone)[_INDEX[state]][node])
        return INFINITE if price >= CAP else price

    def children(self, node: int) -> range:
        first = int(self.first[node])
        return range(first, first + int(self.count[node]))


_INDEX = {WIN: 0, LOSS: 1, GONE: 2}
"""Where each state's cost stands in a fragment's prices (won, lost, gone)."""


_L, _W, _G = 0, 1, 2
_CODE = {LOSS: _L, WIN: _W, GONE: _G}
"""States as array codes: lost and won for the player to move, gone."""
