"""A pack's own verification (`ghostdb verify FILE`, `ghostdb.pack.verify`): its blocks
read whole into arrays (`ghostdb.pack.whole`), its moves checked by whole arrays against
the rule set's own graph (`ghostdb.pack.moves`), made from the rules or from the words
that are the pack's final positions; every kind of damage a writer could do is named,
with the position it happened at."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import copy_db, shared_list

from ghostdb import Rules, open_store
from ghostdb.games.ghost.rules import Variant
from ghostdb.pack import open_pack, write_pack
from ghostdb.pack.format import Record
from ghostdb.pack.verify import PackVerdict, verify_pack

# Real words (ENABLE's words beginning with "ca" and ending with "e" or "s"): positions
# with several moves, wins and losses.
CA = shared_list("enable1.txt")
SOLUTIONS = [
    ("ca", Rules()),
    ("ca", Rules(Variant.SUPERDUPER, misere=True)),
    ("ca", Rules(Variant.INSERT)),
    ("ca", Rules(Variant.ANAGRAM)),
    ("ca", Rules(min_length=4, players=3)),
    ("tictactoe", None),
    ("chopsticks", None),
]


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A pack of each of `SOLUTIONS`, by its rule key."""
    folder = tmp_path_factory.mktemp("pack-verify")
    words = [
        w for w in CA.read_text().split() if w.startswith("ca") and w[-1] in "es" and len(w) <= 7
    ]
    (folder / "ca.txt").write_text("\n".join(words) + "\n")
    found = {}
    with open_store(str(folder / "ghost.db"), create=True) as store:
        store.ingest(folder / "ca.txt")
        for name, rules in SOLUTIONS:
            store.solve(name, rules)
            key = store.solution(name, rules).rules.key
            found[key] = folder / f"{key.replace('/', '-')}.ghostpack"
            store.pack(name, rules, found[key])
        yield found


def records(path: Path) -> tuple[dict[str, Any], list[Record]]:
    with open_pack(path) as pack:
        return dict(pack.header), list(pack.records())


def rewritten(path: Path, header: dict[str, Any], found: list[Record]) -> PackVerdict:
    """``found`` written to a pack beside ``path`` under ``header`` (its counts made
    theirs: a count that disagrees is found before the moves are looked at), verified."""
    copy = path.with_name(f"changed-{path.name}")
    header = {**header, "positions": len(found), "reachable": sum(r[1] for r in found)}
    write_pack(copy, header, sorted(found, key=lambda r: r[0].encode()))
    with open_pack(copy) as pack:
        return verify_pack(pack)


def changed(record: Record, **fields: Any) -> Record:
    names = ("key", "reachable", "outcome", "length", "best", "safe", "label")
    return tuple(fields.get(n, v) for n, v in zip(names, record, strict=True))  # type: ignore[return-value]


def pick(found: list[Record], test: Callable[[Record], bool]) -> int:
    """The deepest record that ``test`` holds for (positions with moves to check)."""
    return max((i for i, r in enumerate(found) if test(r)), key=lambda i: len(found[i][0]))


def inner(r: Record) -> bool:
    return r[3] not in (0, None) and r[0] != ""


