"""The position graph of a rule set over a word list: every fragment and every play.

Pure: no database.  Built once per solve, with numpy arrays for the solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ghostdb.errors import NotSolved
from ghostdb.rules import Form, Rules, Variant


@dataclass
class Graph:
    """Every fragment of a rule set and every play between them.

    Nodes are numbered in sorted fragment order.  Edges go from each fragment that is not
    a word to each fragment one play away; ``edge_rank`` (letter index * 4 + form) orders
    the plays of one fragment in move order.
    """

    fragments: list[str]
    is_word: np.ndarray  # bool, per node
    edge_parent: np.ndarray  # int32
    edge_child: np.ndarray  # int32
    edge_rank: np.ndarray  # int32: letter index * 4 + form
    alphabet: str
    variant: Variant

    @property
    def size(self) -> int:
        return len(self.fragments)

    @property
    def length(self) -> np.ndarray:
        return np.fromiter((len(f) for f in self.fragments), dtype=np.int32, count=self.size)


def game_words(words: Iterable[str], min_length: int) -> list[str]:
    """The words that end a game: those of at least ``min_length`` letters, sorted."""
    return sorted(w for w in words if len(w) >= min_length)


def _prefix_closure(strings: Sequence[str]) -> tuple[list[str], list[int], list[int]]:
    """All prefixes ("" included) of sorted unique strings, sorted; each one's parent; and
    the node at which each string ends.

    Walks the strings in order keeping the path of prefixes shared with the previous
    string, so each prefix is made once: this is a preorder walk of their trie.
    """
    fragments = [""]
    parents = [-1]
    ends = []
    path = [0]  # path[i] = node of the current string's first i letters
    previous = ""
    for s in strings:
        common = 0
        limit = min(len(s), len(previous))
        while common < limit and s[common] == previous[common]:
            common += 1
        del path[common + 1 :]
        for i in range(common + 1, len(s) + 1):
            parents.append(path[-1])
            path.append(len(fragments))
            fragments.append(s[:i])
        ends.append(path[-1])
        previous = s
    return fragments, parents, ends


def build_graph(words: Iterable[str], rules: Rules) -> Graph:
    """The position graph of ``rules`` over a word list (words are filtered by length here)."""
    game = game_words(words, rules.min_length)
    if not game:
        raise NotSolved(f"no word has {rules.min_length} or more letters: nothing to solve")
    alphabet = "".join(sorted(set("".join(game))))
    letter_index = {c: i for i, c in enumerate(alphabet)}
    word_set = set(game)

    if rules.variant is Variant.GHOST:
        fragments, parents, ends = _prefix_closure(game)
        word_ends = ends
    else:
        suffixes = sorted({w[i:] for w in game for i in range(len(w))})
        fragments, parents, ends = _prefix_closure(suffixes)
        word_ends = [e for e, s in zip(ends, suffixes, strict=True) if s in word_set]
    n = len(fragments)
    is_word = np.zeros(n, dtype=bool)
    is_word[word_ends] = True

    # Append edges come straight from the trie walk: parent = fragment minus its last letter.
    child = np.arange(1, n, dtype=np.int32)
    parent = np.asarray(parents[1:], dtype=np.int32)
    last = np.fromiter((letter_index[f[-1]] for f in fragments[1:]), dtype=np.int32, count=n - 1)
    edge_parts = [(parent, child, last * 4 + Form.APPEND)]

    if rules.variant is not Variant.GHOST:
        node_of = {f: i for i, f in enumerate(fragments)}
        first = np.fromiter(
            (letter_index[f[0]] for f in fragments[1:]), dtype=np.int32, count=n - 1
        )
        # Prepend: parent = fragment minus its first letter (always a fragment: infixes are closed).
        pre_parent = np.fromiter(
            (node_of[f[1:]] for f in fragments[1:]), dtype=np.int32, count=n - 1
        )
        edge_parts.append((pre_parent, child, first * 4 + Form.PREPEND))
        if rules.variant is Variant.SUPERDUPER:
            # Reverse then append: the parent reversed is the fragment minus its last letter.
            for form, strip, letters in (
                (Form.REVERSE_APPEND, lambda f: f[:-1], last),
                (Form.REVERSE_PREPEND, lambda f: f[1:], first),
            ):
                src = [node_of.get(strip(f)[::-1], -1) for f in fragments[1:]]
                src_arr = np.asarray(src, dtype=np.int32)
                keep = src_arr >= 0
                edge_parts.append((src_arr[keep], child[keep], letters[keep] * 4 + form))

    edge_parent = np.concatenate([p for p, _, _ in edge_parts])
    edge_child = np.concatenate([c for _, c, _ in edge_parts])
    edge_rank = np.concatenate([r for _, _, r in edge_parts]).astype(np.int32)

    # Plays from a word do not exist: the game is over there.
    keep = ~is_word[edge_parent]
    edge_parent, edge_child, edge_rank = edge_parent[keep], edge_child[keep], edge_rank[keep]
    # Sort by (parent, child, rank) and keep the first move to each distinct child.
    order = np.lexsort((edge_rank, edge_child, edge_parent))
    edge_parent, edge_child, edge_rank = edge_parent[order], edge_child[order], edge_rank[order]
    if len(edge_parent) > 1:
        first_of_pair = np.ones(len(edge_parent), dtype=bool)
        first_of_pair[1:] = (edge_parent[1:] != edge_parent[:-1]) | (
            edge_child[1:] != edge_child[:-1]
        )
        edge_parent = edge_parent[first_of_pair]
        edge_child = edge_child[first_of_pair]
        edge_rank = edge_rank[first_of_pair]
    # Final order: by parent, then move order.
    order = np.lexsort((edge_rank, edge_parent))
    return Graph(
        fragments=fragments,
        is_word=is_word,
        edge_parent=edge_parent[order],
        edge_child=edge_child[order],
        edge_rank=edge_rank[order],
        alphabet=alphabet,
        variant=rules.variant,
    )
