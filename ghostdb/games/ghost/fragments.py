"""The stored fragments of a plain-Ghost solution, compactly: every fragment with its
value, which are game words and the counts the decisive-word walks need, in arrays
rather than Python strings (`Fragments`; a large list holds millions of fragments), and
the game words as a set to test against (`WordSet`).  Pure; numpy is imported where it
is used.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

WIN, LOSS, GONE = "win", "loss", "gone"
"""A fragment's state after an edit: won or lost for the player to move there, or no
longer a fragment (no word begins with it)."""


class _Run(Sequence[str]):
    """The stored fragments [lo, hi), as strings on request (to bisect into)."""

    def __init__(self, fragments: Fragments, lo: int, hi: int) -> None:
        self.fragments, self.lo, self.hi = fragments, lo, hi

    def __len__(self) -> int:
        return self.hi - self.lo

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        return self.fragments.fragment(self.lo + i)


class WordSet(Set[str]):
    """The game words of a `Fragments`, as a set to test against (not to list)."""

    def __init__(self, fragments: Fragments) -> None:
        self.fragments = fragments

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        i = self.fragments.index(word)
        return i >= 0 and bool(self.fragments.word[i])

    def __len__(self) -> int:
        return int(self.fragments.word.sum())

    def __iter__(self) -> Iterator[str]:
        return iter(self.fragments.words_under(""))

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> set[str]:  # type: ignore[override]
        return set(it)

    def _marked(self, other: Iterable[str]) -> tuple[list[str], np.ndarray]:
        """``other``'s words, and which of them are game words: looked up together."""
        found = [w for w in other if isinstance(w, str)]
        at = self.fragments.lookup(found)
        return found, (at >= 0) & self.fragments.word[at]

    def __rsub__(self, other: Iterable[str]) -> set[str]:  # type: ignore[override]
        found, marked = self._marked(other)
        return {w for w, m in zip(found, marked.tolist(), strict=True) if not m}

    def __rand__(self, other: Iterable[str]) -> set[str]:  # type: ignore[override]
        found, marked = self._marked(other)
        return {w for w, m in zip(found, marked.tolist(), strict=True) if m}


