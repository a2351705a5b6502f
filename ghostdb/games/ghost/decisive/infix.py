"""Which words decide SuperGhost and SuperDuperGhost: single-word edits re-evaluated from
stored values, and a bound on the fewest edits.

In these variants a fragment is any infix of a word, so a word's deletion or addition
changes every infix of it that no other word holds, and whether the word itself ends
play; a fragment's parents are its infixes one letter shorter (and, in SuperDuperGhost,
their reversals).  An edit is re-evaluated bottom-up over the fragments it touches, by
length, from the word down to the position: each touched fragment's state follows from
counts kept per fragment (its children, its children lost for their mover, and its
children that extend it as written, which say whether it is still an infix of some word)
corrected by the children that changed.  The walk stops where nothing changes, so an edit
costs the fragments whose state it really changes, at most about twice the word's
length squared over two.

Exactness of the fewest edits is out of reach here: one word lies under several moves
(its infixes sit below different first letters), so the prices of different moves no
longer add up.  `InfixDecider.fewest` reports one edit when one changes the outcome (then
one is exactly the fewest).  Otherwise it prices every fragment as if no two shared a
word (plain Ghost's recursion, over the infix graph), makes the edits that pricing
chooses, checks the outcome they give, and drops each edit the set does without; where
the check fails, greedy steps take over.  A set of two is then exact too (every single
edit was tried); a larger one is an upper bound (``exact`` false), with its words.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence

from ghostdb.games.ghost.decisive.plain import GONE, LOSS, WIN, Edit, Fewest, SingleEdits

GREEDY_STEPS = 6
"""How many edits the greedy bound applies before it gives up."""
GREEDY_CANDIDATES = 2000
"""How many words each greedy step scores (those below the position's moves first)."""


class InfixDecider(SingleEdits):
    """One stored SuperGhost or SuperDuperGhost solution: game words and every
    fragment's value (``win`` or ``loss`` for the player to move there)."""

    def __init__(
        self, words: Iterable[str], values: Mapping[str, str], misere: bool, reversals: bool
    ) -> None:
        self.words = sorted(words)
        self.word_set = set(self.words)
        self.values = dict(values)
        self.terminal = LOSS if misere else WIN
        self.reversals = reversals
        self.children: dict[str, int] = {}
        self.forward: dict[str, int] = {}
        self.losing: dict[str, int] = {}
        self.letters = sorted({c for w in self.words for c in w})
        for fragment, value in self.values.items():
            if fragment:
                self._count(fragment, GONE, value, {})

    def _parents(self, fragment: str) -> set[str]:
        """The fragments one move before ``fragment`` (whether stored or not)."""
        head, tail = fragment[:-1], fragment[1:]
        found = {head, tail}
        if self.reversals:
            found.update((head[::-1], tail[::-1]))
        return found

    def _count(
        self, fragment: str, old: str, new: str, changes: Mapping[str, tuple[str, str]]
    ) -> None:
        """Move ``fragment`` from state ``old`` to ``new`` in its parents' counts (the
        parents stored, or made by ``changes``)."""
        if not fragment:
            return  # the start has no parent
        alive = (new != GONE) - (old != GONE)
        lost = (new == LOSS) - (old == LOSS)
        head, tail = fragment[:-1], fragment[1:]
        for parent in self._parents(fragment):
            if parent not in self.values and changes.get(parent, (GONE, GONE))[1] == GONE:
                continue
            if alive:
                self.children[parent] = self.children.get(parent, 0) + alive
                if parent in (head, tail):
                    self.forward[parent] = self.forward.get(parent, 0) + alive
            if lost:
                self.losing[parent] = self.losing.get(parent, 0) + lost

    # -- the shape of the word list ----------------------------------------------------------

    def outcome(self, position: str) -> str:
        return self.values[position]

    def reaches(self, position: str, word: str) -> bool:
        """Whether editing ``word`` may change ``position``: it holds it (or, with
        reversals, its reversal)."""
        back = position[::-1] if self.reversals else position
        return word != position and (position in word or back in word)

    def words_below(self, position: str) -> list[str]:
        """The game words an edit of which can change ``position``: those holding it (or,
        with reversals, its reversal)."""
        if not position:
            return list(self.words)
        back = position[::-1] if self.reversals else position
        return [w for w in self.words if position in w or back in w]

    # -- one edit re-evaluated --------------------------------------------------------------

    def _changes(self, word: str, adding: bool, stop: int) -> dict[str, tuple[str, str]]:
        """Every fragment of ``stop`` letters or more whose state ``word``'s deletion (or
        addition) changes, with its state before and after."""
        words = self.word_set
        terminal = self.terminal
        delta: dict[str, list[int]] = {}  # children, forward children, losing children
        dirty: list[set[str]] = [set() for _ in range(len(word) + 1)]
        dirty[len(word)].add(word)
        changed: dict[str, tuple[str, str]] = {}
        new_ok = self._new_infixes(word) if adding else frozenset()
        for length in range(len(word), stop - 1, -1):
            for node in dirty[length]:
                old = self.values.get(node, GONE)
                is_word = adding if node == word else node in words
                new = terminal if is_word else self._open(node, delta.get(node, (0, 0, 0)))
                if new == old:
                    continue
                changed[node] = (old, new)
                if length == stop or length == 0:
                    continue
                alive = (new != GONE) - (old != GONE)
                lost = (new == LOSS) - (old == LOSS)
                head, tail = node[:-1], node[1:]
                for parent in self._parents(node):
                    if parent not in self.values and parent not in new_ok:
                        continue
                    entry = delta.setdefault(parent, [0, 0, 0])
                    entry[0] += alive
                    if parent in (head, tail):
                        entry[1] += alive
                    entry[2] += lost
                    dirty[length - 1].add(parent)
        return changed

    def _open(self, node: str, d: Sequence[int]) -> str:
        """The state of a fragment that is no word, from its corrected counts."""
        if node in self.values:
            forward, losing = self.forward.get(node, 0), self.losing.get(node, 0)
        else:  # new: its children made by reversal may be stored already
            _, forward, losing = self._base(node)
        if forward + d[1] <= 0:
            return GONE  # no word holds it any more
        return WIN if losing + d[2] > 0 else LOSS

    def _base(self, node: str) -> tuple[int, int, int]:
        """A fragment's counts over the stored fragments one move after it: children,
        children extending it as written, children lost for their mover."""
        children = forward = losing = 0
        seen = set()
        back = node[::-1]
        for c in self.letters:
            for child, ahead in (
                (node + c, True),
                (c + node, True),
                (back + c, False),
                (c + back, False),
            ):
                if child in seen or (not ahead and not self.reversals):
                    continue
                seen.add(child)
                state = self.values.get(child, GONE)
                if state != GONE:
                    children += 1
                    forward += ahead or child in (node + c, c + node)
                    losing += state == LOSS
        return children, forward, losing

    def _new_infixes(self, word: str) -> frozenset[str]:
        """The infixes of ``word`` that are no fragment yet (the start too, when every
        word was deleted)."""
        return frozenset(
            word[i:j]
            for i in range(len(word) + 1)
            for j in range(i, len(word) + 1)
            if word[i:j] not in self.values
        )

    def deleted(self, position: str, word: str) -> str:
        """The state of ``position`` with the game word ``word`` deleted."""
        changed = self._changes(word, False, len(position))
        return changed.get(position, (None, self.values[position]))[1]

    def added(self, position: str, word: str) -> str:
        """The state of ``position`` with ``word`` (no game word yet) added."""
        changed = self._changes(word, True, len(position))
        return changed.get(position, (None, self.values.get(position, GONE)))[1]

    def explain(self, position: str, word: str, added: bool, outcome: str | None = None) -> Edit:
        """A single edit with the outcome it gives and the first move (in key order) whose
        state it changes."""
        changed = self._changes(word, added, len(position))
        now = self.values.get(position, GONE)
        if outcome is None:
            outcome = changed.get(position, (now, now))[1]
        moves = sorted(
            n for n in changed if len(n) == len(position) + 1 and self._moves_to(position, n)
        )
        # The word may be the position itself: then it is its own "move", as in Ghost.
        move = moves[0] if moves else position
        before, after = changed.get(move, (now, now))
        return Edit(word, added, outcome, move, before, after)

    def _moves_to(self, position: str, node: str) -> bool:
        return position in self._parents(node)

    # -- the fewest edits, bounded ------------------------------------------------------------

    def apply(self, word: str, adding: bool) -> None:
        """Make an edit for good: the values and counts of every fragment it changes."""
        changes = self._changes(word, adding, 0)
        for node, (old, _) in changes.items():
            if old == GONE:  # new: counted from the stored children, before the update
                self.children[node], self.forward[node], self.losing[node] = self._base(node)
        for node, (old, new) in changes.items():
            self._count(node, old, new, changes)
        for node, (_, new) in changes.items():
            if new == GONE:
                self.values.pop(node, None)
                for counts in (self.children, self.forward, self.losing):
                    counts.pop(node, None)
            else:
                self.values[node] = new
        if adding:
            bisect.insort(self.words, word)
            self.word_set.add(word)
            self.letters = sorted(set(self.letters) | set(word))
        else:
            self.words.remove(word)
            self.word_set.discard(word)

    def fewest(
        self,
        position: str,
        pool: Iterable[str] = (),
        keep: Iterable[str] = (),
        target: str | None = None,
    ) -> Fewest:
        """A set of edits that gives ``position`` the outcome ``target`` (by default:
        changes it), as small as found; exact when it is one edit (none does with zero)
        or two (every single edit was tried first).  The set comes from pricing every
        fragment as if no two shared a word (the plain-Ghost recursion over the infix
        graph), is checked by making its edits, and
        is then shrunk while it still works; where the check fails, greedy steps (each the
        edit that most reduces the moves in the way) take over."""
        now = self.values[position]
        goal = target or (LOSS if now == WIN else WIN)
        if goal == now:
            return Fewest(0, (), now)
        kept = frozenset(keep)
        pool_words = frozenset(pool) - self.word_set
        single = self._single(position, goal, sorted(pool_words), kept)
        if single is not None:
            return self._bounded(position, goal, [single])
        chosen = self._priced(position, goal, pool_words, kept)
        if chosen is not None and self._works(position, goal, chosen):
            chosen = self._shrunk(position, goal, chosen)
        else:
            chosen = self._greedy(position, goal, sorted(pool_words), kept, chosen or [])
        if chosen is None:
            return Fewest(None, (), None, exact=False)
        return self._bounded(position, goal, chosen)

    def _single(
        self, position: str, goal: str, pool: Sequence[str], kept: frozenset[str]
    ) -> tuple[str, bool] | None:
        """The first single edit that gives ``position`` the outcome ``goal``, if any."""
        back = position[::-1] if self.reversals else position
        for word in self.words_below(position):
            if word not in kept and self.deleted(position, word) == goal:
                return word, False
        for word in pool:
            near = word != position and (position in word or back in word)
            if near and self.added(position, word) == goal:
                return word, True
        return None

    def _best_step(
        self,
        position: str,
        goal: str,
        pool: Sequence[str],
        kept: frozenset[str],
        chosen: Sequence[tuple[str, bool]],
    ) -> tuple[str, bool, bool] | None:
        """The edit that reaches ``goal`` at ``position``, else the one that leaves the
        fewest moves in the way (`_in_way`), among a bounded number of candidates."""
        done = {w for w, _ in chosen}
        back = position[::-1] if self.reversals else position
        candidates = [(w, False) for w in self.words_below(position) if w not in kept]
        candidates += [(w, True) for w in pool if position in w or back in w]
        candidates = [c for c in candidates if c[0] not in done]
        best, best_score = None, self._in_way(position, goal, {})
        for word, adding in candidates[:GREEDY_CANDIDATES]:
            changed = self._changes(word, adding, len(position))
            if changed.get(position, (None, None))[1] == goal:
                return word, adding, True
            score = self._in_way(position, goal, changed)
            if score < best_score:
                best, best_score = (word, adding, False), score
        return best

    def _in_way(self, position: str, goal: str, changed: Mapping[str, tuple[str, str]]) -> int:
        """How far ``position`` is from ``goal``: to be won it needs one move lost for
        its mover, so count the fewest moves lost below any of its moves; to be lost
        every move must be won, so count its moves lost."""

        def state(node: str) -> str:
            return changed[node][1] if node in changed else self.values.get(node, GONE)

        moves = [n for n in self._children_of(position, changed) if state(n) != GONE]
        if goal == LOSS:
            return sum(state(m) == LOSS for m in moves)
        return min(
            (
                sum(state(g) == LOSS for g in self._children_of(m, changed))
                for m in moves
                if m not in self.word_set
            ),
            default=1 << 30,
        )

    def _copy(self) -> InfixDecider:
        """A copy to make edits in (`apply`), this one left as stored."""
        work = InfixDecider.__new__(InfixDecider)
        work.__dict__.update(self.__dict__)
        for name in ("values", "children", "forward", "losing"):
            setattr(work, name, dict(getattr(self, name)))
        work.words, work.word_set = list(self.words), set(self.word_set)
        work.letters = list(self.letters)
        return work

    def _works(self, position: str, goal: str, chosen: Sequence[tuple[str, bool]]) -> bool:
        """Whether making every edit of ``chosen`` gives ``position`` the outcome ``goal``."""
        work = self._copy()
        for word, adding in chosen:
            work.apply(word, adding)
        return work.values.get(position, GONE) == goal

    def _shrunk(
        self, position: str, goal: str, chosen: list[tuple[str, bool]]
    ) -> list[tuple[str, bool]]:
        """Drop each edit the set does without, one at a time (the set stays one that
        works)."""
        for edit in list(chosen):
            if len(chosen) > 1:
                rest = [e for e in chosen if e != edit]
                if self._works(position, goal, rest):
                    chosen = rest
        return chosen

    def _priced(
        self, position: str, goal: str, pool: frozenset[str], kept: frozenset[str]
    ) -> list[tuple[str, bool]] | None:
        """The edits the relaxed recursion chooses (see `fewest`), or None."""
        from ghostdb.games.ghost.decisive.plain import INFINITE

        below = self._descendants(position)
        kids: dict[str, list[str]] = {}
        for node in sorted(below):  # in key order: ties go the same way every run
            if node != position:
                for parent in sorted(self._parents(node)):
                    if parent in below:
                        kids.setdefault(parent, []).append(node)
        prices: dict[str, tuple[int, int, int]] = {}
        for node in sorted(below, key=len, reverse=True):
            prices[node] = self._price(node, kids.get(node, ()), prices, pool, kept)
        if prices[position][_INDEX[goal]] >= INFINITE:
            return None
        edits: dict[str, bool] = {}
        self._choose(position, goal, kids, prices, pool, edits, set())
        return sorted(edits.items())

    def _descendants(self, position: str) -> set[str]:
        """The stored fragments reachable from ``position`` by moves."""
        if not position:
            return set(self.values)
        found, todo = {position}, [position]
        while todo:
            for child in self._children_of(todo.pop(), {}):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        return found

    def _price(
        self,
        node: str,
        children: Sequence[str],
        prices: Mapping[str, tuple[int, int, int]],
        pool: frozenset[str],
        kept: frozenset[str],
    ) -> tuple[int, int, int]:
        """What making ``node`` won, lost and gone costs if no two fragments shared a
        word (as `Decider._price`; gone: every word holding it deleted)."""
        from ghostdb.games.ghost.decisive.plain import INFINITE

        win_below = lose_below = keep_one = INFINITE
        gone_below = 0
        if children:
            lose_below, every_gone = 0, True
            head, tail = node, node
            for child in children:
                won, lost, gone = prices[child]
                win_below = min(win_below, lost)
                if child[:-1] == head or child[1:] == tail:
                    gone_below += gone
                if won <= gone:
                    lose_below += won
                    every_gone = False
                else:
                    lose_below += gone
                    keep_one = min(keep_one, won - gone)
            if every_gone:
                lose_below += keep_one
        word = node in self.word_set
        as_word = 0 if word else 1 if node in pool else INFINITE
        not_word = (INFINITE if node in kept else 1) if word else 0
        win = min(as_word if self.terminal == WIN else INFINITE, not_word + win_below)
        lose = min(as_word if self.terminal == LOSS else INFINITE, not_word + lose_below)
        gone = not_word + gone_below
        return min(win, INFINITE), min(lose, INFINITE), min(gone, INFINITE)

    def _choose(
        self,
        node: str,
        state: str,
        kids: Mapping[str, list[str]],
        prices: Mapping[str, tuple[int, int, int]],
        pool: frozenset[str],
        edits: dict[str, bool],
        seen: set[tuple[str, str]],
    ) -> None:
        """The edits behind ``node``'s price for ``state`` (as `Decider._choose`)."""
        if (node, state) in seen or prices[node][_INDEX[state]] == 0:
            return
        seen.add((node, state))
        price = prices[node][_INDEX[state]]
        word = node in self.word_set
        children = kids.get(node, [])
        if state == GONE:
            if word:
                edits[node] = False
            for child in children:
                if child[:-1] == node or child[1:] == node:
                    self._choose(child, GONE, kids, prices, pool, edits, seen)
            return
        as_word = 0 if word else 1 if node in pool else None
        if self.terminal == state and as_word == price:
            if not word:
                edits[node] = True
            return
        if word:
            edits[node] = False
        if state == WIN:
            best = min(children, key=lambda c: prices[c][1])
            self._choose(best, LOSS, kids, prices, pool, edits, seen)
            return
        left = None
        if all(prices[c][2] < prices[c][0] for c in children):
            left = min(children, key=lambda c: prices[c][0] - prices[c][2])
        for child in children:
            won = child == left or prices[child][0] <= prices[child][2]
            self._choose(child, WIN if won else GONE, kids, prices, pool, edits, seen)

    def _greedy(
        self,
        position: str,
        goal: str,
        pool: Sequence[str],
        kept: frozenset[str],
        start: Sequence[tuple[str, bool]],
    ) -> list[tuple[str, bool]] | None:
        """Greedy steps from the edits ``start`` made (see `_best_step`), or None."""
        work = self._copy()
        chosen = list(start)
        for word, adding in chosen:
            work.apply(word, adding)
        for _ in range(GREEDY_STEPS):
            if work.values.get(position, GONE) == goal:
                return self._shrunk(position, goal, chosen)
            best = work._best_step(position, goal, pool, kept, chosen)
            if best is None:
                return None
            word, adding, _ = best
            work.apply(word, adding)
            chosen.append((word, adding))
        return self._shrunk(position, goal, chosen) if work.values.get(position) == goal else None

    def _children_of(self, node: str, changed: Mapping[str, tuple[str, str]]) -> set[str]:
        """The fragments one move after ``node`` (stored, or made by ``changed``)."""
        ends = (node, node[::-1]) if self.reversals else (node,)
        found = set()
        for c in self.letters:
            for end in ends:
                for child in (end + c, c + end):
                    if child in self.values or child in changed:
                        found.add(child)
        return found

    def _bounded(self, position: str, goal: str, chosen: Sequence[tuple[str, bool]]) -> Fewest:
        """The set as a `Fewest`, each word with the first move (in key order) whose
        state the whole set changes."""
        work = self._copy()
        for word, adding in chosen:
            work.apply(word, adding)
        moves = sorted(
            self._children_of(position, {}) | work._children_of(position, {}),
        )
        edits = []
        for word, adding in sorted(chosen):
            back = word[::-1]
            near = [m for m in moves if m in word or (self.reversals and m in back)]
            flipped = [m for m in near if self.values.get(m, GONE) != work.values.get(m, GONE)]
            move = (flipped or near or [position])[0]
            before, after = self.values.get(move, GONE), work.values.get(move, GONE)
            edits.append(Edit(word, adding, goal, move, before, after))
        return Fewest(
            len(chosen),
            tuple(sorted(w for w, a in chosen if not a)),
            goal,
            tuple(sorted(w for w, a in chosen if a)),
            # `fewest` tried every single edit first: a set of two is the fewest too.
            exact=len(chosen) <= 2,
            edits=tuple(edits),
        )


_INDEX = {WIN: 0, LOSS: 1, GONE: 2}
