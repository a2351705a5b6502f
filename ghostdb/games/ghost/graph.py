"""The position graph of a rule set over a word list: every fragment and every play.

Pure: no database.  Built once per solve, with numpy arrays for the solver.

How a graph is built, without a Python step per letter: the game words are laid end to
end as small letter codes.  A variant's fragments are the prefixes of a sorted list of
distinct strings (the words for Ghost, every suffix of every word for the Super
variants), so they form a trie whose preorder is sorted string order (`_Trie`).  Strings
are sorted and compared several letters at a time, packed into one 64-bit integer.  The
other relations between fragments (drop the first letter, reverse, drop an inner letter)
are followed one level (fragment length) at a time: each is one letter away from the
same relation at the parent, found by looking up (node, letter) pairs in sorted keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ghostdb.errors import NotSolved
from ghostdb.games.base import SortedWords
from ghostdb.games.ghost.letters import (
    KEY_SHIFT,
    CodedText,
    PackedKeys,
    common_prefix_lengths,
    encode_strings,
    gather_strings,
    letters_per_key,
    offset_dtype,
    sort_strings,
)
from ghostdb.games.ghost.rules import Form, Rules, Variant


@dataclass
class Graph:
    """Every fragment of a rule set and every play between them.

    Nodes are numbered in sorted fragment order.  Edges go from each fragment that is not
    a word to each fragment one play away; ``edge_rank`` orders the plays of one fragment
    in move order (letter index * 4 + form in the Ghost variants).
    """

    fragments: PackedKeys
    is_word: np.ndarray  # bool, per node
    edge_parent: np.ndarray  # int32
    edge_child: np.ndarray  # int32
    edge_rank: np.ndarray  # int32: see the builder (letter index * 4 + form for build_graph)
    alphabet: str
    variant: Variant
    # What the mover says on reaching each node, where that differs from the fragment
    # (Anagram Ghost: a fragment there is a multiset of letters, not something said).
    labels: PackedKeys | None = None

    @property
    def size(self) -> int:
        return len(self.fragments)

    @property
    def length(self) -> np.ndarray:
        """int32: each fragment's letters (read from the packed keys, not from strings)."""
        return self.fragments.lengths


def game_words(words: Iterable[str], min_length: int) -> Sequence[str]:
    """The words that end a game: those of at least ``min_length`` letters, sorted (as
    they come when they are `SortedWords` long enough already)."""
    if isinstance(words, SortedWords) and words.min_length >= min_length:
        return words
    return sorted([w for w in words if len(w) >= min_length])


def _game_text(words: Iterable[str], min_length: int) -> CodedText:
    game = game_words(words, min_length)
    if not game:
        raise NotSolved(f"no word has {min_length} or more letters: nothing to solve")
    return encode_strings(game)


# -- tries --------------------------------------------------------------------------------


@dataclass
class _Trie:
    """Every prefix of a sorted list of distinct strings, "" included, numbered in sorted
    order (so "" is 0 and each subtree is a contiguous range): node v is the first
    ``depth[v]`` letters of the string at ``codes[src[v]:]``.
    """

    codes: np.ndarray
    src: np.ndarray  # int32 (int64 for a text of 2**31 codes or more)
    depth: np.ndarray  # int32
    parent: np.ndarray  # int32: the node minus its last letter; -1 at the root
    last: np.ndarray  # int32: the code of the node's last letter; 0 at the root
    end: np.ndarray  # int32: the node of each string
    levels: list[np.ndarray]  # int32: the nodes of each depth, ascending

    @property
    def size(self) -> int:
        return len(self.depth)

    def letters(self, nodes: np.ndarray, index: np.ndarray | int) -> np.ndarray:
        """The code of letter ``index`` of each node."""
        return self.codes[self.src[nodes] + index].astype(np.int32)