class Fragments(Mapping[str, str]):
    """Every stored fragment of a plain-Ghost solution with its value, which of them are
    game words, and the counts the walks need, in arrays rather than Python strings (a
    large list holds millions of fragments: a dict of them took gigabytes).

    Fragments are numbered by length, then as strings (the order of the stored rows), so
    the fragments of one length are one sorted run.  Each run's keys are fixed-width
    byte strings: a letter is its rank in the alphabet as one byte (two past 253
    letters), every byte nonzero, so byte order is code-point order and a shorter key
    (a prefix) padded with zero bytes sorts before everything that extends it.
    """

    def __init__(self, alphabet: str, keys: list[np.ndarray], won: np.ndarray) -> None:
        """``keys[n]``: the sorted keys of the fragments of ``n`` letters, a uint8 matrix
        (see `Encoder`); ``won``: each fragment's value for the player to move there, in
        the fragments' order.  Every prefix of a fragment must be one."""
        import numpy as np

        alphabet = sorted_letters(alphabet)
        self.alphabet, self.width = alphabet, _width(alphabet)
        self._rank = {c: i for i, c in enumerate(alphabet)}
        self.keys = keys
        self.flat = [flattened(k) for k in keys]
        sizes = [len(k) for k in keys]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.won = won.astype(bool)
        self.word = np.zeros(len(won), bool)
        self.parent = np.full(len(won), -1, np.int64)
        for n in range(1, len(keys)):
            lo, hi = self.offsets[n], self.offsets[n + 1]
            self.parent[lo:hi] = self._parents_at(n)
        self.children = np.bincount(self.parent[1:], minlength=len(won)).astype(np.int32)
        losing = self.parent[1:][~self.won[1:]]
        self.losing = np.bincount(losing, minlength=len(won)).astype(np.int32)
        self.under = np.zeros(len(won), np.int64)  # game words under each, set by `mark_words`

    @classmethod
    def of(cls, values: Mapping[str, str], words: Iterable[str]) -> Fragments:
        """From a mapping of every fragment to its value, and the game words."""
        import numpy as np

        alphabet = "".join(sorted({c for f in values for c in f}))
        code = Encoder(alphabet)
        by_length: dict[int, list[str]] = {}
        for fragment in values:
            by_length.setdefault(len(fragment), []).append(fragment)
        keys, won = [], []
        for n in range(max(by_length, default=-1) + 1):
            level = sorted(by_length.get(n, []))
            keys.append(code("".join(level), n))
            won.append(np.array([values[f] == WIN for f in level], bool))
        found = cls(alphabet, keys, np.concatenate(won) if won else np.zeros(0, bool))
        found.mark_words(["\n".join(words)])
        return found

    def _parents_at(self, n: int) -> np.ndarray:
        """The index of each fragment of ``n`` letters' parent (its first ``n - 1``)."""
        import numpy as np

        if n == 1:
            return np.zeros(len(self.keys[1]), np.int64)
        heads = flattened(np.ascontiguousarray(self.keys[n][:, : (n - 1) * self.width]))
        at = np.searchsorted(self.flat[n - 1], heads)
        if len(at) and (at.max() >= len(self.flat[n - 1]) or (self.flat[n - 1][at] != heads).any()):
            raise ValueError(f"a fragment of {n} letters has no stored parent")
        return at + self.offsets[n - 1]

    def mark_words(self, pieces: Iterable[str]) -> None:
        """Mark the game words, given as pieces of text, each of words joined by
        newlines (every word a stored fragment), and count the words under each
        fragment."""
        for text in pieces:
            if text:
                self._mark(text)
        self._count_under()

    def _mark(self, text: str) -> None:
        import numpy as np

        points = np.frombuffer(text.encode("utf-32-le"), np.uint32)
        ends = np.append(np.flatnonzero(points == ord("\n")), len(points))
        starts = np.r_[0, ends[:-1] + 1]
        lengths = ends - starts
        code = Encoder(self.alphabet)
        for n in np.unique(lengths).tolist():
            if n == 0 or n >= len(self.keys):
                raise ValueError(f"a word of {n} letters is no stored fragment")
            rows = starts[lengths == n]
            key = flattened(code.points(points[rows[:, None] + np.arange(n)]))
            at = np.searchsorted(self.flat[n], key)
            if (at >= len(self.flat[n])).any() or (self.flat[n][at] != key).any():
                raise ValueError("a word is no stored fragment")
            self.word[at + self.offsets[n]] = True

    def _count_under(self) -> None:
        import numpy as np

        under = self.word.astype(np.int64)
        for n in range(len(self.keys) - 1, 0, -1):
            lo, hi = self.offsets[n], self.offsets[n + 1]
            p_lo, p_hi = self.offsets[n - 1], lo
            below = np.bincount(self.parent[lo:hi] - p_lo, under[lo:hi], p_hi - p_lo)
            under[p_lo:p_hi] += below.astype(np.int64)
        self.under = under

    # -- one fragment ------------------------------------------------------------------------

    def key(self, fragment: str) -> bytes | None:
        """The fragment's key, or None when a letter is not in the alphabet."""
        ranks = self._rank
        try:
            codes = [ranks[c] for c in fragment]
        except KeyError:
            return None
        if self.width == 1:
            return bytes(r + 1 for r in codes)
        return bytes(b for r in codes for b in (1 + r // 255, 1 + r % 255))

    def index(self, fragment: str) -> int:
        """The fragment's number, or -1 when it is not stored."""
        import numpy as np

        n = len(fragment)
        if n >= len(self.keys):
            return -1
        if n == 0:
            return 0 if len(self.won) else -1
        key = self.key(fragment)
        flat = self.flat[n]
        if key is None or not len(flat):
            return -1
        at = int(np.searchsorted(flat, key))
        return int(self.offsets[n]) + at if at < len(flat) and flat[at] == key else -1

    def keys_of(self, fragments: Sequence[str], n: int) -> tuple[np.ndarray, np.ndarray]:
        """The keys of many fragments of ``n`` letters (n > 0), and which have keys (the
        others hold a letter outside the alphabet; their keys are zero bytes)."""
        import numpy as np

        points = np.frombuffer("".join(fragments).encode("utf-32-le"), np.uint32)
        code = Encoder(self.alphabet)
        table = code.table
        codes = table[np.minimum(points, len(table) - 1)].reshape(len(fragments), n)
        ok = codes.all(axis=1)
        codes[~ok] = 0
        if self.width == 1:
            keys = codes.astype(np.uint8)
        else:
            keys = np.stack([codes >> 8, codes & 255], axis=-1).astype(np.uint8)
        return flattened(keys.reshape(len(fragments), -1)), ok

    def lookup(self, fragments: Sequence[str]) -> np.ndarray:
        """`index` of many fragments at once (-1: not stored)."""
        import numpy as np

        at = np.full(len(fragments), -1, np.int64)
        by_length: dict[int, list[int]] = {}
        for i, fragment in enumerate(fragments):
            by_length.setdefault(len(fragment), []).append(i)
        for n, rows in by_length.items():
            if n == 0 or n >= len(self.keys):
                at[rows] = -1 if n else self.index("")
                continue
            keys, ok = self.keys_of([fragments[i] for i in rows], n)
            flat = self.flat[n]
            place = np.minimum(np.searchsorted(flat, keys), len(flat) - 1)
            hit = ok & (flat[place] == keys)
            at[rows] = np.where(hit, place + self.offsets[n], -1)
        return at

    def places(self, fragments: Sequence[str], n: int, lo: int, hi: int) -> np.ndarray:
        """Where each of ``fragments`` (sorted, ``n`` letters, none stored) goes among the
        stored fragments [lo, hi) of that length, as `bisect.bisect_left` would say."""
        import numpy as np

        if not fragments:
            return np.zeros(0, np.int64)
        keys, ok = self.keys_of(fragments, n)
        base = int(self.offsets[n]) if n < len(self.keys) else 0
        run = self.flat[n][lo - base : hi - base] if hi > lo else keys[:0]
        found = np.searchsorted(run, keys).astype(np.int64)
        view = _Run(self, lo, hi)
        for i in np.flatnonzero(~ok).tolist():  # a letter outside the alphabet: by string
            found[i] = bisect.bisect_left(view, fragments[i])
        return found

    def fragment(self, i: int) -> str:
        """The fragment numbered ``i``."""
        import numpy as np

        n = int(np.searchsorted(self.offsets, i, side="right")) - 1
        row = self.keys[n][i - int(self.offsets[n])]
        return decode(self.alphabet, bytes(row), self.width)

    def run(self, position: str, n: int) -> tuple[int, int]:
        """The numbers [lo, hi) of the fragments of ``n`` letters that begin with
        ``position`` (one run: they sort together)."""
        import numpy as np

        if n >= len(self.keys) or n < len(position):
            return 0, 0
        base = int(self.offsets[n])
        if n == 0:
            return base, base + len(self.keys[0])
        key = self.key(position)
        if key is None:
            return base, base
        flat = self.flat[n]
        lo = int(np.searchsorted(flat, key))
        hi = int(np.searchsorted(flat, key + b"\xff" * self.width, side="right"))
        return base + lo, base + hi

    def under_position(self, position: str) -> list[tuple[int, int]]:
        """Every run of fragments beginning with ``position``, by length."""
        return [self.run(position, n) for n in range(len(position), len(self.keys))]

    # -- a mapping of fragments to values ----------------------------------------------------

    def __getitem__(self, fragment: str) -> str:
        i = self.index(fragment)
        if i < 0:
            raise KeyError(fragment)
        return WIN if self.won[i] else LOSS

    def __contains__(self, fragment: object) -> bool:
        return isinstance(fragment, str) and self.index(fragment) >= 0

    def __len__(self) -> int:
        return len(self.won)

    def __iter__(self) -> Iterator[str]:
        for n, keys in enumerate(self.keys):
            for row in keys:
                yield decode(self.alphabet, bytes(row), self.width) if n else ""

    def words_under(self, position: str) -> list[str]:
        """The game words beginning with ``position``, sorted."""
        import numpy as np

        found = []
        for n, (lo, hi) in enumerate(self.under_position(position), start=len(position)):
            rows = np.flatnonzero(self.word[lo:hi]) + lo - self.offsets[n]
            found += self.decode_rows(self.keys[n][rows], n)
        return sorted(found)

    def decode_rows(self, keys: np.ndarray, n: int) -> list[str]:
        """Keys of ``n`` letters back to fragments, many at once."""
        import numpy as np

        letters = np.array([0] + [ord(c) for c in self.alphabet], np.uint32)
        if self.width == 1:
            ranks = keys.astype(np.int64)
        else:
            pairs = keys.reshape(len(keys), n, 2).astype(np.int64)
            ranks = (pairs[..., 0] - 1) * 255 + pairs[..., 1]
        text = letters[ranks].tobytes().decode("utf-32-le")
        return [text[i : i + n] for i in range(0, len(text), n)] if n else [""] * len(keys)


class Encoder:
    """Letters to keys (see `Fragments`), many fragments of one length at once."""

    def __init__(self, alphabet: str) -> None:
        import numpy as np

        self.alphabet = alphabet = sorted_letters(alphabet)
        self.width = _width(alphabet)
        # A table from code point to key: one look-up a letter (0: not in the alphabet).
        points = [ord(c) for c in alphabet]
        self.table = np.zeros(max(points, default=0) + 2, np.uint32)
        ranks = np.arange(len(points), dtype=np.uint32)
        if self.width == 1:
            self.table[points] = ranks + 1
        else:  # two bytes, both nonzero, the first the more significant
            self.table[points] = (1 + ranks // 255) * 256 + 1 + ranks % 255

    def points(self, matrix: np.ndarray) -> np.ndarray:
        """Code points (rows of one length) to keys, a uint8 matrix."""
        import numpy as np

        if matrix.size and int(matrix.max()) >= len(self.table) - 1:
            matrix = np.minimum(matrix, len(self.table) - 1)  # beyond the table: not a letter
        codes = self.table[matrix]
        if matrix.size and not codes.all():
            raise ValueError("a fragment holds a letter outside its dictionary's alphabet")
        if self.width == 1:
            return codes.astype(np.uint8)
        pair = np.stack([codes >> 8, codes & 255], axis=-1).astype(np.uint8)
        return pair.reshape(len(matrix), -1)

    def __call__(self, text: str, n: int) -> np.ndarray:
        """The keys of fragments of ``n`` letters given end to end in ``text``."""
        import numpy as np

        points = np.frombuffer(text.encode("utf-32-le"), np.uint32)
        if n == 0:
            return np.zeros((len(text) or 1, 0), np.uint8)
        return self.points(points.reshape(-1, n))


def decode(alphabet: str, key: bytes, width: int) -> str:
    """A key of ``width`` bytes a letter back to its fragment."""
    if width == 1:
        return "".join(alphabet[b - 1] for b in key)
    return "".join(
        alphabet[(hi - 1) * 255 + lo - 1] for hi, lo in zip(key[::2], key[1::2], strict=True)
    )


def sorted_letters(alphabet: str) -> str:
    """An alphabet's letters once each, by code point (the order of the keys)."""
    return "".join(sorted(set(alphabet)))


def _width(alphabet: str) -> int:
    return 1 if len(alphabet) <= 253 else 2


def flattened(matrix: np.ndarray) -> np.ndarray:
    """A uint8 matrix's rows as fixed-width byte strings (sorting and searching them)."""
    if matrix.shape[1] == 0:  # the start alone: never searched
        return matrix.reshape(-1)
    return matrix.view(f"S{matrix.shape[1]}").reshape(-1)
