"""Packed keys: every Ghost variant's graph keeps its fragments as letter codes, and reads
exactly like the list of strings a plain Python construction makes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ghostdb.games.base import KeyList, PositionGraph
from ghostdb.games.ghost import GhostGame
from ghostdb.games.ghost.letters import PackedKeys, _decode, encode_strings, sort_strings
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.store.solving import bulk
from ghostdb.store.solving.bulk import chunks, part

VARIANTS = tuple(Variant)

SMALL = ["cat", "came", "camel", "dog", "do", "ax", "axe", "axle", "zebra", "ab", "ba"]
ACCENTS = ["żółw", "łódź", "źdźbło", "ćma", "ósmy", "ąę", "zażółć", "gęślą", "jaźń"]
WIDE = ["αβγ", "βγδ", "日本語", "本日", "ab", "abc"]  # letters past 255: four-byte text


def plain_keys(words: list[str], variant: Variant, min_length: int) -> list[str]:
    """Every fragment of ``variant`` in storage order (length, then code points), made
    with sets and sorted strings."""
    game = {w for w in words if len(w) >= min_length}
    if variant is Variant.GHOST:
        nodes = {w[:i] for w in game for i in range(len(w) + 1)}
    else:
        nodes = {w[i:j] for w in game for i in range(len(w)) for j in range(i, len(w) + 1)}
        nodes.add("")
        if variant is Variant.ANAGRAM:
            nodes = {"".join(sorted(f)) for f in nodes}
    return sorted(nodes, key=lambda f: (len(f), f))


def random_words(seed: int, alphabet: str = "abcde", count: int = 40) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(count)]


LISTS = [SMALL, ACCENTS, WIDE, *(random_words(seed) for seed in range(4))]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("words", LISTS, ids=lambda w: w[0])
def test_packed_keys_match_plain_strings(words: list[str], variant: Variant) -> None:
    graph = GhostGame(Rules(variant, 2)).build(words)
    expected = plain_keys(words, variant, 2)
    assert isinstance(graph.keys, PackedKeys)
    assert len(graph.keys) == graph.size == len(expected)
    assert list(graph.keys) == expected
    assert graph.keys == expected and expected == graph.keys
    assert [graph.keys[i] for i in range(graph.size)] == expected
    assert graph.keys[-1] == expected[-1]
    assert np.array_equal(graph.level, [len(k) for k in expected])
    assert graph.word_length is not None
    assert np.array_equal(graph.word_length, graph.level)
    for lo, hi in [(0, 3), (2, 9), (0, graph.size), (graph.size - 2, graph.size + 5), (4, 4)]:
        assert graph.keys[lo:hi] == expected[lo:hi]
    # The start, then every fragment reached by the edges, each as its key.
    assert graph.keys[graph.start] == ""
    if variant is Variant.ANAGRAM:
        assert graph.labels is not None
        labels = list(graph.labels)
        assert [sorted(label) for label in labels] == [sorted(k) for k in expected]
    else:
        assert graph.labels is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_take_reads_nodes_and_none(variant: Variant) -> None:
    words = random_words(7, "abcdł", 60)
    graph = GhostGame(Rules(variant, 3)).build(words)
    expected = list(graph.keys)
    rng = np.random.default_rng(1)
    picks = rng.integers(-1, graph.size, size=500)
    assert graph.keys.take(picks) == [expected[i] if i >= 0 else None for i in picks]
    assert graph.keys.take(np.arange(graph.size)) == expected
    assert graph.keys.take(np.full(3, -1)) == [None] * 3
    assert graph.keys.take(np.zeros(0, dtype=np.int64)) == []


def test_many_keys_decode_in_blocks() -> None:
    """More strings than one decode takes at a time: slices and iteration join blocks."""
    text = encode_strings(["abc", "xyzzy", "łódź"])
    rng = np.random.default_rng(2)
    n = 200_000
    which = rng.integers(0, 3, size=n)
    src = text.starts[which]
    lengths = rng.integers(0, 4, size=n)  # a prefix of each (all are 3+ letters long)
    keys = PackedKeys(text.codes, text.code_points, src, lengths)
    words = ["abc", "xyzzy", "łódź"]
    expected = [words[w][:k] for w, k in zip(which.tolist(), lengths.tolist(), strict=True)]
    assert keys[:] == expected
    assert list(keys) == expected
    assert keys.take(np.arange(n)[::-1]) == expected[::-1]
    assert _decode(text.code_points, text.codes, src[:5], lengths[:5]) == expected[:5]


@pytest.mark.parametrize("letters", ["ab", "abcdefghijklmnopqrstuvwxyzż", "αβ日本"])
def test_strings_sort_as_python_sorts_them(letters: str) -> None:
    """`sort_strings` against `sorted`: strings of a two-letter alphabet share long
    prefixes and repeat (ties go on for several rounds of packed letters, some of equal
    strings, some split late); a wide alphabet packs half as many letters a key."""
    rng = random.Random(len(letters))
    stems = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 30))) for _ in range(40)]
    strings = [
        rng.choice(stems)[: rng.randint(1, 30)] + "".join(rng.choices(letters, k=rng.randint(0, 3)))
        for _ in range(3000)
    ]
    text = encode_strings(strings)
    order, distinct = sort_strings(text.codes, text.starts, text.lengths)
    got = [strings[i] for i in order]
    assert got == sorted(strings)
    assert distinct.tolist() == [i == 0 or got[i] != got[i - 1] for i in range(len(got))]


def test_reorder_keeps_the_strings_packed() -> None:
    text = encode_strings(["ant", "bee", "cow"])
    keys = PackedKeys(text.codes, text.code_points, text.starts, text.lengths)
    again = keys.reorder(np.array([2, 0, 1]))
    assert isinstance(again, PackedKeys)
    assert list(again) == ["cow", "ant", "bee"]
    with pytest.raises(IndexError):
        keys[3]
    assert "bee" in keys and "eel" not in keys
    assert keys.index("cow") == 2


def test_a_plain_list_of_keys_gets_take() -> None:
    graph = PositionGraph(
        keys=["a", "b", "c"],
        level=np.zeros(3, dtype=np.int32),
        final=np.zeros(3, dtype=np.int8),
        edge_parent=np.zeros(0, dtype=np.int32),
        edge_child=np.zeros(0, dtype=np.int32),
        edge_rank=np.zeros(0, dtype=np.int32),
        start=0,
        acyclic=False,
    )
    assert isinstance(graph.keys, KeyList)
    assert graph.keys == ["a", "b", "c"]
    assert graph.keys.take(np.array([2, -1, 0])) == ["c", None, "a"]
    assert type(graph.keys[0:2]) is list


def test_chunks_make_each_chunks_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Columns stay arrays, packed keys and lists until `chunks` slices them."""
    monkeypatch.setattr(bulk, "CHUNK_ROWS", 1000)
    words = random_words(3, "abcdefgh", 3000)
    graph = GhostGame(Rules(Variant.SUPER, 3)).build(words)
    n = graph.size
    assert n > 3 * bulk.CHUNK_ROWS  # several chunks, the last one short
    keys = list(graph.keys)
    lengths = np.ma.masked_array(np.arange(n) - 5, mask=np.arange(n) < 5)
    names = ["loss", "draw", "tie", "win"] * (n // 4 + 1)
    columns = [graph.level, graph.keys, [None, *keys[:-1]], lengths, "x", None, names[:n]]
    table = (("a", "b", "c", "d", "e", "f", "g"), columns, n)
    rows = []
    for names_out, chunk in chunks(*table, 9):
        assert names_out[0] == "solution_id"
        assert chunk.columns[0] == 9
        assert isinstance(chunk.columns[1], np.ndarray)  # bound by Columns
        assert all(isinstance(c, list) for c in chunk.columns[2:4])
        assert isinstance(chunk.columns[4], np.ma.MaskedArray)
        rows.extend(chunk.rows())
    assert len(rows) == n
    assert [r[2] for r in rows] == keys
    assert [r[3] for r in rows] == [None, *keys[:-1]]
    assert [r[4] for r in rows[:6]] == [None] * 5 + [0]
    assert {r[5] for r in rows} == {"x"} and {r[6] for r in rows} == {None}
    assert [r[7] for r in rows[:5]] == ["loss", "draw", "tie", "win", "loss"]
    assert np.array_equal(part(graph.level, 0, 2), graph.level[:2])


def test_chunks_are_made_ahead_in_a_worker_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bulk.ahead` yields the chunks `chunks` makes, in order, each already bound; an
    error making one reaches the writer, and a writer that stops early is not kept
    waiting."""
    import threading

    from ghostdb.store.solving.bulk import ahead

    monkeypatch.setattr(bulk, "CHUNK_ROWS", 1000)
    graph = GhostGame(Rules(Variant.SUPER, 3)).build(random_words(4, "abcdefgh", 3000))
    table = (("a", "b"), [graph.level, graph.keys], graph.size)
    plain = [chunk for _, chunk in chunks(*table, 9)]
    makers: set[str] = set()

    def watched() -> Iterator[tuple[tuple[str, ...], Any]]:
        for item in chunks(*table, 9):
            makers.add(threading.current_thread().name)
            yield item

    made = [chunk for _, chunk in ahead(watched())]
    assert [list(c.rows()) for c in made] == [list(c.rows()) for c in plain]
    assert all(c._bound is not None for c in made)
    assert makers and all(name.startswith("ghostdb-write") for name in makers)

    def failing() -> Iterator[tuple[tuple[str, ...], Any]]:
        yield from chunks(*table, 9)
        raise OSError("no space left")

    with pytest.raises(OSError, match="no space"):
        for _ in ahead(failing()):
            pass
    first = ahead(chunks(*table, 9))
    next(first)
    first.close()  # returns once the chunk made meanwhile is done


def test_a_failed_write_lets_its_worker_go_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """When writing a chunk fails, `bulk.write_rows` closes the chunks made ahead: no worker
    thread is left while the error is still being handled (a solve marks its job failed
    meanwhile)."""
    import threading

    from ghostdb.store.sql import queries

    monkeypatch.setattr(bulk, "CHUNK_ROWS", 1000)
    graph = GhostGame(Rules(Variant.SUPER, 3)).build(random_words(4, "abcdefgh", 3000))
    table = (("a", "b"), [graph.level, graph.keys], graph.size)

    def full_disk(*_args: Any, **_kwargs: Any) -> None:
        raise OSError("no space left")

    class Conn:
        class dialect:
            name = "sqlite"

    monkeypatch.setattr(queries, "bulk_insert", full_disk)
    try:
        bulk.write_rows(Conn(), table[:2], graph.size, 9, None)
    except OSError:
        alive = [t.name for t in threading.enumerate() if t.name.startswith("ghostdb-write")]
        assert alive == []
    else:
        pytest.fail("the write did not fail")
