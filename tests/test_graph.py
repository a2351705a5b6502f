"""The graph builders against a naive reference made of plain sets, strings and loops."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostdb.errors import NotSolved
from ghostdb.games.base import SortedWords
from ghostdb.games.ghost.graph import (
    Graph,
    build_anagram_graph,
    build_graph,
    build_insert_graph,
    game_words,
)
from ghostdb.games.ghost.rules import Form, Move, Rules, Variant
from ghostdb.wordlists import load

GAMES = ("ghost", "super", "superduper", "insert", "anagram")

# -- the reference ---------------------------------------------------------------------------


@dataclass
class Reference:
    nodes: list[str]  # sorted
    finals: set[str]
    edges: dict[tuple[str, str], int]  # (parent, child) -> rank of the first play
    labels: dict[str, str] | None = None


def reference(words: list[str], game: str, min_length: int) -> Reference:
    """Every position, final position and play of ``game``, straight from the rules.

    Plays are found from the child: each way of adding a letter is undone (drop the last
    or first letter and maybe reverse; drop any letter; drop one copy of a letter).
    """
    game_words = {w for w in words if len(w) >= min_length}
    alphabet = sorted(set("".join(game_words)))
    index = {c: i for i, c in enumerate(alphabet)}
    labels = None
    if game == "ghost":
        nodes = {w[:i] for w in game_words for i in range(len(w) + 1)}
        finals = set(game_words)
        infixes = set()
    else:
        # Infixes are the prefixes of suffixes (of distinct suffixes: far fewer slices).
        suffixes = {w[i:] for w in game_words for i in range(len(w))}
        infixes = {s[:j] for s in suffixes for j in range(len(s) + 1)} | {""}
    if game == "anagram":
        arrangements = defaultdict(set)
        for f in infixes:
            arrangements["".join(sorted(f))].add(f)
        nodes = set(arrangements)
        finals = {key for key, said in arrangements.items() if said <= game_words}
        labels = {
            key: min(w for w in game_words if sorted(w) == sorted(key))
            if key in finals
            else min(said - game_words)
            for key, said in arrangements.items()
        }
    elif game != "ghost":
        nodes = infixes
        finals = set(game_words)

    edges: dict[tuple[str, str], int] = {}
    not_final = nodes - finals

    def play(parent: str, child: str, rank: int) -> None:
        if parent in not_final and rank < edges.get((parent, child), rank + 1):
            edges[parent, child] = rank

    for c in nodes - {""}:
        if game in ("ghost", "super", "superduper"):
            play(c[:-1], c, index[c[-1]] * 4 + 0)
        if game in ("super", "superduper"):
            play(c[1:], c, index[c[0]] * 4 + 1)
        if game == "superduper":
            play(c[:-1][::-1], c, index[c[-1]] * 4 + 2)
            play(c[1:][::-1], c, index[c[0]] * 4 + 3)
        if game == "insert":
            for i in range(len(c)):
                play(c[:i] + c[i + 1 :], c, index[c[i]] * 256 + i)
        if game == "anagram":
            for letter in set(c):
                i = c.index(letter)
                play(c[:i] + c[i + 1 :], c, index[letter])
    return Reference(sorted(nodes), finals, edges, labels)


def build(words: list[str], game: str, min_length: int) -> Graph:
    if game == "insert":
        return build_insert_graph(words, min_length)
    if game == "anagram":
        return build_anagram_graph(words, min_length)
    return build_graph(words, Rules(Variant(game), min_length))


def assert_matches(graph: Graph, ref: Reference, game: str) -> None:
    assert graph.fragments == ref.nodes
    assert graph.is_word.dtype == bool
    assert {graph.fragments[i] for i in np.flatnonzero(graph.is_word)} == ref.finals
    for array in (graph.edge_parent, graph.edge_child, graph.edge_rank):
        assert array.dtype == np.int32
    # Edges compared as sorted integer keys of (parent, child, rank), nodes numbered in
    # sorted order.
    number = {f: i for i, f in enumerate(ref.nodes)}
    n, ranks = len(ref.nodes), 1 << 20  # ranks stay below 300 letters * 256 places
    expected = np.fromiter(
        ((number[p] * n + number[c]) * ranks + r for (p, c), r in ref.edges.items()),
        dtype=np.int64,
        count=len(ref.edges),
    )
    got = (graph.edge_parent.astype(np.int64) * n + graph.edge_child) * ranks + graph.edge_rank
    assert np.array_equal(np.sort(got), np.sort(expected))
    # By parent, then rank; a parent never has two plays of one rank.
    order = graph.edge_parent.astype(np.int64) * (1 << 32) + graph.edge_rank
    assert np.all(np.diff(order) > 0)
    if ref.labels is None:
        assert graph.labels is None
    else:
        assert graph.labels == [ref.labels[f] for f in graph.fragments]
    expected_variant = {"insert": Variant.SUPER, "anagram": Variant.GHOST}.get(game)
    assert graph.variant is (expected_variant or Variant(game))


def check(words: list[str], game: str, min_length: int) -> Graph:
    graph = build(words, game, min_length)
    assert_matches(graph, reference(words, game, min_length), game)
    return graph


# -- random small dictionaries ----------------------------------------------------------------


small_lists = st.sampled_from(["abc", "abcd"]).flatmap(
    lambda letters: st.lists(
        st.text(alphabet=letters, min_size=1, max_size=6), min_size=1, max_size=8, unique=True
    )
)


@settings(max_examples=300, deadline=None)
@given(words=small_lists, game=st.sampled_from(GAMES), min_length=st.integers(1, 4))
def test_every_builder_matches_the_reference(words: list[str], game: str, min_length: int) -> None:
    if not any(len(w) >= min_length for w in words):
        with pytest.raises(NotSolved):
            build(words, game, min_length)
        return
    graph = check(words, game, min_length)
    if game in ("ghost", "super", "superduper"):
        # Each edge is the play its rank names (the move rules of ghostdb.games.ghost.rules).
        for p, c, r in zip(graph.edge_parent, graph.edge_child, graph.edge_rank, strict=True):
            move = Move(graph.alphabet[r // 4], Form(r % 4))
            assert move.apply(graph.fragments[p]) == graph.fragments[c]


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(st.text(alphabet="aéőb", min_size=1, max_size=5), min_size=1, max_size=6),
    game=st.sampled_from(GAMES),
)
def test_letters_beyond_ascii(words: list[str], game: str) -> None:
    # é is one byte in Latin-1, ő is not: both ways of turning letters back into text.
    if words:
        check(words, game, 1)


@pytest.mark.parametrize("game", GAMES)
def test_alphabet_of_more_than_255_letters(game: str) -> None:
    # Letters no longer fit in a byte: codes take two.  Runs of CJK letters make the
    # alphabet large; the small words over "abc" give the graph some shape.
    many = [chr(0x4E00 + i) for i in range(300)]
    words = ["".join(many[i : i + 20]) for i in range(0, 300, 20)]
    words += ["abca", "bca", "cab", "aab", many[0] + "ab", "b" + many[299]]
    check(words, game, 2)


@pytest.mark.parametrize("game", GAMES)
def test_duplicates_and_unsorted_input(game: str) -> None:
    words = ["tea", "eat", "ate", "tea", "a", "eta", "at"]
    assert_matches(build(words, game, 2), reference(words, game, 2), game)


def test_sorted_words_are_built_from_as_they_come() -> None:
    """Words a store says are sorted and long enough are not filtered or sorted again;
    words it says are long enough for a lower minimum are."""
    words = ["ate", "eat", "eta", "tea"]
    said = SortedWords(words, 3)
    assert game_words(said, 3) is said
    assert game_words(said, 2) is said
    assert game_words(SortedWords(["tea", "at", "ate"], 2), 3) == ["ate", "tea"]
    assert game_words(["tea", "at", "ate"], 3) == ["ate", "tea"]
    for game in GAMES:
        assert_matches(build(said, game, 3), reference(words, game, 3), game)


def test_a_solve_builds_from_the_words_the_store_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solve job hands the builder the store's sorted words as `SortedWords`: the
    half second of Polish words filtered and sorted again stays saved."""
    from ghostdb import Rules, open_store
    from ghostdb.games.ghost import graph

    seen: list[object] = []
    real = graph.game_words
    monkeypatch.setattr(graph, "game_words", lambda w, m: seen.append(w) or real(w, m))
    listing = tmp_path / "w.txt"
    listing.write_text("ate\neat\ntea\nat\n")
    with open_store(tmp_path / "s.sqlite", create=True) as store:
        store.ingest(listing, name="w")
        store.solve("w", Rules(min_length=3))
    assert len(seen) == 1 and isinstance(seen[0], SortedWords)
    assert list(seen[0]) == ["ate", "eat", "tea"] and seen[0].min_length == 3


