"""Analysis of a played game (`ghostdb analyse`, `/api/NAME/analyse`), checked against
code that shares nothing with it: the brute-force Ghost solver of tests/brute.py on random
small word lists (every Ghost variant it plays), and a minimax of tic-tac-toe written
here.  Every registered game's played record (as `play` prints it) round-trips into
`analyse`, and each verdict is held to the stored values by this file's own reading of
them.  The page's record round-trips in tests/test_browser.py.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from brute import brute_force
from conftest import run, write_list
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghostdb import Rules, open_store
from ghostdb.errors import BadMove
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import GAMES, game_of
from ghostdb.games.tictactoe import LINES

VARIANTS = [Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER]
RANK = {"win": 0, "tie": 1, "draw": 2, "loss": 3}


def expected(before: tuple[bool, int], after: tuple[bool, int] | None) -> tuple[str, str, str]:
    """(value before, value after, verdict) for the mover, from a brute-force value of
    the position (mover wins?, moves left) and of the one the move made (None: a letter
    no word continues)."""
    value_before = "win" if before[0] else "loss"
    if after is None:
        return value_before, "loss", "good" if value_before == "loss" else "blunder"
    value_after = "loss" if after[0] else "win"  # the next mover's win is the mover's loss
    if value_after != value_before:
        return value_before, value_after, "blunder" if value_after == "loss" else "best"
    return value_before, value_after, "best" if after[1] == before[1] - 1 else "good"


words_strategy = st.lists(
    st.text(alphabet="abcd", min_size=3, max_size=6), min_size=1, max_size=12, unique=True
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(words=words_strategy, variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_verdicts_agree_with_brute_force(
    tmp_path_factory: pytest.TempPathFactory, words: list[str], variant: Variant, seed: int
) -> None:
    rules = Rules(variant=variant, min_length=3)
    brute = brute_force(words, rules)
    path = tmp_path_factory.mktemp("analysis") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(write_list(path.parent, " ".join(words), "small"))
        store.solve("small", rules)
        rng = random.Random(seed)
        fragment, moves, checks = "", [], []
        game = game_of(rules, "abcd")
        while True:
            children = brute.plays(fragment)
            if not children:
                break
            dead = [c for _, c in game.candidates(fragment) if not brute.is_fragment(c)]
            child = rng.choice(dead) if dead and rng.random() < 0.1 else rng.choice(children)
            moves.append(child)  # typed as the fragment it makes: analyse takes either
            after = brute.value(child) if child in children else None
            checks.append(expected(brute.value(fragment), after))
            if after is None:
                break
            fragment = child
        if not moves:
            return
        found = store.solution("small", rules).analyse(moves).as_dict()
    assert [(m["value_before"], m["value_after"], m["verdict"]) for m in found["moves"]] == checks
    for m, (before, _, _) in zip(found["moves"], checks, strict=True):
        assert m["length_before"] == brute.value(m["before"])[1]
        if m["verdict"] == "blunder":
            assert m["note"].startswith(f"after {game.label(m['before'])}, {m['move']!r} loses")
        # The best moves instead: every play that keeps the value and the length.
        keeps = [
            c
            for c in brute.plays(m["before"])
            if expected(brute.value(m["before"]), brute.value(c))[2] == "best"
            and (brute.value(c)[0] != (before == "win"))
        ]
        assert sorted(game.describe_move(m["before"], c) for c in keeps) == sorted(m["best"])


# -- tic-tac-toe against a minimax written here ------------------------------------------------


@cache
def minimax(board: str) -> tuple[int, int]:
    """(value for the mover: 1 win, 0 tie, -1 loss; moves left with best play)."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return -1, 0  # the last mover completed a line
    if "." not in board:
        return 0, 0
    mark = "xo"[(9 - board.count(".")) % 2]
    results = []
    for i, cell in enumerate(board):
        if cell == ".":
            value, left = minimax(board[:i] + mark + board[i + 1 :])
            results.append((-value, left + 1))
    best = max(v for v, _ in results)
    lengths = [n for v, n in results if v == best]
    return best, max(lengths) if best < 0 else min(lengths)


@pytest.fixture(scope="module")
def every_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analysis-every") / "ghost.db"
    words = write_list(path.parent, "cat cow dog door dot toad", "tiny")
    assert run("ingest", str(words), db=path)[0] == 0
    for game in GAMES:
        assert run("solve", "tiny" if game.word_game else game.name, db=path)[0] == 0
    return path


