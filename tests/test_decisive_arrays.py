"""Decisive words from arrays: plain Ghost's fragments read as fixed-width keys
(`ghostdb.games.ghost.fragments.Fragments`) give the answers the strings gave, whatever
the alphabet's size and however the rows are read; and a solution too large for the
memory at hand is refused in one line before anything is read or written."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from brute import brute_force
from conftest import OWN_WORDLISTS, dump, run

from ghostdb import memory, open_store
from ghostdb.games.ghost.decisive.plain import LOSS, WIN, Decider, Fragments
from ghostdb.games.ghost.rules import Rules
from ghostdb.store.answers import decisive


def values_of(words: list[str], rules: Rules) -> dict[str, str]:
    brute = brute_force(words, rules)
    fragments = {w[:k] for w in words for k in range(len(w) + 1)}
    return {f: WIN if brute.value(f)[0] else LOSS for f in fragments}


def test_keys_of_two_bytes_a_letter_past_253_letters() -> None:
    """Three hundred letters: each takes two bytes, and lookups, runs and decoding agree
    with the strings."""
    rng = random.Random(7)
    letters = [chr(0x4E00 + i) for i in range(300)]
    words = sorted(
        {"".join(rng.choice(letters) for _ in range(rng.randint(3, 5))) for _ in range(400)}
    )
    words += [c + c + c for c in letters if not any(c in w for w in words)]
    values = {w[:k]: rng.choice((WIN, LOSS)) for w in words for k in range(len(w) + 1)}
    found = Fragments.of(values, words)
    assert found.width == 2 and len(found.alphabet) == 300
    assert sorted(found) == sorted(values)
    assert all(found[f] == v for f, v in values.items())
    assert found.words_under("") == sorted(words)
    start = words[10][:1]
    assert found.words_under(start) == sorted(w for w in words if w.startswith(start))
    assert "x" not in found and found.get(letters[0] * 9) is None


@pytest.mark.parametrize("seed", range(20))
def test_keys_of_two_bytes_decide_as_keys_of_one(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every answer from keys of two bytes a letter (as past 253 letters) is the answer
    from keys of one, on random lists (those of tests/test_decisive.py)."""
    from test_decisive import random_case

    from ghostdb.games.ghost import fragments as module

    words, pool, rules = random_case(seed)
    game = [w for w in words if len(w) >= rules.min_length]
    pool = [w for w in pool if len(w) >= rules.min_length]
    values = values_of(game, rules)
    one = Decider(game, values, rules.misere)
    monkeypatch.setattr(module, "_width", lambda alphabet: 2)
    two = Decider(game, values, rules.misere)
    assert (one.fragments.width, two.fragments.width) == (1, 2)
    for position in sorted(values)[:5]:
        assert two.single_deletions(position) == one.single_deletions(position)
        assert two.single_additions(position, pool) == one.single_additions(position, pool)
        assert two.fewest(position, pool, game[::3]) == one.fewest(position, pool, game[::3])


def test_pieces_read_as_one_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fragments and words read a few rows a piece give the arrays one read gives."""
    db = tmp_path / "ghost.db"
    with open_store(str(db), create=True) as store:
        store.ingest(OWN_WORDLISTS / "deutsch.txt")
        store.solve("deutsch")
        solution = store.solution("deutsch", Rules())
        whole = decisive._decider(solution).fragments
        monkeypatch.setattr(decisive, "PIECE", 7)
        pieces = decisive._decider(solution).fragments
    assert len(whole) == len(pieces) > 7
    for a, b in zip(whole.keys, pieces.keys, strict=True):
        assert (a == b).all()
    for name in ("won", "word", "parent", "children", "losing", "under"):
        assert (getattr(whole, name) == getattr(pieces, name)).all(), name


@pytest.mark.parametrize("rules", [(), ("--rules", "superduper")])
def test_a_solution_too_large_for_the_memory_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: tuple[str, ...]
) -> None:
    """Decisive words whose arrays (or dicts) would not fit are refused before anything
    is read: one line, exit status 1, the database unchanged; with room they are worked
    out."""
    db = tmp_path / "ghost.db"
    assert run("ingest", str(OWN_WORDLISTS / "five.txt"), db=db)[0] == 0
    assert run("solve", "five", *rules, db=db)[0] == 0
    before = dump(db)
    monkeypatch.setattr(memory, "available", lambda: [(1000, "available memory", 240)])
    code, out, err = run("decisive", "five", *rules, db=db)
    assert code == 1 and out == ""
    assert err.startswith("error: working out the decisive words of five") and err.count("\n") == 1
    assert "available memory leaves 0.0 GB" in err and "nothing was changed" in err
    assert dump(db) == before
    monkeypatch.setattr(memory, "available", lambda: [(10**12, "available memory", 240)])
    assert run("decisive", "five", *rules, db=db)[0] == 0
    assert dump(db) != before  # kept


def test_the_check_counts_the_address_space_at_its_own_figure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, address = memory.DECISIVE_PER_FRAGMENT[True]
    room = [(10**12, "available memory", 240), (1000 * address, memory.ADDRESS_SPACE, 280)]
    monkeypatch.setattr(memory, "available", lambda: room)
    memory.check_decisive(1000, True, "five", "ghost/3")
    with pytest.raises(memory.TooBig, match=r"about 1,001 fragments at \d+ bytes each"):
        memory.check_decisive(1001, True, "five", "ghost/3")
    monkeypatch.setenv(memory.SKIP_ENV, "0")
    memory.check_decisive(10**12, True, "five", "ghost/3")