# -- small cases by hand -----------------------------------------------------------------------


def edges_of(graph: Graph) -> list[tuple[str, str, int]]:
    f = graph.fragments
    return [
        (f[p], f[c], r)
        for p, c, r in zip(graph.edge_parent, graph.edge_child, graph.edge_rank, strict=True)
    ]


def test_ghost_by_hand() -> None:
    # Prefixes of cat and camel ("came" is no word here); no play from the words.
    # Alphabet acelmt: c is letter 1, e 2, l 3, m 4, t 5.
    graph = check(["cat", "camel"], "ghost", 3)
    assert graph.fragments == ["", "c", "ca", "cam", "came", "camel", "cat"]
    assert graph.alphabet == "acelmt"
    assert edges_of(graph) == [
        ("", "c", 1 * 4),
        ("c", "ca", 0 * 4),
        ("ca", "cam", 4 * 4),
        ("ca", "cat", 5 * 4),
        ("cam", "came", 2 * 4),
        ("came", "camel", 3 * 4),
    ]
    assert graph.is_word.tolist() == [False, False, False, False, False, True, True]


def test_super_keeps_the_first_of_two_plays_to_one_fragment() -> None:
    # "a" + a and a + "a" are both "aa": only the append (rank 0) is a play.
    graph = check(["aa"], "super", 2)
    assert edges_of(graph) == [("", "a", 0), ("a", "aa", 0)]


