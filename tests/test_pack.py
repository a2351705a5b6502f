"""Packs (`ghostdb.pack`): a solution in one checksummed file, probed without a database.

A pack must answer every position as the store does (every registered game, every
variant), stay within 2 bytes a position with its keys on real dictionaries, find a
flipped byte anywhere, and be written whole or not at all.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, each_game, run, shared_list, write_list
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostdb import Rules, Store, open_store
from ghostdb.errors import DeadFragment
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import GAMES, default_rules, parse_rules
from ghostdb.pack import PackError, open_pack, write_pack
from ghostdb.pack.block import WARM, Block, decode_block
from ghostdb.pack.format import encode_block
from ghostdb.pack.verify import verify_pack

SAMPLE = 1500
"""Positions of each solution probed against the store (all of the smaller ones)."""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Every registered game at its default rules; Ghost over five.txt under every variant,
    misère and three players too."""
    path = tmp_path_factory.mktemp("packs") / "ghost.db"
    with open_store(path, create=True) as opened:
        opened.ingest(OWN_WORDLISTS / "five.txt")
        for game in GAMES:
            if not game.word_game:
                opened.solve(game.name)
        for rules in ghost_rule_sets():
            opened.solve("five", rules)
        yield opened


def ghost_rule_sets() -> list[Rules]:
    found = [Rules(variant) for variant in Variant]
    return [*found, Rules(misere=True), Rules(min_length=4), parse_rules("ghost/3/3p")]


def solutions() -> list[tuple[str, str]]:
    found = [(g.name, default_rules(g.name).key) for g in GAMES if not g.word_game]
    return each_game(found) + [("five", r.key) for r in ghost_rule_sets()]


@pytest.mark.parametrize(("name", "key"), solutions())
def test_a_pack_answers_every_position_as_the_store_does(
    store: Store, tmp_path: Path, name: str, key: str
) -> None:
    rules = parse_rules(key)
    path = tmp_path / "solution.ghostpack"
    positions, size = store.pack(name, rules, path)
    solution = store.solution(name, rules)
    with open_pack(path) as pack:
        assert (pack.name, pack.rules, pack.positions) == (name, rules, positions)
        keys = [record[0] for record in pack.records()]
        assert len(keys) == positions == len(set(keys)) and size == path.stat().st_size
        for key in random.Random(7).sample(keys, min(SAMPLE, len(keys))):
            assert pack.probe(key).as_dict() == solution.lookup(key).as_dict(), key
        assert pack.probe().as_dict() == solution.lookup().as_dict()
        found = pack.values([*keys, "\x1f"])  # every key at once, and one it lacks
        held = [(r[2], -1 if r[3] is None else r[3]) for r in pack.records()]
        assert list(zip(found.outcome.tolist(), found.length.tolist(), strict=True)) == [
            *held,
            (-1, -1),
        ]
        verdict = verify_pack(pack)
        assert verdict.ok, verdict.problems
        assert store.check_pack(pack) == []


def test_a_position_the_pack_lacks_is_said_as_lookup_says_it(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "five.ghostpack"
    store.pack("five", Rules(), path)
    with open_pack(path) as pack, pytest.raises(DeadFragment) as held:
        pack.probe("gz")
    with pytest.raises(DeadFragment) as stored:
        store.solution("five").lookup("gz")
    assert str(held.value) == str(stored.value)


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(v, marks=pytest.mark.long) for v in (Variant.GHOST, Variant.SUPERDUPER)
    ],  # minutes
)
def test_enable_packs_within_two_bytes_a_position(tmp_path: Path, variant: Variant) -> None:
    with open_store(tmp_path / "ghost.db", create=True) as store:
        store.ingest(shared_list("enable1.txt"))
        store.solve("enable1", Rules(variant))
        positions, size = store.pack("enable1", Rules(variant), tmp_path / "e.ghostpack")
        assert size / positions <= 2.0, (size, positions)
        with open_pack(tmp_path / "e.ghostpack") as pack:
            verdict = verify_pack(pack)  # every position against its moves, by whole arrays
            assert verdict.ok, verdict.problems
            assert verdict.checked > positions // 3
            assert store.check_pack(pack) == []
            solution = store.solution("enable1", Rules(variant))
            for key in random.Random(3).sample([r[0] for r in pack.records()], 300):
                assert pack.probe(key).as_dict() == solution.lookup(key).as_dict()


