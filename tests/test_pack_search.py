"""Many keys found in many blocks at once (`ghostdb.pack.search.find_many`), against
each block's own search (`Block.find`), which tests/test_pack.py holds to a plain
binary search; and `Pack.values` on blocks it cannot search that way."""

from __future__ import annotations

import bisect
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostdb.pack import PackError, open_pack, write_pack
from ghostdb.pack.block import Block, decode_block
from ghostdb.pack.format import RESTART, deflate, encode_block
from ghostdb.pack.search import find_many


def _blocks(keys: list[bytes], size: int) -> list[Block]:
    """``keys`` (sorted) in blocks of ``size``, each key's value from its place in ``keys``."""
    found = []
    for a in range(0, len(keys), size):
        part = keys[a : a + size]
        records = [
            (k.decode(), True, (a + i) % 4, (a + i) % 9000, None, None, None)
            for i, k in enumerate(part)
        ]
        found.append(decode_block(encode_block(records)))
    return found


@settings(max_examples=150, deadline=None)
@given(
    st.sets(st.text("abcé", min_size=1, max_size=9), min_size=1, max_size=900),
    st.lists(st.text("abcdé", max_size=10), max_size=60),
    st.sampled_from([1, 7, RESTART - 1, RESTART, RESTART + 1, 3 * RESTART + 5, 2048]),
    st.randoms(use_true_random=False),
)
def test_many_keys_are_found_as_each_block_finds_them(
    words: set[str], others: list[str], size: int, rng: object
) -> None:
    """Keys held (some of them, in any order, some twice) and keys not held (before a
    block's first key, between keys, prefixes and extensions of keys, past a run's end),
    over blocks of one key to several runs: each is found where its block finds it,
    with its value."""
    keys = sorted(w.encode() for w in words)
    blocks = _blocks(keys, size)
    firsts = [block.first for block in blocks]
    sought = [*rng.sample(keys, min(len(keys), 200)), *rng.sample(keys, min(len(keys), 5))]  # type: ignore[attr-defined]
    sought += (
        [o.encode() for o in others] + [k + b"a" for k in keys[:20]] + [k[:-1] for k in keys[-20:]]
    )
    sought = [s for s in sought if s and bisect.bisect_right(firsts, s) > 0]
    if not sought:
        return
    number = [bisect.bisect_right(firsts, s) - 1 for s in sought]
    touched = sorted(set(number))
    lane_block = np.array([touched.index(n) for n in number])
    wanted = np.array(sought, dtype=f"S{max(map(len, sought))}")
    index, value = find_many([blocks[n] for n in touched], lane_block, wanted)
    for s, n, i, v in zip(sought, number, index.tolist(), value.tolist(), strict=True):
        expected = blocks[n].find(s)
        assert i == expected, s
        assert v == (blocks[n].value(expected) if expected >= 0 else -1), s


def test_a_block_whose_key_bytes_do_not_add_up_is_named_damaged() -> None:
    """A block record whose count of bytes a key adds is one too many: its runs' sums
    do not reach where its next column begins (a writer's fault that the block's hash
    cannot catch)."""
    keys = sorted(f"{a}{b}".encode() for a in "abcdefghij" for b in "abcdefghijklmnopq")
    good = _blocks(keys, len(keys))[0]
    raw = bytearray(
        zlib_inflate(encode_block([(k.decode(), True, 3, 1, None, None, None) for k in keys]))
    )
    n = len(keys)
    at = 2  # the varint of n (170): two bytes
    raw[at + n + 5] += 1  # key 5 adds a byte more than it has
    bad = decode_block(deflate(bytes(raw)))
    assert good.find(keys[5]) == 5
    with pytest.raises(PackError, match="do not add up"):
        find_many([bad], np.zeros(1, np.int64), np.array([keys[5]]))
    with pytest.raises(PackError, match="do not add up"):
        bad.find(keys[5])


def zlib_inflate(data: bytes) -> bytes:
    import zlib

    return zlib.decompress(data, -15)


def test_values_finds_keys_in_blocks_with_long_keys(tmp_path: Path) -> None:
    """A key that adds 128 bytes or more (a varint of two bytes): its block is searched
    key by key, beside blocks searched all at once, and answers the same."""
    keys = sorted([*(f"{a}{b}" for a in "abcd" for b in "abcdefgh"), "c" * 200, "c" * 201 + "a"])
    records = [(k, True, i % 4, i, None, None, None) for i, k in enumerate(keys)]
    header = {"game": "ghost", "name": "w", "rules": "ghost/3", "alphabet": "abcdefgh",
              "positions": len(records), "reachable": len(records)}  # fmt: skip
    path = tmp_path / "w.ghostpack"
    from ghostdb.pack import writer

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "BLOCK", 8)
        write_pack(path, header, records)
    with open_pack(path) as pack:
        asked = [*keys, "c" * 199, "c" * 202, "zz", "a"]
        answers = pack.values(asked)
        for key, outcome, length in zip(
            asked, answers.outcome.tolist(), answers.length.tolist(), strict=True
        ):
            record = pack.record(key)
            assert (outcome, length) == ((-1, -1) if record is None else (record[2], record[3])), (
                key
            )


def test_every_fragment_of_enable_is_found_among_many(enable1: Path) -> None:
    """Every fragment of ENABLE (its words' prefixes: Ghost's positions) in blocks of
    2,048, runs of 128: a random half of them and as many strings that are no fragment,
    found at once, as each block finds them."""
    words = enable1.read_text().split()
    keys = sorted({w[:i].encode() for w in words for i in range(1, len(w) + 1)})
    blocks = _blocks(keys, 2048)
    firsts = [block.first for block in blocks]
    rng = np.random.default_rng(7)
    held = [keys[i] for i in rng.choice(len(keys), len(keys) // 2, replace=False)]
    missing = [k[:-1] + b"q" + k[-1:] for k in held[:20_000]] + [k + b"zq" for k in held[:5_000]]
    sought = [s for s in held + missing if bisect.bisect_right(firsts, s) > 0]
    number = np.array([bisect.bisect_right(firsts, s) - 1 for s in sought])
    touched, lane_block = np.unique(number, return_inverse=True)
    index, value = find_many([blocks[n] for n in touched], lane_block, np.array(sought))
    for s, n, i, v in zip(sought, number.tolist(), index.tolist(), value.tolist(), strict=True):
        expected = blocks[n].find(s)
        assert (i, v) == (expected, blocks[n].value(expected) if expected >= 0 else -1), s