def test_superduper_reverses_before_adding() -> None:
    # "cb" is an infix of cbx; reversed it is "bc": + d gives "bcd" (in abcd), a + gives
    # "abc".  Alphabet abcdx: d is 3, a is 0.
    graph = check(["abcd", "cbx"], "superduper", 3)
    plays = {(p, c): r for p, c, r in edges_of(graph)}
    assert plays["cb", "bcd"] == 3 * 4 + Form.REVERSE_APPEND
    assert plays["cb", "abc"] == 0 * 4 + Form.REVERSE_PREPEND
    assert ("cb", "bcd") not in {(p, c) for p, c, _ in edges_of(check(["abcd", "cbx"], "super", 3))}


def test_insert_puts_a_letter_between_two() -> None:
    # "era" is an infix of erase, "erba" of verbal: b goes in at index 2.  Alphabet
    # abelrsv: b is 1.  Words of 4+ letters, so "era" is not final.
    graph = check(["erase", "verbal"], "insert", 4)
    plays = {(p, c): r for p, c, r in edges_of(graph)}
    assert plays["era", "erba"] == 1 * 256 + 2
    # e in front of "ra" (an infix of verbal) is place 0; e is letter 2.
    assert plays["ra", "era"] == 2 * 256 + 0


def test_insert_within_a_run_of_one_letter_is_one_play() -> None:
    # a into "ab" at 0 or 1 gives "aab" both times: the play is the first, rank 0.
    graph = check(["aab"], "insert", 3)
    plays = {(p, c): r for p, c, r in edges_of(graph)}
    assert plays["ab", "aab"] == 0
    assert plays["aa", "aab"] == 1 * 256 + 2


def test_anagram_final_only_if_every_arrangement_is_a_word() -> None:
    # ab and ba are both words: whoever has to say the letters a, b says a word.
    graph = check(["ab", "ba"], "anagram", 2)
    assert graph.fragments == ["", "a", "ab", "b"]
    assert graph.is_word.tolist() == [False, False, True, False]
    assert graph.labels == ["", "a", "ab", "b"]
    assert edges_of(graph) == [("", "a", 0), ("", "b", 1), ("a", "ab", 1), ("b", "ab", 0)]
    # With bab instead of ba, "ba" is an infix that is not a word: the mover says it.
    graph = check(["ab", "bab"], "anagram", 2)
    assert graph.fragments == ["", "a", "ab", "abb", "b"]
    assert graph.is_word.tolist() == [False, False, False, True, False]
    assert graph.labels == ["", "a", "ba", "bab", "b"]


def test_anagram_parent_must_be_a_position() -> None:
    # In abc, {a, c} is no infix in any order: abc has parents ab and bc, not ac.
    graph = check(["abc"], "anagram", 3)
    into = sorted((p, r) for p, c, r in edges_of(graph) if c == "abc")
    assert into == [("ab", 2), ("bc", 0)]


def test_anagram_labels_sort_their_letters() -> None:
    # "era" (in eras) and "ear" (in bear) are both the position "aer"; neither is a word
    # of 4+ letters; the label is the first of them in the alphabet.
    graph = check(["eras", "bear"], "anagram", 4)
    node = graph.fragments.index("aer")
    assert not graph.is_word[node]
    assert graph.labels[node] == "ear"


@pytest.mark.parametrize("game", GAMES)
def test_no_game_word(game: str) -> None:
    with pytest.raises(NotSolved):
        build(["ab", "cd"], game, 3)


# -- ENABLE ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.long  # a minute: ENABLE's whole graph against the reference
def test_enable_matches_the_reference(enable1: Path) -> None:
    words = list(load(enable1).words)
    counts = {"ghost": 387_878, "super": 1_076_434, "superduper": 1_076_434}
    for game, count in counts.items():
        graph = build(words, game, 3)
        assert graph.size == count
        assert_matches(graph, reference(words, game, 3), game)