@pytest.fixture(scope="module")
def packed(store: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("packed") / "five.ghostpack"
    store.pack("five", Rules(Variant.SUPERDUPER), path)
    return path


def test_a_flipped_byte_anywhere_is_found_and_named(packed: Path, tmp_path: Path) -> None:
    data = packed.read_bytes()
    head = range(16)  # magic, version, reserved, header length: every byte of it
    places = {*head, 17, len(data) - 1, len(data) - 50, *random.sample(range(len(data)), 40)}
    for at in sorted(places):
        damaged = bytearray(data)
        damaged[at] ^= 0x04
        path = tmp_path / "five.ghostpack"  # a name that says nothing
        path.write_bytes(bytes(damaged))
        try:
            with open_pack(path) as pack:
                verdict = verify_pack(pack)
                assert not verdict.ok, at
                assert "block" in " ".join(e for es in verdict.problems.values() for e in es)
        except PackError as exc:  # the header, the index or the tail: found on opening
            assert "damaged" in str(exc) or "not a ghostdb pack" in str(exc), (at, exc)


def test_a_wrong_value_is_found_from_the_moves(packed: Path, tmp_path: Path) -> None:
    with open_pack(packed) as pack:
        records = list(pack.records())
        header = dict(pack.header)
    i = next(i for i, r in enumerate(records) if r[3] not in (0, None))  # not final
    key, reachable, outcome, length, best, safe, label = records[i]
    records[i] = (key, reachable, outcome, length + 2, best, safe, label)
    path = tmp_path / "wrong.ghostpack"
    write_pack(path, header, records)
    with open_pack(path) as pack:
        verdict = verify_pack(pack)
    assert list(verdict.counts) == ["game length"] and key in verdict.problems["game length"][0]


def test_a_pack_is_written_whole_or_not_at_all(packed: Path, tmp_path: Path) -> None:
    with open_pack(packed) as pack:
        header, records = dict(pack.header), list(pack.records())

    def failing() -> Iterator[tuple]:
        yield from records[:3]
        raise KeyboardInterrupt

    path = tmp_path / "cut.ghostpack"
    with pytest.raises(KeyboardInterrupt):
        write_pack(path, header, failing())
    with pytest.raises(PackError, match="changed while it was packed"):
        write_pack(path, header, records[:-1])
    with pytest.raises(PackError, match="out of order"):
        write_pack(path, header, list(reversed(records)))
    start = [(k, True, 3, 1, None, None, None) for k in ("", "b", "a")]
    with pytest.raises(PackError, match="out of order at 'a'"):  # not at the start, ''
        write_pack(path, {**header, "positions": 3, "reachable": 3}, start)
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_packs_probes_and_verifies(store: Store, tmp_path: Path) -> None:
    db = Path(store.engine.url.database)
    path = tmp_path / "five.ghostpack"
    code, out, err = run("pack", "five", "--rules", "super", "-o", str(path), db=db)
    assert code == 0 and "bytes" in out and path.is_file(), err
    probe = [sys.executable, "-m", "ghostdb", "probe", str(path)]
    one = subprocess.run([*probe, "re", "--json"], capture_output=True, text=True, check=True)
    assert '"fragment": "re"' in one.stdout
    lines = subprocess.run([*probe, "--json"], input="re\nqq\n\n", capture_output=True, text=True)
    answers = lines.stdout.splitlines()
    assert lines.returncode == 1 and len(answers) == 3 and '"error"' in answers[1]
    code, out, err = run("verify", str(path), db=db)  # --db: against the store too
    assert code == 0 and "agrees with the store" in out, err
    for bad in ("nothing.ghostpack", str(OWN_WORDLISTS / "five.txt")):
        done = subprocess.run([*probe[:-1], bad, "t"], capture_output=True, text=True)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    code, _, err = run("pack", "five", "-o", str(tmp_path / "no" / "x.ghostpack"), db=db)
    assert code == 1 and "no folder" in err and not (tmp_path / "no").exists()


def test_probing_imports_no_database_or_command_line_library(packed: Path) -> None:
    script = (
        "import sys; from ghostdb.pack import open_pack\n"
        f"p = open_pack({str(packed)!r}); p.probe('re'); p.close()\n"
        "print(sorted(m for m in ('sqlalchemy', 'typer', 'fastapi') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


def test_write_list_packs_a_small_list(tmp_path: Path) -> None:
    with open_store(tmp_path / "ghost.db", create=True) as opened:
        opened.ingest(write_list(tmp_path, "cat cow dog", "w"))
        opened.solve("w")
        positions, _ = opened.pack("w", None, tmp_path / "w.ghostpack")
    with open_pack(tmp_path / "w.ghostpack") as pack:
        assert pack.positions == positions and pack.probe("c").best_move is not None


def _block_of(keys: list[bytes]) -> Block:
    records = [(k.decode(), True, 3, 1, None, None, None) for k in keys]
    return decode_block(encode_block(records))


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.text("abcé", min_size=1, max_size=7), min_size=1, max_size=600),
    st.lists(st.text("abcdé", max_size=8), max_size=40),
)
def test_a_block_finds_each_key_and_no_other(words: set[str], others: list[str]) -> None:
    """A block's search (restarts, then a run read without making its keys) against a
    plain binary search of the keys, for every key and for keys it lacks, before and
    after it decodes all its keys (`WARM`)."""
    keys = sorted(w.encode() for w in words)
    block = _block_of(keys)
    for _ in range(2):  # the second pass finds past WARM: every key decoded
        for i, key in enumerate(keys):
            assert block.find(key) == i
        for other in others:
            raw = other.encode()
            assert block.find(raw) == (keys.index(raw) if raw in set(keys) else -1)
        for _ in range(WARM):
            block.find(keys[0])


