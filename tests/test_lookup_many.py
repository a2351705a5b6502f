"""`Solution.lookup_many`: many positions in one read snapshot, each answered as `lookup`
answers it (None where `get` gives None), on every game and every Ghost variant."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, write_list

from ghostdb import Rules, Store, open_store
from ghostdb.errors import BadFragment
from ghostdb.games.ghost.rules import STANDARD_VARIANTS
from ghostdb.games.registry import GAMES
from ghostdb.store.answers import lookups
from ghostdb.store.answers.solution import Solution


def reachable_keys(solution: Solution, depth: int) -> list[str]:
    """The start and every position up to ``depth`` moves from it, found through `lookup`."""
    level = [solution.lookup()]
    keys = [level[0].fragment]
    for _ in range(depth):
        level = [solution.lookup(p.fragment) for pos in level for p in pos.plays]
        keys += [pos.fragment for pos in level]
    return keys


def test_every_game_reads_as_lookup(store: Store) -> None:
    """Every registered game at its default rules (Ghost over a small list)."""
    store.ingest(write_list(store_dir(store), "cat cow dog door dot toad", "tiny"))
    for game in GAMES:
        name = "tiny" if game.word_game else game.name
        store.solve(name)
        solution = store.solution(name)
        keys = reachable_keys(solution, 3)
        random.Random(0).shuffle(keys)
        assert solution.lookup_many(keys) == [solution.lookup(k) for k in keys], game.name


def test_ghost_variants_read_as_get(store: Store) -> None:
    """Stored and unstored fragments alike, under every variant, misère too: plain Ghost
    reads its batches with one statement, the others a position at a time."""
    store.ingest(OWN_WORDLISTS / "five.txt")
    words = store.words("five", 1)
    asked = [*sorted({w[:k] for w in words for k in range(len(w) + 1)}), "zq", "qqqq"]
    for variant in STANDARD_VARIANTS:
        for misere in (False, True):
            rules = Rules(variant, 3, misere)
            store.solve("five", rules)
            solution = store.solution("five", rules)
            found = solution.lookup_many(asked)
            assert found == [solution.get(k) for k in asked], rules.key
            assert None in found and any(found)


def test_more_keys_than_a_statement_takes(
    solved_enable1: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys spread over several statements come back in the order asked, repeats too."""
    monkeypatch.setattr(lookups, "BATCH_KEYS", 7)
    solution = solved_enable1.solution("enable1")
    rng = random.Random(1)
    words = solved_enable1.words("enable1", 3)
    asked = [w[: rng.randint(0, len(w))] for w in rng.sample(words, 40)]
    asked += ["gho", "gho", "xq", "zzzz", ""]
    assert solution.lookup_many(asked) == [solution.get(k) for k in asked]
    assert solution.lookup_many([]) == []


def test_letters_beyond_ascii(store: Store, tmp_path: Path) -> None:
    """Accented letters and letters beyond the Basic Multilingual Plane travel in the
    statement's JSON as themselves."""
    words = "zoë zoo zoa żal ząb zaa zab zebra zeal zee zéro zé𝒜a 𝒜𝒜𝒜 ñam nam nbm"
    store.ingest(write_list(tmp_path, words, "letters"))
    store.solve("letters", Rules())
    solution = store.solution("letters")
    asked = [*sorted({w[:k] for w in words.split() for k in range(len(w) + 1)}), "żą"]
    assert solution.lookup_many(asked) == [solution.get(k) for k in asked]


def test_a_handle_finds_a_solution_published_since(db_path: Path, tmp_path: Path) -> None:
    """A handle whose solution was replaced by another process's solve reads the new one
    (its old rows are gone: every read finds nothing, and the handle looks again)."""
    path = write_list(tmp_path, "cat cow dog door dot toad", "tiny")
    with open_store(str(db_path), create=True) as mine:
        mine.ingest(path)
        mine.solve("tiny")
        solution = mine.solution("tiny")
        old = solution.id
        with open_store(str(db_path)) as other:
            other.solve("tiny", force=True)
        found = solution.lookup_many(["", "c", "do"])
        assert solution.id != old
        assert found == [solution.lookup(k) for k in ("", "c", "do")]


def test_a_bad_position_raises(store: Store) -> None:
    store.ingest(OWN_WORDLISTS / "five.txt")
    store.solve("five")
    with pytest.raises(BadFragment):
        store.solution("five").lookup_many(["ab", "a1"])


def test_a_failed_read_ends_its_snapshot_and_restarts_the_collector(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.ingest(OWN_WORDLISTS / "five.txt")
    store.solve("five")
    solution = store.solution("five")
    asked = ["", solution.lookup().plays[0].fragment]
    expected = solution.lookup_many(asked)
    assert None not in expected

    def broken(*args: object) -> None:
        raise RuntimeError("broken")

    with monkeypatch.context() as patch:
        patch.setattr(lookups, "_extended_position", broken)
        with pytest.raises(RuntimeError):
            solution.lookup_many(asked)
    assert gc.isenabled()
    assert not solution.lookups.dbapi().in_transaction
    assert solution.lookup_many(asked) == expected


def store_dir(store: Store) -> Path:
    """The folder of a SQLite store's file."""
    return Path(str(store.engine.url.database)).parent
