"""The solver against hand-checked small lists and an independent brute-force search."""

from __future__ import annotations

import numpy as np
import pytest
from brute import brute_force
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostdb.games.base import WIN
from ghostdb.games.ghost import GhostGame
from ghostdb.games.ghost.graph import build_graph
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.solvers import best_plays, play_numbers, solve


def first_moves(words: str, rules: Rules | None = None) -> tuple[bool, list[str]]:
    """(does the first player win, the winning first letters)."""
    rules = rules or Rules()
    graph = GhostGame(rules).build(words.split())
    solved = solve(graph)
    root = graph.start
    winners = sorted(
        graph.keys[c]
        for p, c in zip(graph.edge_parent, graph.edge_child, strict=True)
        if p == root and solved.value[c] != WIN
    )
    return bool(solved.value[root] == WIN), winners


@pytest.mark.parametrize(
    ("words", "first_wins", "winning"),
    [
        ("cat camel gecko", False, []),
        ("cat camel goat gerbil", True, ["g"]),
        ("cat camel goat gecko gerbil gar", False, []),
        ("cat camel goat gecko gerbil gar gannet", True, ["g"]),
    ],
)
def test_small_lists(words: str, first_wins: bool, winning: list[str]) -> None:
    assert first_moves(words) == (first_wins, winning)


def test_misere_small_list_by_hand() -> None:
    # "cat", "cow": whoever writes the third letter completes a word, and that wins in
    # misère; three letters means the first player writes it.
    assert first_moves("cat cow", Rules(misere=True)) == (True, ["c"])
    assert first_moves("cat cow", Rules()) == (False, [])
    # "ab" + "abcd": min length 2 makes "ab" a word: the second player completes it.
    assert first_moves("ab abcd", Rules(min_length=2, misere=True)) == (False, [])
    assert first_moves("ab abcd", Rules(min_length=2)) == (True, ["a"])


def test_min_length_makes_short_words_fragments() -> None:
    graph = build_graph(["ax", "axe", "axle"], Rules(min_length=3))
    assert "ax" in graph.fragments
    assert not graph.is_word[graph.fragments.index("ax")]
    assert graph.is_word[graph.fragments.index("axe")]


# -- brute force ---------------------------------------------------------------------------


word_lists = st.lists(
    st.text(alphabet="abc", min_size=1, max_size=6), min_size=1, max_size=8, unique=True
)


@settings(max_examples=150, deadline=None)
@given(
    words=word_lists,
    variant=st.sampled_from(list(Variant)),
    min_length=st.sampled_from([1, 2, 3]),
    misere=st.booleans(),
)
def test_every_value_matches_brute_force(
    words: list[str], variant: Variant, min_length: int, misere: bool
) -> None:
    rules = Rules(variant, min_length, misere)
    if not any(len(w) >= min_length for w in words):
        return
    graph = GhostGame(rules).build(words)
    solved = solve(graph)
    brute = brute_force(words, rules)
    value = brute.value
    assert all(brute.is_fragment(f) for f in graph.keys)
    wins = solved.value == WIN
    for node, fragment in enumerate(graph.keys):
        win, length = value(fragment)
        assert bool(wins[node]) == win, fragment
        assert int(solved.length[node]) == length, fragment
        best = int(solved.best[node])
        if graph.final[node] >= 0:
            assert best == -1
        else:
            # The best play is consistent with the stored values of its target.
            assert bool(wins[best]) != win or not win
            assert int(solved.length[best]) == length - 1


@settings(max_examples=100, deadline=None)
@given(words=word_lists, variant=st.sampled_from(list(Variant)), misere=st.booleans())
def test_best_plays_number_the_best_move_as_play_numbers_do(
    words: list[str], variant: Variant, misere: bool
) -> None:
    """`best_plays` counts only the chosen edges; `play_numbers` numbers every edge: the
    same number for each node's best move, -1 where there is none."""
    graph = GhostGame(Rules(variant, 1, misere)).build(words)
    best = solve(graph).best
    numbers = play_numbers(graph)
    expected = np.full(graph.size, -1, dtype=np.int32)
    for edge, (parent, child) in enumerate(zip(graph.edge_parent, graph.edge_child, strict=True)):
        if child == best[parent] and numbers[edge] >= 0:
            expected[parent] = numbers[edge]
    assert best_plays(graph, best).tolist() == expected.tolist()