RECORD = st.tuples(
    st.booleans(),
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(0, 16_000)),
    st.one_of(st.none(), st.integers(0, 0xFFFE)),
    st.one_of(st.none(), st.text("xyzé", max_size=4)),
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text("abé\x00", min_size=1, max_size=9), RECORD, max_size=700))
def test_a_block_decodes_to_the_records_it_was_made_of(found: dict[str, tuple]) -> None:
    """Keys that share prefixes, run past restarts, hold a NUL or a letter of two bytes;
    lengths and safe seats of two bytes; labels or none: a block written column by
    column reads back record for record."""
    keys = sorted(found, key=str.encode)
    records = [(k, *found[k][:2], found[k][2], None, *found[k][3:]) for k in keys]
    assert decode_block(encode_block(records)).records() == records


def test_a_pack_that_fails_midway_stops_its_readers_first(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows are read by two threads, and the blocks deflated by others: when writing
    fails after some blocks, every thread is stopped before its connection goes back to
    the pool, no file is left, and the store answers as before."""
    import threading

    from ghostdb.pack import writer
    from ghostdb.pack.format import deflate

    made = []

    def failing(record: bytes) -> bytes:
        made.append(len(record))
        if len(made) == 3:
            raise OSError(28, "No space left on device")
        return deflate(record)

    monkeypatch.setattr(writer, "deflate", failing)
    monkeypatch.setattr(writer, "BLOCK", 16)
    with pytest.raises(OSError, match="No space"):
        store.pack("five", Rules(Variant.SUPERDUPER), tmp_path / "cut.ghostpack")
    assert len(made) >= 3
    names = [t.name for t in threading.enumerate()]
    assert not [n for n in names if n.startswith(("ghostdb-read", "ghostdb-deflate"))], names
    assert list(tmp_path.iterdir()) == []
    assert store.solution("five", Rules(Variant.SUPERDUPER)).lookup("gh").outcome


@pytest.mark.parametrize(("name", "key"), solutions())
def test_a_solution_read_by_levels_packs_as_read_row_by_row(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, key: str
) -> None:
    """`ghostdb pack` reads a solution a level and a letter at a time and sorts it with
    numpy (`ghostdb.pack.sorting`); the same file comes of reading it row by row in key
    order, with blocks of 16 and the levels sorted 7 keys at a time at most (every
    carried block and share at work).  A solution with labels is read row by row."""
    from ghostdb.pack import sorting, writer
    from ghostdb.store.exports import packs

    monkeypatch.setattr(writer, "BLOCK", 16)
    monkeypatch.setattr(sorting, "SHARE", 7)
    rules = parse_rules(key)
    by_rows = []
    real = packs.stored_records
    monkeypatch.setattr(packs, "stored_records", lambda *a: by_rows.append(1) or real(*a))
    store.pack(name, rules, tmp_path / "levels.ghostpack")
    labelled = store.solution(name, rules).lookup().label is not None
    assert bool(by_rows) == labelled, (by_rows, labelled)

    def otherwise(*_: object) -> Iterator[object]:
        raise packs._Otherwise
        yield

    monkeypatch.setattr(packs, "_parts", otherwise)
    store.pack(name, rules, tmp_path / "rows.ghostpack")
    levels, rows = (tmp_path / f"{w}.ghostpack" for w in ("levels", "rows"))
    assert levels.read_bytes() == rows.read_bytes()
    with open_pack(levels) as pack:
        assert verify_pack(pack).ok and store.check_pack(pack) == []


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.text("ab\u00e9", min_size=1, max_size=6), min_size=2, max_size=60, unique=True),
    st.lists(st.integers(0, 20), max_size=12),
)
def test_columns_in_parts_of_any_size_write_the_records_file(
    keys: list[str], sizes: list[int]
) -> None:
    """`write_columns` cuts parts of any size into blocks (rows carried from part to part,
    pieces of a few blocks): the file `write_pack` makes of the same records; with any
    two neighbouring keys swapped (inside a block, across blocks, pieces or a carry), a
    one-line PackError and no file."""
    import tempfile

    from ghostdb.pack import writer
    from ghostdb.pack.format import columns_of

    keys = sorted(keys, key=str.encode)
    records = [(k, i % 3 == 0, i % 4, i % 7 or None, None, None, None) for i, k in enumerate(keys)]
    header = {"game": "ghost", "name": "w", "rules": "ghost/3", "alphabet": "ab\u00e9",
              "positions": len(records), "reachable": sum(r[1] for r in records)}  # fmt: skip
    cuts = list(pairwise(sorted({0, len(keys), *(min(s * 3, len(keys)) for s in sizes)})))
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "BLOCK", 8)
        patch.setattr(writer, "PIECE", 2)
        rows, parts = Path(folder) / "rows.ghostpack", Path(folder) / "parts.ghostpack"
        write_pack(rows, header, records)
        writer.write_columns(parts, header, (columns_of(records[a:b]) for a, b in cuts))
        assert parts.read_bytes() == rows.read_bytes()
        parts.unlink()
        for i in range(len(records) - 1):
            swapped = [*records[:i], records[i + 1], records[i], *records[i + 2 :]]
            with pytest.raises(PackError, match="out of order"):
                writer.write_columns(parts, header, (columns_of(swapped[a:b]) for a, b in cuts))
            assert not parts.exists()


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.text("ab\u00e9\u0105\U0001f600", max_size=6), max_size=300),
    st.randoms(use_true_random=False),
    st.integers(1, 40),
)
def test_runs_come_out_in_key_order(keys: set[str], rng: random.Random, share: int) -> None:
    """Keys added in runs (each in key order, as a level is, or not), of one and more
    bytes a letter, the empty key among them or not, come out in UTF-8 byte order with
    their own columns, in shares of any size."""
    import numpy as np

    from ghostdb.pack import sorting

    order = sorted(keys, key=str.encode)
    runs, left = sorting.Runs(), list(keys)
    rng.shuffle(left)
    while left:
        size = rng.randint(1, 50)
        run, left = left[:size], left[size:]
        if rng.random() < 0.7:
            run.sort(key=str.encode)
        numbers = np.array([order.index(k) for k in run], dtype=np.int32)
        text = "\x1e".join(run).encode()
        runs.add(text, len(run), numbers % 2 == 0, numbers, numbers * 3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sorting, "SHARE", share)
        parts = list(runs.parts())
    found = [p.key(i).decode() for p in parts for i in range(len(p))]
    assert found == order
    values = [int(v) for p in parts for v in p.values]
    assert values == list(range(len(order)))
    assert [int(v) for p in parts for v in p.safe] == [3 * v for v in values]
    assert [bool(v) for p in parts for v in p.reachable] == [v % 2 == 0 for v in values]


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.text("ab\u00e9c", min_size=1, max_size=7),
        st.tuples(st.integers(0, 3), st.one_of(st.none(), st.integers(0, 300))),
        min_size=1,
        max_size=400,
    ),
    st.lists(st.lists(st.text("ab\u00e9cd", max_size=8), max_size=60), min_size=1, max_size=6),
    st.sampled_from([1, 3, 10_000, 1 << 30]),
    st.randoms(use_true_random=False),
)
def test_values_in_batches_answer_as_records_do(
    found: dict[str, tuple[int, int | None]],
    asked: list[list[str]],
    cache_bytes: int,
    rng: random.Random,
) -> None:
    """`Pack.values`: batches of keys held and not, over blocks found one key at a time,
    joined to be searched together (some blocks joined, then more), within a cache too
    small to keep them all or not: each answer is the record's."""
    import tempfile

    from ghostdb.pack import reader, writer

    keys = sorted(found, key=str.encode)
    records = [(k, True, found[k][0], found[k][1], None, None, None) for k in keys]
    header = {"game": "ghost", "name": "w", "rules": "ghost/3", "alphabet": "abcd\u00e9",
              "positions": len(records), "reachable": len(records)}  # fmt: skip
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "BLOCK", 16)
        patch.setattr(reader, "JOIN_FROM", 3)
        path = Path(folder) / "w.ghostpack"
        write_pack(path, header, records)
        with open_pack(path, cache_bytes=cache_bytes) as pack:
            for batch in asked:
                batch = batch + rng.sample(keys, min(len(keys), rng.randint(0, 40)))
                answers = pack.values(batch)
                for key, outcome, length in zip(
                    batch, answers.outcome.tolist(), answers.length.tolist(), strict=True
                ):
                    record = pack.record(key)
                    if record is None:
                        assert (outcome, length) == (-1, -1), key
                    else:
                        length_held = -1 if record[3] is None else record[3]
                        assert (outcome, length) == (record[2], length_held), key