def _prefix_trie(codes: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> _Trie:
    """The trie of the (sorted, distinct) strings at ``starts``.

    Each string adds the prefixes longer than its common prefix with the string before,
    in order: that is the preorder walk of the trie.
    """
    shared = np.zeros(len(starts), dtype=np.int32)
    shared[1:] = common_prefix_lengths(codes, starts[:-1], starts[1:], lengths[:-1], lengths[1:])
    added = (lengths - shared).astype(np.int32)
    first = 1 + np.cumsum(added, dtype=np.int64) - added  # each string's first new node
    if first[-1] + added[-1] > np.iinfo(np.int32).max:
        raise NotSolved("too many fragments: node numbers must fit in 32 bits")
    first = first.astype(np.int32)
    owner = np.repeat(np.arange(len(starts), dtype=np.int32), added)
    n = 1 + len(owner)
    depth = np.zeros(n, dtype=np.int32)
    depth[1:] = np.arange(n - 1, dtype=np.int32) - np.repeat(first - 2 - shared, added)
    offset = offset_dtype(len(codes))
    src = np.zeros(n, dtype=offset)
    src[1:] = np.repeat(starts.astype(offset, copy=False), added)
    last = codes[src + depth - 1].astype(np.int32)
    last[0] = 0

    by_depth = np.argsort(depth.astype(np.int16), kind="stable").astype(np.int32)
    bounds = np.searchsorted(depth[by_depth], np.arange(depth.max() + 2))
    levels = [by_depth[bounds[d] : bounds[d + 1]] for d in range(len(bounds) - 1)]

    # A node's parent is the node before it, except for the first new prefix of each
    # string: that hangs from the shared prefix, the last node of that depth before it,
    # found among (depth, node) keys.  Queries in sorted order search faster.
    parent = np.arange(-1, n - 1, dtype=np.int32)
    new = added > 0
    hang, at = first[new], shared[new]
    key = depth[by_depth].astype(np.int64)
    key *= n  # in place: one int64 array of the nodes, not three
    key += by_depth
    query_order = np.argsort(at.astype(np.int16), kind="stable")
    hang, at = hang[query_order], at[query_order]
    parent[hang] = by_depth[np.searchsorted(key, at.astype(np.int64) * n + hang) - 1]
    return _Trie(codes, src, depth, parent, last, first + added - 1, levels)


class _PairIndex:
    """Nodes found by a (node, letter) pair, one level of the trie at a time."""

    def __init__(self, trie: _Trie, owner: np.ndarray, letter: np.ndarray) -> None:
        self._levels = []
        for nodes in trie.levels:
            keys = _pair_keys(owner[nodes], letter[nodes])
            order = _argsort_distinct(keys - keys.min(initial=0))
            self._levels.append((keys[order], nodes[order]))

    def find(self, depth: int, owners: np.ndarray, letters: np.ndarray) -> np.ndarray:
        """The node of ``depth`` under each (owner, letter); -1 where none (or owner -1)."""
        keys, nodes = self._levels[depth]
        wanted = _pair_keys(owners, letters)
        if not len(keys):
            return np.full(wanted.shape, -1, dtype=np.int32)
        at = np.searchsorted(keys, wanted)
        at[at == len(keys)] = 0
        return np.where(keys[at] == wanted, nodes[at], np.int32(-1))


def _pair_keys(owners: np.ndarray, letters: np.ndarray) -> np.ndarray:
    return owners.astype(np.int64) << KEY_SHIFT | letters


def _appends(trie: _Trie) -> _PairIndex:
    """Finds a node's child by letter."""
    return _PairIndex(trie, trie.parent, trie.last)


def _without_first(trie: _Trie, appends: _PairIndex) -> np.ndarray:
    """Each node minus its first letter, for a trie closed under that (all infixes).

    ``cab`` minus its first letter is ``ca`` minus its first letter, plus ``b``.
    """
    out = np.zeros(trie.size, dtype=np.int32)  # depth 0 and 1: the root
    for d in range(2, len(trie.levels)):
        nodes = trie.levels[d]
        out[nodes] = appends.find(d - 1, out[trie.parent[nodes]], trie.last[nodes])
    return out


def _reversals(trie: _Trie, without_first: np.ndarray) -> np.ndarray:
    """Each node reversed, or -1 where that is not a node.

    ``cab`` reversed is ``b`` put before ``ca`` reversed: a lookup by (the node minus
    its first letter, first letter).
    """
    prepends = _PairIndex(trie, without_first, trie.letters(np.arange(trie.size), 0))
    out = np.full(trie.size, -1, dtype=np.int32)
    out[0] = 0
    for d in range(1, len(trie.levels)):
        nodes = trie.levels[d]
        out[nodes] = prepends.find(d, out[trie.parent[nodes]], trie.last[nodes])
    return out


def _deletions(trie: _Trie, appends: _PairIndex) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For each level: its nodes, and (nodes x depth) the node of each node's string
    without letter i, or -1 where that is not a node.

    ``abcd`` without letter 1 is ``abc`` without letter 1, plus ``d``; without its last
    letter it is the parent.
    """
    place = np.empty(trie.size, dtype=np.int32)  # each node's row in its level
    for nodes in trie.levels:
        place[nodes] = np.arange(len(nodes), dtype=np.int32)
    above = np.zeros((1, 0), dtype=np.int32)
    for d in range(1, len(trie.levels)):
        nodes = trie.levels[d]
        parents = trie.parent[nodes]
        rows = np.empty((len(nodes), d), dtype=np.int32)
        rows[:, :-1] = appends.find(d - 1, above[place[parents]], trie.last[nodes][:, None])
        rows[:, -1] = parents
        yield nodes, rows
        above = rows


def _argsort_distinct(keys: np.ndarray) -> np.ndarray:
    """``np.argsort`` of distinct non-negative int64 keys, which it may overwrite.

    Where the keys leave room, each one's index goes in its low bits and the values are
    sorted instead, in place: several times faster than an argsort, and no memory but an
    index column of int32 and the merge's half-size buffer.  A stable sort (timsort): the
    keys of a graph come in long sorted runs, which it merges five times faster than the
    default quicksort sorts them (SuperDuperGhost on american-english-insane).
    """
    n = len(keys)
    index_bits = max(n - 1, 1).bit_length()
    if n and int(keys.max()) >= 1 << (63 - index_bits):
        return np.argsort(keys, kind="stable")
    keys <<= index_bits
    keys |= np.arange(n, dtype=np.int32 if n < 1 << 31 else np.int64)
    keys.sort(kind="stable")
    keys &= (1 << index_bits) - 1
    return keys


def _sorted_edges(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edges in the order the solver wants them: by parent, then move order (a parent has
    one play of each rank), from the columns ``[parent, child, rank]``.

    The list is emptied as the columns are put in order, so that each unsorted column
    can go as soon as its sorted copy is made; the one int64 sort key is built and sorted
    in place.
    """
    parent, _, rank = columns
    key = parent.astype(np.int64)
    key *= int(rank.max(initial=0)) + 1
    key += rank
    del parent, rank
    order = _argsort_distinct(key)
    del key
    parent, child, rank = (columns.pop(0)[order].astype(np.int32, copy=False) for _ in range(3))
    return parent, child, rank


# -- the variants -------------------------------------------------------------------------


def _infix_trie(text: CodedText) -> tuple[_Trie, np.ndarray]:
    """The trie of every infix of the words (the prefixes of their suffixes), and whether
    each node is a word."""
    letter = text.codes[: len(text.codes) - letters_per_key(text.codes.dtype)] != 0
    starts = np.flatnonzero(letter).astype(np.int32)
    # Letters left in its word from each position: count down from each word's end.
    lengths = np.repeat((text.starts + text.lengths).astype(np.int32), text.lengths) - starts
    order, distinct = sort_strings(text.codes, starts, lengths)
    suffix_of = np.empty(len(starts), dtype=np.int32)  # distinct suffix of each position
    suffix_of[order] = np.cumsum(distinct, dtype=np.int32) - 1
    keep = order[distinct]
    trie = _prefix_trie(text.codes, starts[keep], lengths[keep])
    is_word = np.zeros(trie.size, dtype=bool)
    is_word[trie.end[suffix_of[text.starts - np.arange(len(text.starts))]]] = True
    return trie, is_word


def build_graph(words: Iterable[str], rules: Rules) -> Graph:
    """The position graph of ``rules`` over a word list (words are filtered by length here)."""
    text = _game_text(words, rules.min_length)
    if rules.variant is Variant.GHOST:
        trie = _prefix_trie(text.codes, text.starts, text.lengths)
        is_word = np.zeros(trie.size, dtype=bool)
        is_word[trie.end] = True
        # The only play into a node is from its parent; none from a word.
        child = np.arange(1, trie.size, dtype=np.int32)
        parent = trie.parent[1:]
        keep = ~is_word[parent]
        columns = [parent[keep], child[keep], (trie.last[1:][keep] - 1) * 4]
    else:
        trie, is_word = _infix_trie(text)
        columns = _super_edges(trie, is_word, rules.variant)
    fragments = PackedKeys(text.codes, text.code_points, trie.src, trie.depth)
    del trie  # the links between fragments are done with: let them go before the sort
    edges = _sorted_edges(columns)
    return Graph(
        fragments=fragments,
        is_word=is_word,
        edge_parent=edges[0],
        edge_child=edges[1],
        edge_rank=edges[2],
        alphabet=text.alphabet,
        variant=rules.variant,
    )


def _super_edges(trie: _Trie, is_word: np.ndarray, variant: Variant) -> list[np.ndarray]:
    """The plays of SuperGhost or SuperDuperGhost over the trie of infixes, unsorted:
    ``[parent, child, rank]`` for `_sorted_edges`."""
    forms = _super_plays(trie, variant)
    # Plays from fragments that are not words; of two plays between the same fragments,
    # only the first in move order.  Each form's plays stay a column of parents and one
    # of ranks (no n x 4 stack, no copy of it), let go once the edges are gathered.
    keeps = []
    for i, (parents, ranks) in enumerate(forms):
        keep = parents >= 0
        keep[keep] = ~is_word[parents[keep]]
        for j, (others, other_ranks) in enumerate(forms):
            if i != j:
                keep &= (parents != others) | (ranks < other_ranks)
        keeps.append(np.flatnonzero(keep).astype(np.int32))
    parent = np.concatenate([parents[at] for (parents, _), at in zip(forms, keeps, strict=True)])
    rank = np.concatenate([ranks[at] for (_, ranks), at in zip(forms, keeps, strict=True)])
    del forms
    child = np.concatenate(keeps)
    child += 1  # keeps hold node - 1: node 0, the root, is no play's child
    return [parent, child, rank]


def _super_plays(trie: _Trie, variant: Variant) -> list[tuple[np.ndarray, np.ndarray]]:
    """The play into each node but the root, one (parents, ranks) pair per form (the
    parent -1 where there is none), in move order within a letter."""
    child = np.arange(1, trie.size, dtype=np.int32)
    last = (trie.last[1:] - 1) * 4
    first = (trie.letters(child, 0) - 1) * 4
    del child
    without_first = _without_first(trie, _appends(trie))
    forms = [(trie.parent[1:], last + Form.APPEND), (without_first[1:], first + Form.PREPEND)]
    if variant is Variant.SUPERDUPER:
        # Reverse then add: the parent, reversed, is the node minus its last (first) letter.
        reverse = _reversals(trie, without_first)
        forms.append((reverse[trie.parent[1:]], last + Form.REVERSE_APPEND))
        forms.append((reverse[without_first[1:]], first + Form.REVERSE_PREPEND))
    return forms


def build_insert_graph(words: Iterable[str], min_length: int) -> Graph:
    """Insert Ghost: a play puts a letter anywhere in the fragment (before it, after it or
    between two letters); every fragment is an infix of a word, as in SuperGhost.

    ``edge_rank`` is letter index * 256 + where the letter went (its index in the
    child); of the places that give the same child (within a run of that letter), the
    first.  ``variant`` is SUPER until Variant has a member for this game.
    """
    text = _game_text(words, min_length)
    if int(text.lengths.max()) > 255:
        raise NotSolved("Insert Ghost numbers letter places below 256: a word is longer")
    trie, is_word = _infix_trie(text)
    parts = []
    for nodes, rows in _deletions(trie, _appends(trie)):
        d = rows.shape[1]
        letter = trie.letters(nodes[:, None], np.arange(d))
        first_of_run = np.ones(rows.shape, dtype=bool)
        first_of_run[:, 1:] = letter[:, 1:] != letter[:, :-1]
        keep = first_of_run & (rows >= 0)
        keep[keep] = ~is_word[rows[keep]]
        rank = (letter - 1) * 256 + np.arange(d)
        parts.append((rows[keep], np.broadcast_to(nodes[:, None], rows.shape)[keep], rank[keep]))
    edges = _sorted_edges([np.concatenate(column) for column in zip(*parts, strict=True)])
    return Graph(
        fragments=PackedKeys(text.codes, text.code_points, trie.src, trie.depth),
        is_word=is_word,
        edge_parent=edges[0],
        edge_child=edges[1],
        edge_rank=edges[2],
        alphabet=text.alphabet,
        variant=Variant.SUPER,
    )


def build_anagram_graph(words: Iterable[str], min_length: int) -> Graph:
    """Anagram Ghost: a play adds a letter and may rearrange them all.

    A position is a multiset of letters, written sorted ("era" is at "aer"); it exists
    when some arrangement of it is an infix of a word.  It is final (``is_word``) when
    every such arrangement is a word: otherwise the mover says one that is not.
    ``labels`` holds what the mover says: the first such word, or else the first
    arrangement that is not a word.  ``edge_rank`` is the added letter's index.
    ``variant`` is GHOST until Variant has a member for this game.
    """
    text = _game_text(words, min_length)
    infixes, infix_is_word = _infix_trie(text)

    # Each infix's letters, sorted, one row each with a 0 after them: a text of keys.
    width = int(infixes.depth.max()) + 1
    pad = np.iinfo(text.codes.dtype).max  # sorts after every letter
    per = letters_per_key(text.codes.dtype)
    flat = np.zeros(infixes.size * width + per, dtype=text.codes.dtype)
    rows = flat[: infixes.size * width].reshape(infixes.size, width)
    for k in range(width - 1):
        column = text.codes[np.minimum(infixes.src + k, len(text.codes) - 1)]
        rows[:, k] = np.where(k < infixes.depth, column, pad)
    rows[:, : width - 1].sort(axis=1)
    rows[rows == pad] = 0
    key_starts = np.arange(infixes.size, dtype=np.int64) * width

    order, distinct = sort_strings(flat, key_starts, infixes.depth)
    position_of = np.empty(infixes.size, dtype=np.int32)  # position of each infix
    position_of[order] = np.cumsum(distinct, dtype=np.int32) - 1
    size = int(position_of.max()) + 1
    keys = _prefix_trie(flat, key_starts[order[distinct]], infixes.depth[order[distinct]])

    # Final: no arrangement is a non-word.  Infixes are numbered alphabetically, so the
    # label is the infix of lowest number among non-words, else among all.
    no_infix = infixes.size
    first_nonword = np.full(size, no_infix, dtype=np.int32)
    nonword = np.flatnonzero(~infix_is_word).astype(np.int32)
    np.minimum.at(first_nonword, position_of[nonword], nonword)
    first_any = np.full(size, no_infix, dtype=np.int32)
    np.minimum.at(first_any, position_of, np.arange(infixes.size, dtype=np.int32))
    final = first_nonword == no_infix
    said = np.where(final, first_any, first_nonword)

    # A play adds one letter: the parent is the key without one of its letters (the first
    # copy: the others give the same parent), if that is a position.
    position_at = np.full(keys.size, -1, dtype=np.int32)  # position of each key trie node
    position_at[keys.end] = np.arange(size, dtype=np.int32)
    parts = []
    for nodes, dropped in _deletions(keys, _appends(keys)):
        d = dropped.shape[1]
        letter = keys.letters(nodes[:, None], np.arange(d))
        first_copy = np.ones(dropped.shape, dtype=bool)
        first_copy[:, 1:] = letter[:, 1:] != letter[:, :-1]
        parent = np.where(dropped >= 0, position_at[dropped], -1)
        keep = first_copy & (parent >= 0) & (position_at[nodes] >= 0)[:, None]
        keep[keep] = ~final[parent[keep]]
        child = np.broadcast_to(position_at[nodes][:, None], dropped.shape)
        parts.append((parent[keep], child[keep], letter[keep] - 1))
    edges = _sorted_edges([np.concatenate(column) for column in zip(*parts, strict=True)])
    # The keys' letters copied out of the rows of sorted letters, which are let go.
    key_length = keys.depth[keys.end]
    key_codes, key_src = gather_strings(flat, keys.src[keys.end], key_length)
    return Graph(
        fragments=PackedKeys(key_codes, text.code_points, key_src, key_length),
        is_word=final,
        edge_parent=edges[0],
        edge_child=edges[1],
        edge_rank=edges[2],
        alphabet=text.alphabet,
        variant=Variant.GHOST,
        labels=PackedKeys(text.codes, text.code_points, infixes.src[said], infixes.depth[said]),
    )