def test_tictactoe_verdicts_agree_with_a_minimax(every_db: Path) -> None:
    names = {1: "win", 0: "tie", -1: "loss"}
    rng = random.Random(2)
    with open_store(str(every_db), create=False) as store:
        for _ in range(30):
            board, moves, checks = ".........", [], []
            while minimax(board)[1] and "." in board:
                i = rng.choice([i for i, c in enumerate(board) if c == "."])
                child = board[:i] + "xo"[(9 - board.count(".")) % 2] + board[i + 1 :]
                (v0, n0), (v1, n1) = minimax(board), minimax(child)
                before, after = names[v0], names[-v1]
                if after != before:
                    verdict = "blunder" if after == "loss" else "mistake"
                else:
                    verdict = "best" if n1 == n0 - 1 else "good"
                moves.append(str(i + 1))
                checks.append((before, after, verdict, n0, n1))
                board = child
            found = store.solution("tictactoe").analyse(moves).as_dict()
            assert [
                (
                    m["value_before"],
                    m["value_after"],
                    m["verdict"],
                    m["length_before"],
                    m["length_after"],
                )
                for m in found["moves"]
            ] == checks
            decisive = next(
                (i + 1 for i, c in enumerate(checks) if c[2] in ("mistake", "blunder")), None
            )
            assert found["decisive"] == decisive


# -- every game: the record `play` prints, analysed ------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_record_play_prints_round_trips_into_analyse(
    game: type, seed: int, every_db: Path
) -> None:
    """A game played through a pipe (a random human against the computer); the ``moves:``
    line it ends with, given to `analyse --json`, judged as the stored values say."""
    name = "tiny" if game.word_game else game.name
    with open_store(str(every_db), create=False) as store:
        match = store.solution(name).new_game("human,computer", seed=seed)
        rng = random.Random(seed)
        typed = []
        while match.result is None:
            if match.seat() == "human":
                typed.append(rng.choice(match.plays()).move)
                match.play(typed[-1])
            else:
                match.computer_move()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "ghostdb",
                "play",
                name,
                "--players",
                "human,computer",
                "--seed",
                str(seed),
                "--db",
                str(every_db),
            ],
            input="\n".join(typed) + "\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        record = next(x for x in proc.stdout.splitlines() if x.startswith("moves: "))[7:]
        code, out, err = run("analyse", name, *record.split(), "--json", db=every_db)
        assert code == 0, err
        found = json.loads(out)
        assert [m["move"] for m in found["moves"]] == record.split()
        for m in found["moves"]:
            pos = store.solution(name).lookup(m["before"])
            play = next(p for p in pos.plays if p.fragment == m["after"])
            mover = 1 if pos.to_move is None else None  # the key may not say whose turn
            assert m["value_before"] == pos.outcome.value, (m, mover)
            assert m["value_after"] == play.category
            kept = play.category == pos.outcome.value
            fastest = pos.game_length is None or play.game_length == pos.game_length - 1
            want = (
                ("best" if fastest else "good")
                if kept
                else ("blunder" if play.category == "loss" else "mistake")
            )
            assert m["verdict"] == want, m
        computer = [m for m in found["moves"] if m["player"] == 1]
        assert all(m["verdict"] in ("best", "good") for m in computer)  # optimal never errs


def test_text_and_bad_records(every_db: Path) -> None:
    code, out, err = run("analyse", "tiny", "d", "o", "g", db=every_db)
    assert code == 0, err
    assert "verdict" in out and "moves that kept the value" in out
    code, out, err = run("analyse", "tiny", "d", "o,o", "r", db=every_db)
    assert code == 0 and "4 moves" in out  # commas separate too
    for moves, named in (
        (["d", "9"], "move 2 ('9')"),
        (["tictac"], "move 1 ('tictac')"),
        (["c", "a", "t", "s"], "move 4 ('s'): the game was already over"),
    ):
        code, out, err = run("analyse", "tiny", *moves, db=every_db)
        assert code == 1 and err.count("\n") == 1 and named in err, err
    code, _, err = run("analyse", "tictactoe", "5", "5", db=every_db)
    assert code == 1 and "move 2 ('5')" in err and "taken" in err


def test_a_record_too_long_is_refused(every_db: Path) -> None:
    with open_store(str(every_db), create=False) as store, pytest.raises(BadMove):
        store.solution("chopsticks").analyse(["1>1"] * 201)