def test_a_joined_block_asked_again_stays_joined_when_another_joins(tmp_path: Path) -> None:
    """A batch that asks a key of a block joined before, and joins another block where
    the cache has room for one only, still answers that key (hypothesis found it: the old
    block was let go and its key answered by nothing)."""
    from ghostdb.pack import reader, writer

    found = {"ac": (3, None), "a\u00e9aba": (3, 92), "aaaaa": (3, 293), "a\u00e9cb\u00e9a": (1, 35),
             "abc\u00e9a": (0, None), "bbcb": (1, None), "bac\u00e9abb": (2, 103),
             "aa\u00e9ca": (1, 138), "baccaa": (1, None), "bbb": (0, 258),
             "bbbab\u00e9": (1, 133), "abbcc\u00e9": (0, None), "a\u00e9aa": (1, None),
             "aa": (1, None), "abcb": (1, None), "aaa\u00e9a\u00e9a": (1, 270),
             "abb\u00e9bc\u00e9": (0, 169)}  # fmt: skip
    keys = sorted(found, key=str.encode)
    records = [(k, True, found[k][0], found[k][1], None, None, None) for k in keys]
    header = {"game": "ghost", "name": "w", "rules": "ghost/3", "alphabet": "abc\u00e9",
              "positions": len(records), "reachable": len(records)}  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(writer, "BLOCK", 16)
        patch.setattr(reader, "JOIN_FROM", 3)
        write_pack(tmp_path / "w.ghostpack", header, records)
        with open_pack(tmp_path / "w.ghostpack", cache_bytes=3) as pack:
            for batch in (
                ["aa", "ac", "abb\u00e9bc\u00e9"],
                ["bccbccb", "bbc\u00e9", "bc\u00e9acc", "ac"],
            ):
                answers = pack.values(batch)
                for key, outcome in zip(batch, answers.outcome.tolist(), strict=True):
                    assert outcome == (found[key][0] if key in found else -1), key


def test_a_pack_keeps_no_more_decoded_blocks_than_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`open_pack(path, cache_bytes)`: the blocks kept stay within the budget (one block
    at least), and a block read again after it was let go answers the same."""
    keys = sorted(f"{a}{b}{c}" for a in "abcdefgh" for b in "abcdefgh" for c in "abcdefgh")
    records = [(k, True, 3, 1, None, None, None) for k in keys]
    header = {"game": "ghost", "name": "w", "rules": "ghost/3", "alphabet": "abcdefgh",
              "positions": len(records), "reachable": len(records)}  # fmt: skip
    path = tmp_path / "w.ghostpack"
    from ghostdb.pack import writer

    monkeypatch.setattr(writer, "BLOCK", 32)  # 16 blocks
    write_pack(path, header, records)
    with open_pack(path, cache_bytes=1) as pack:
        assert len(pack.index) == 16
        for key in keys:
            assert pack.record(key) == (key, True, 3, 1, None, None, None)
            assert len(pack._blocks) == 1
    with open_pack(path) as pack:
        assert [pack.record(k) for k in keys] == records
        assert len(pack._blocks) == 16