def test_every_pack_verifies_clean_by_whole_arrays(
    packs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pack's moves are checked against its rule set's graph, not a position at a
    time, but Anagram Ghost's, whose keys are not its words."""
    from ghostdb.pack import moves, verify

    slow = moves.check_by_candidates
    asked = []

    def by_candidates(*args: Any) -> int:
        asked.append(args[0].rules.key)
        return slow(*args)

    monkeypatch.setattr(verify, "check_by_candidates", by_candidates)
    for key, path in packs.items():
        with open_pack(path) as pack:
            verdict = verify_pack(pack)
            assert verdict.ok, (key, verdict.problems)
            three = key.endswith("3p")  # (safe seats: the moves are not checked)
            assert 0 < verdict.checked < verdict.positions or three, key
    assert asked == ["anagram/3"]


def test_every_best_play_is_the_probes(packs: dict[str, Path]) -> None:
    """`best_plays` derives every position's best move at once as a probe derives one
    (`ghostdb.positions.derived_best`): for two players, for three, with cycles."""
    from ghostdb.pack.moves import best_plays, graph_of
    from ghostdb.pack.whole import read_whole

    for key, path in packs.items():
        if key == "anagram/3":  # (no graph of its own: probed, as `verify --db` does)
            continue
        with open_pack(path) as pack:
            whole = read_whole(pack)
            graph = graph_of(pack.game, whole.texts(whole.values >> 2 == 1), print)
            assert graph is not None, key
            found = best_plays(pack.game, graph, whole).tolist()
            for row, record in enumerate(pack.records()):
                probe = pack.probe(record[0])
                moves = [p.move for p in probe.plays]
                expected = moves.index(probe.best_move) if probe.best_move else -1
                assert found[row] == expected, (key, record[0])


def test_the_store_is_compared_with_each_best_move_a_pack_gives(
    packs: dict[str, Path], tmp_path: Path
) -> None:
    """`verify FILE --db`: a stored best move changed to another play is named, the
    pack's own worked out for every position at once."""

    db = packs["ghost/3"].parent / "ghost.db"
    copy = tmp_path / "ghost.db"
    copy_db(db, copy)
    with open_store(str(copy), create=False) as store, open_pack(packs["ghost/3"]) as pack:
        assert store.check_pack(pack) == []
        with store.engine.begin() as conn:
            fragment = conn.exec_driver_sql(
                "SELECT fragment FROM positions p JOIN solutions s ON s.id = p.solution_id "
                "WHERE s.rules = 'ghost/3' AND best_play = 1 ORDER BY level DESC LIMIT 1"
            ).scalar()
            conn.exec_driver_sql(
                "UPDATE positions SET best_play = 0 WHERE fragment = ? AND solution_id = "
                "(SELECT id FROM solutions WHERE rules = 'ghost/3')",
                (fragment,),
            )
        assert store.check_pack(pack) == [f"{fragment!r} differs in best_play"]


@pytest.mark.parametrize("key", ["ghost/3", "superduper/3/misere", "insert/3", "tictactoe"])
def test_a_flipped_outcome_is_found_from_the_moves(packs: dict[str, Path], key: str) -> None:
    header, found = records(packs[key])
    i = pick(found, inner)
    flipped = 0 if found[i][2] == 3 else 3
    found[i] = changed(found[i], outcome=flipped)
    verdict = rewritten(packs[key], header, found)
    assert "outcome" in verdict.counts
    assert any(f"{found[i][0]!r} is held as" in e for e in verdict.problems["outcome"])


def test_a_final_positions_value_is_the_rules(packs: dict[str, Path]) -> None:
    """A word's value is its rules' (won by the player to move there, lost in misère),
    which the check a position at a time took as held."""
    for key, word_value in (("ghost/3", 3), ("superduper/3/misere", 0)):
        header, found = records(packs[key])
        i = pick(found, lambda r: r[3] == 0)
        assert found[i][2] == word_value
        found[i] = changed(found[i], outcome=3 - word_value)
        verdict = rewritten(packs[key], header, found)
        assert list(verdict.counts) == ["outcome"], verdict.problems
        said = f"{found[i][0]!r} is held as a {('loss', 'win')[word_value == 0]}; the rules"
        assert any(e.startswith(said) for e in verdict.problems["outcome"]), verdict.problems


def test_a_missing_position_is_named(packs: dict[str, Path]) -> None:
    header, found = records(packs["superduper/3/misere"])
    i = pick(found, inner)
    gone = found.pop(i)[0]
    verdict = rewritten(packs["superduper/3/misere"], header, found)
    assert list(verdict.counts) == ["missing position"], verdict.problems
    assert verdict.problems["missing position"] == [f"{gone!r} is a position of the rules"]


def test_an_extra_position_is_named(packs: dict[str, Path]) -> None:
    header, found = records(packs["ghost/3"])
    found.append(("cx", True, 3, 3, None, None, None))
    verdict = rewritten(packs["ghost/3"], header, found)
    assert "extra position" in verdict.counts, verdict.problems
    assert verdict.problems["extra position"] == ["'cx' is no position of the rules"]


def test_a_flipped_reachable_flag_is_named(packs: dict[str, Path]) -> None:
    for key in ("ghost/3", "chopsticks/5"):  # without cycles, and with
        header, found = records(packs[key])
        i = pick(found, lambda r: inner(r) and r[1])
        found[i] = changed(found[i], reachable=False)
        verdict = rewritten(packs[key], header, found)
        assert "reachable" in verdict.counts, (key, verdict.problems)
        assert any(repr(found[i][0]) in e for e in verdict.problems["reachable"])


def test_a_longer_game_is_found_in_a_game_with_cycles(packs: dict[str, Path]) -> None:
    header, found = records(packs["chopsticks/5"])
    i = pick(found, lambda r: inner(r) and r[2] != 1)  # a win or a loss, not a draw
    found[i] = changed(found[i], length=found[i][3] + 2)
    verdict = rewritten(packs["chopsticks/5"], header, found)
    assert "game length" in verdict.counts, verdict.problems
    assert any(repr(found[i][0]) in e for e in verdict.problems["game length"])


def test_a_label_the_rules_do_not_give_is_named(packs: dict[str, Path]) -> None:
    header, found = records(packs["ghost/3"])
    i = pick(found, inner)
    found[i] = changed(found[i], label="zz")
    verdict = rewritten(packs["ghost/3"], header, found)
    assert list(verdict.counts) == ["label"], verdict.problems
    assert repr(found[i][0]) in verdict.problems["label"][0]


def test_anagram_ghost_is_checked_a_position_at_a_time(packs: dict[str, Path]) -> None:
    """Anagram Ghost's keys are sorted letters, not its words: its moves are the game's
    candidates, a position at a time, and a flipped outcome is found there too."""
    header, found = records(packs["anagram/3"])
    i = pick(found, inner)
    found[i] = changed(found[i], outcome=0 if found[i][2] == 3 else 3)
    verdict = rewritten(packs["anagram/3"], header, found)
    assert "outcome" in verdict.counts, verdict.problems
    assert any(f"{found[i][0]!r} is held as" in e for e in verdict.problems["outcome"])


@pytest.mark.parametrize("batch", [True, False], ids=["all-at-once", "a-position-at-a-time"])
def test_anagram_ghost_is_checked_from_its_moves_among_the_held_positions(
    packs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, batch: bool
) -> None:
    """The moves found all at once (`Game.moves_among`) and a position at a time find the
    same: every position checked in a whole pack, and a missing position's parent."""
    from ghostdb.games.ghost import GhostGame

    if not batch:
        monkeypatch.setattr(GhostGame, "moves_among", lambda self, keys: None)
    with open_pack(packs["anagram/3"]) as pack:
        clean = verify_pack(pack)
    assert clean.ok and 0 < clean.checked < clean.positions, clean.problems
    header, found = records(packs["anagram/3"])
    i = pick(found, lambda r: r[3] == 1)  # a position one move from the end: its child goes
    key = found[i][0]
    gone = [r for r in found if r[3] == 0 and len(r[0]) == len(key) + 1 and _within(key, r[0])]
    assert gone
    kept = [r for r in found if r not in gone]
    verdict = rewritten(packs["anagram/3"], header, kept)
    assert verdict.counts.get("moves") or verdict.counts.get("outcome"), verdict.problems
    said = " ".join(verdict.problems.get("moves", []) + verdict.problems.get("outcome", []))
    assert repr(key) in said


def _within(key: str, longer: str) -> bool:
    """Whether the letters of ``key`` are among those of ``longer`` (as multisets)."""
    from collections import Counter

    return not Counter(key) - Counter(longer)


def test_the_moves_among_anagram_positions_are_the_candidates_among_them() -> None:
    """`moves_among` against `candidates` over random sets of sorted keys, with letters
    of more than one byte and repeated letters, and with ASCII letters alone (a byte a
    letter)."""
    import random

    import numpy as np

    from ghostdb.games.registry import game_of, parse_rules

    rng = random.Random(7)
    for trial in range(80):
        letters = "abząż" if trial % 2 else "abcz"
        game = game_of(parse_rules("anagram/3"), letters)
        size = rng.randint(0, 60)
        keys = sorted(
            {"".join(sorted(rng.choices(letters, k=rng.randint(0, 6)))) for _ in range(size)},
            key=str.encode,
        )
        index = {k: row for row, k in enumerate(keys)}
        expected = {
            (row, index[child])
            for row, k in enumerate(keys)
            for _, child in game.candidates(k)
            if child != k and child in index
        }
        width = max(1, 2 * max(map(len, keys), default=0))  # (a letter takes one byte or two)
        packed = np.array([k.encode() for k in keys], dtype=f"S{width}")
        parent, child = game.moves_among(packed)
        pairs = list(zip(parent.tolist(), child.tolist(), strict=True))
        assert len(pairs) == len(set(pairs)) and set(pairs) == expected, trial


def test_a_pack_with_no_final_position_says_its_moves_cannot_be_made(
    packs: dict[str, Path],
) -> None:
    header, found = records(packs["ghost/3"])
    found = [changed(r, length=1) if r[3] == 0 else r for r in found]
    verdict = rewritten(packs["ghost/3"], header, found)
    assert list(verdict.counts) == ["moves"], verdict.problems
    assert "cannot be made" in verdict.problems["moves"][0]


def test_a_key_with_a_nul_is_checked_in_order_a_position_at_a_time(
    packs: dict[str, Path],
) -> None:
    """Fixed-width bytes drop a NUL at a key's end: a pack whose key holds one is put in
    order and checked from the game's candidates as the keys themselves say."""
    header, found = records(packs["ghost/3"])
    found.append(("ca\x00", True, 3, 1, None, None, None))
    verdict = rewritten(packs["ghost/3"], header, found)
    assert list(verdict.counts) == ["moves"] and verdict.checked > 0, verdict.problems
    assert verdict.problems["moves"] == [
        "'ca\\x00' is not final, yet no position one move on is held"
    ]


def test_the_whole_read_is_every_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`read_whole` against the records a block at a time: keys of one and two bytes a
    letter, a key longer than a byte can say (read in Python), one with a NUL at its end,
    labels in some blocks, blocks read two at a time."""
    from ghostdb.pack import whole, writer

    monkeypatch.setattr(writer, "BLOCK", 16)
    monkeypatch.setattr(whole, "CHUNK", 2)
    keys = sorted(
        {"", "a", "ab", "abé", "b" * 200, "b" * 201 + "c", "ba\x00", "é", "éé", "z"}
        | {f"k{i:03}" for i in range(90)},
        key=str.encode,
    )
    found = [
        (k, i % 3 == 0, i % 4, None if i % 5 == 0 else i, None, 5 if i % 7 == 0 else None,
         f"l{i}" if 40 <= i < 50 else None)
        for i, k in enumerate(keys)
    ]  # fmt: skip
    header = {"game": "ghost", "name": "x", "rules": "ghost/3", "alphabet": "abcékz"}
    header |= {"positions": len(found), "reachable": sum(r[1] for r in found)}
    write_pack(tmp_path / "x.ghostpack", header, found)
    with open_pack(tmp_path / "x.ghostpack") as pack:
        read = whole.read_whole(pack)
        assert verify_pack(pack, moves=False).ok
    assert [read.key(row) for row in range(len(keys))] == keys
    assert read.nul
    assert read.reachable.tolist() == [r[1] for r in found]
    assert read.outcome.tolist() == [r[2] for r in found]
    assert read.length.tolist() == [-1 if r[3] is None else r[3] for r in found]
    assert read.safe.tolist() == [0xFFFF if r[5] is None else r[5] for r in found]
    assert read.labels == [r[6] for r in found]
    assert [read.block(row) for row in (0, 15, 16, len(keys) - 1)] == [0, 0, 1, len(keys) // 16]


def test_keys_out_of_order_are_named_within_a_block_and_across_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that put keys out of order (its own checks bypassed here, every key
    written whole) makes a pack whose order check names them: within a block, and a
    block's first key below the last of the block before (read apart)."""
    from ghostdb.pack import format, whole, writer

    monkeypatch.setattr(writer, "BLOCK", 4)
    monkeypatch.setattr(whole, "CHUNK", 1)
    monkeypatch.setattr(format, "_shared_before", lambda keys, lengths: 0 * lengths)
    monkeypatch.setattr(writer, "_cut", lambda parts: _uncut(writer, parts))
    keys = ["a", "c", "b", "d", "cc", "e", "f", "g", "h"]
    found = [(k, True, 3, 1, None, None, None) for k in keys]
    header = {"game": "ghost", "name": "x", "rules": "ghost/3", "alphabet": "abcdefgh"}
    header |= {"positions": len(found), "reachable": len(found)}
    write_pack(tmp_path / "x.ghostpack", header, found)
    with open_pack(tmp_path / "x.ghostpack") as pack:
        verdict = verify_pack(pack)
    assert verdict.problems == {
        "order": ["block 0: 'b' is out of key order", "block 1: 'cc' is out of key order"]
    }


def _uncut(writer: Any, parts: Any) -> Iterator[Any]:
    for piece in writer._pieces(parts):
        yield piece, writer.block_records(piece, writer.BLOCK)
