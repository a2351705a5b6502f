"""Puzzles (`ghostdb puzzle`, `/api/NAME/puzzle`): positions a game reaches where the
player to move has exactly one winning move, kept when a solution is published.

Every kept puzzle of ENABLE (words of 3+ and 4+) is held to its lookup; on random small
lists the kept set is exactly the one the brute-force solver of tests/brute.py finds;
`verify` checks them and finds one that is not a puzzle; the console plays one through a
pipe and a pseudo-terminal.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
import wordfreq
from brute import brute_force
from conftest import copy_db, run, write_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostdb import Rules, Store, open_store
from ghostdb.games.ghost.rules import Variant
from ghostdb.solvers.puzzles import DIFFICULTIES, KEPT, difficulty
from ghostdb.store.answers.puzzles import counts, kept_puzzles, line_end


@pytest.mark.parametrize("length", [3, 4])
def test_every_kept_enable_puzzle_has_exactly_one_winning_move(
    solved_enable1: Store, length: int
) -> None:
    solution = solved_enable1.solution("enable1", Rules(min_length=length))
    body = kept_puzzles(solution)
    assert 0 < len(body["puzzles"]) == min(body["count"], KEPT)
    keys = [p[0] for p in body["puzzles"]]
    for (key, moves_left, others, level), pos in zip(
        body["puzzles"], solution.lookup_many(keys), strict=True
    ):
        assert pos is not None and pos.reachable and not pos.is_final
        assert pos.outcome.value == "win" and pos.game_length == moves_left
        assert [p.wins for p in pos.plays].count(True) == 1, key
        assert len(pos.plays) - 1 == others >= 1
        answer = next(p for p in pos.plays if p.wins)
        word = line_end(solution, answer)  # what the page shows as the deciding word
        assert word is not None and word.startswith(key), key
        assert level == difficulty(moves_left, others, wordfreq.zipf_frequency(word, "en"))
    found = counts(solution)
    assert sum(found.values()) == len(body["puzzles"]) and set(found) == set(DIFFICULTIES)


def test_the_manuals_puzzle_counts_are_enables(solved_enable1: Store) -> None:
    readme = (Path(__file__).parent.parent / "docs" / "guide" / "play.md").read_text()
    for length in (3, 4):
        solution = solved_enable1.solution("enable1", Rules(min_length=length))
        found = counts(solution)
        row = (
            f"| Ghost, words of {length}+ | {kept_puzzles(solution)['count']:,} | "
            + " | ".join(f"{found[level]:,}" for level in DIFFICULTIES)
            + " |"
        )
        assert row in readme


@pytest.mark.parametrize(("variant", "language"), [(Variant.ANAGRAM, "en"), (Variant.GHOST, "tlh")])
def test_without_words_to_weigh_the_difficulty_is_the_lines(
    tmp_path: Path, variant: Variant, language: str
) -> None:
    """Anagram's final keys are sorted letters, not words; wordfreq ranks no Klingon:
    either way a puzzle's difficulty is its line's alone."""
    rules = Rules(variant=variant, min_length=3)
    words = "cart care cast cat tact tax taxi tear tent test text trace react"
    with open_store(str(tmp_path / "g.db"), create=True) as store:
        store.ingest(write_list(tmp_path, words, "small"), language=language)
        store.solve("small", rules)
        body = kept_puzzles(store.solution("small", rules))
    assert body["puzzles"]
    assert all(level == difficulty(n, others) for _, n, others, level in body["puzzles"])


def test_a_deciding_words_frequency_moves_the_difficulty_one_step() -> None:
    assert [difficulty(n, 1) for n in (1, 3, 4, 6, 7)] == ["easy"] * 2 + ["medium"] * 2 + ["hard"]
    assert difficulty(5, 8) == "hard" and difficulty(5, 7) == "medium"
    # rare (or unknown to wordfreq): one harder; common: one easier; never past the ends
    assert [difficulty(3, 1, z) for z in (0.0, 0.99, 1.0, 2.99, 3.0)] == [
        "medium",
        "medium",
        "easy",
        "easy",
        "easy",
    ]
    assert [difficulty(5, 1, z) for z in (0.0, 2.0, 5.0)] == ["hard", "medium", "easy"]
    assert difficulty(9, 1, 0.0) == "hard" and difficulty(9, 1, 6.0) == "medium"


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    words=st.lists(st.text(alphabet="abcd", min_size=3, max_size=6), min_size=1, max_size=12),
    variant=st.sampled_from([Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER]),
)
def test_the_kept_puzzles_are_the_brute_force_ones(
    tmp_path_factory: pytest.TempPathFactory, words: list[str], variant: Variant
) -> None:
    rules = Rules(variant=variant, min_length=3)
    brute = brute_force(words, rules)
    reachable, frontier = {""}, [""]
    while frontier:  # fragments a game reaches: no earlier one was a word
        f = frontier.pop()
        for child in brute.plays(f):
            if child not in reachable:
                reachable.add(child)
                frontier.append(child)
    expected = set()
    for f in reachable:
        children = brute.plays(f)
        winning = [c for c in children if not brute.value(c)[0]]
        if len(winning) == 1 and len(children) >= 2:
            expected.add(f)
    path = tmp_path_factory.mktemp("puzzles") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(write_list(path.parent, " ".join(words), "small"))
        store.solve("small", rules)
        body = kept_puzzles(store.solution("small", rules))
    assert {p[0] for p in body["puzzles"]} == expected
    assert body["count"] == len(expected)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("puzzle-cli") / "ghost.db"
    words = write_list(path.parent, "cat cow dog door dot toad tide tidal", "tiny")
    assert run("ingest", str(words), db=path)[0] == 0
    for name in ("tiny", "tictactoe", "chopsticks"):
        assert run("solve", name, db=path)[0] == 0
    return path


@pytest.mark.parametrize("name", ["tiny", "tictactoe", "chopsticks"])
def test_a_puzzle_through_a_pipe(db: Path, name: str) -> None:
    code, out, err = run("puzzle", name, "--seed", "4", "--json", db=db)
    assert code == 0, err
    found = json.loads(out)
    assert found["answer"] in found["moves"] and len(found["moves"]) == found["other_moves"] + 1
    wrong = next(m for m in found["moves"] if m != found["answer"])
    for typed, said in ((found["answer"], "right: "), (wrong, "no: ")):
        proc = subprocess.run(
            [sys.executable, "-m", "ghostdb", "puzzle", name, "--seed", "4", "--db", str(db)],
            input=f"?!\n{typed}\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0 and not proc.stderr, proc.stderr
        assert "exactly one move wins" in proc.stdout
        last = proc.stdout.splitlines()[-1]
        assert last.startswith(said) and found["answer"] in last
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", "puzzle", name, "--seed", "4", "--db", str(db)],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and f"the winning move: {found['answer']}" in proc.stdout


def test_a_puzzle_in_a_terminal(db: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    _, out, _ = run("puzzle", "tictactoe", "--seed", "1", "--json", db=db)
    answer = json.loads(out)["answer"]
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ghostdb", "puzzle", "tictactoe", "--seed", "1", "--db", str(db)],
        env=env,
        encoding="utf-8",
        timeout=30,
    )
    child.expect("your move> ")
    child.sendline(answer)
    child.expect(f"right: {answer} wins")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_requests_and_a_difficulty(db: Path) -> None:
    code, _, err = run("puzzle", "tiny", "--difficulty", "nasty", db=db)
    assert code == 1 and err.count("\n") == 1 and "easy, medium, hard" in err
    with open_store(str(db), create=False) as store:
        there = counts(store.solution("tictactoe"))
    assert there["easy"] > 0
    for level in DIFFICULTIES:
        code, out, err = run("puzzle", "tictactoe", "--difficulty", level, "--json", db=db)
        if there[level]:
            assert code == 0 and json.loads(out)["difficulty"] == level, err
        else:  # none of that difficulty: said in one line
            assert code == 1 and f"has no {level} puzzles" in err


def test_verify_checks_every_kept_puzzle(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    copy_db(db, copy)
    assert run("verify", "tictactoe", db=copy)[0] == 0
    with sqlite3.connect(copy) as conn:
        (body,) = conn.execute(  # tic-tac-toe's: the only puzzles with an x
            "SELECT body FROM kept_answers WHERE question = 'puzzles' AND body LIKE '%x%'"
        ).fetchone()
        found = json.loads(body)
        found["puzzles"].append([".........", 9, 8, "hard"])  # the start is a tie, no puzzle
        conn.execute("UPDATE kept_answers SET body = ? WHERE body = ?", (json.dumps(found), body))
    code, out, err = run("verify", "tictactoe", db=copy)
    assert code != 0 and "'.........' is not one" in out + err
