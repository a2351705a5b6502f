"""Games against the stored solution: the engine, the computer strategies, the console
(through a real pseudo-terminal and through a pipe), self-play and replays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest
from conftest import dump, run, write_list

from ghostdb import Rules, Store, open_store
from ghostdb.errors import BadMove
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import GAMES, game_of
from ghostdb.play.engine import choose


@pytest.fixture
def five_store(five: Path) -> Store:
    with open_store(str(five)) as store:
        yield store


def spawn(*args: str, db: Path) -> pexpect.spawn:
    env = {**os.environ, "GHOSTDB_URL": str(db), "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(
        sys.executable, ["-m", "ghostdb", *args], env=env, encoding="utf-8", timeout=20
    )


# -- the console, through a pseudo-terminal ----------------------------------------------------


def test_console_game_in_a_terminal(five: Path) -> None:
    child = spawn("play", "five", "--seed", "1", db=five)
    child.expect_exact("player 0 (human), player 1 (optimal)")
    child.expect_exact("player 0> ")
    child.sendline("7")  # not a letter: a one-line hint, then the same prompt
    child.expect_exact("'7' is not a move: type one letter; ? lists every legal move")
    child.expect_exact("player 0> ")
    child.sendline("gh")  # two letters: also re-prompted
    child.expect_exact("'gh' is not a move")
    child.expect_exact("player 0> ")
    child.sendline("t")
    # Player 1 wins after t only with a (tan); optimal plays a winning move.
    child.expect_exact("player 1 (optimal) plays a: ta")
    child.expect_exact("player 0> ")
    child.sendline("?")
    # On a terminal the value is coloured (see tests/test_conventions.py).
    child.expect(r"n\s+tan\s+(\x1b\[\d+m)?loses(\x1b\[0m)?\s+game over \(completes a word\)")
    child.expect_exact("player 0> ")
    child.sendline("n")
    child.expect_exact("player 0 (human) loses: completed the word 'tan'; player 1 (optimal) wins")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_console_quit_and_a_dead_letter(five: Path) -> None:
    child = spawn("play", "five", "--seed", "2", db=five)
    child.expect_exact("player 0> ")
    child.sendline("quit")
    child.expect_exact("player 0 (human) quit at (start)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    child = spawn("play", "five", "--players", "computer,human", "--seed", "2", db=five)
    child.expect(r"player 0 \(optimal\) plays (\w): (\w)")
    child.expect_exact("player 1> ")
    child.sendline("z")  # in no word at all: a typo, asked again
    child.expect_exact("'z' is in no word of the dictionary (its letters: aeghinorst): a typo?")
    child.expect_exact("player 1> ")
    child.sendline("e")
    child.expect(r"player 1 \(human\) loses: no word begins with '\we'; .* would have continued")
    child.expect(pexpect.EOF)


def test_console_through_a_pipe(five: Path) -> None:
    env = {**os.environ, "GHOSTDB_URL": str(five)}
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", "play", "five", "--seed", "1"],
        input="t\n?\nn\n",
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    lines = proc.stdout.splitlines()
    # Each prompt is kept, with what was read after it; no colour codes.
    assert "player 0> t" in lines and "player 0> ?" in lines and "player 0> n" in lines
    assert "\x1b" not in proc.stdout
    assert lines[-2].startswith("player 0 (human) loses: completed the word 'tan'")
    # End of input is a quit, not a traceback.
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", "play", "five"],
        input="",
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0 and "quit at (start)" in proc.stdout and not proc.stderr


# -- the engine and the strategies -------------------------------------------------------------


def test_optimal_wins_with_every_winning_move_and_stalls_when_losing(five_store: Store) -> None:
    start = five_store.solution("five").lookup("")  # player 0 loses: g lasts 5 moves, t only 3
    assert {choose("optimal", start, _rng(s), 2, Rules()).move for s in range(30)} == {"g"}
    g = five_store.solution("five").lookup("g")  # player 1 wins with h or r
    assert {choose("optimal", g, _rng(s), 2, Rules()).move for s in range(30)} == {"h", "r"}
    assert {choose("fastest", g, _rng(s), 2, Rules()).move for s in range(30)} == {"h"}
    assert {choose("random", start, _rng(s), 2, Rules()).move for s in range(30)} == {"g", "t"}
    tr = five_store.solution("five").lookup("tr")  # player 0 wins only with e
    assert {choose("rational", tr, _rng(s), 2, Rules()).move for s in range(30)} == {"e"}


def _rng(seed: int):  # type: ignore[no-untyped-def]
    import random

    return random.Random(seed)


def test_three_players(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, "abc abd abcd", "three"))
    store.solve("three")
    game = store.solution("three").new_game("rational,rational,rational", seed=1)
    game.computer_move()
    game.computer_move()
    # At ab, player 2 could complete abc or abd; rational avoids a word: no other
    # move exists, so it must complete one and lose.
    game.computer_move()
    assert game.result is not None and game.result.kind == "word"
    assert game.result.losers == (2,) and game.result.winners == (0, 1)
    with pytest.raises(BadMove, match="two players only"):
        store.solution("three").new_game("optimal,random,random")
    report = store.solution("three").selfplay("random,random,random", games=50, seed=3)
    assert sum(report.losses) == 50 and sum(report.wins) == 100


def test_a_dead_play_is_worded_by_the_game(five_store: Store) -> None:
    """A letter no word continues loses at once, in the Ghost variant's own words; a game
    without such moves words none (the engine then asks again), so no engine code asks
    which game it plays."""
    five_store.solve("five", Rules(Variant.SUPER))
    expected = {
        (Rules(), "a"): "no word begins with 'a'; 'g' or 't' would have continued",
        (Rules(Variant.SUPER), "gt"): "no word contains 'gt'; 'gh' or 'gr' would have continued",
    }
    for (rules, moves), reason in expected.items():
        game = five_store.solution("five", rules).new_game("human,human")
        for move in moves:
            game.play(move)
        assert game.result is not None and (game.result.kind, game.result.won) == ("dead", False)
        assert game.result.reason == reason
    game = five_store.solution("five").new_game("human,human")
    with pytest.raises(BadMove, match=r"'z' is in no word of the dictionary .*: a typo\?"):
        game.play("z")  # a letter of no word at all: asked again, not lost
    assert game.result is None
    for game_type in GAMES:
        if not game_type.word_game:
            assert game_of(game_type.make_rules()).dead_play("?", []) is None


def test_seed_makes_games_repeatable(five_store: Store) -> None:
    a = five_store.solution("five").selfplay("random,random", games=40, seed=7)
    b = five_store.solution("five").selfplay("random,random", games=40, seed=7)
    assert a == b
    assert len(a.final_words) > 1  # random really varies between games


def test_one_query_per_computer_move(five_store: Store) -> None:
    statements: list[str] = []
    five_store.lookups.dbapi().set_trace_callback(statements.append)
    game = five_store.solution("five").new_game("optimal,optimal", seed=1)
    moves = 0
    while game.result is None:
        before = len(statements)
        game.computer_move()
        moves += 1
        # A move that completes a word needs no query: the play's values are known.
        assert len(statements) - before == (0 if game.result else 1)
    assert moves == 5


def test_super_moves_typed_in_notation(store: Store, tmp_path: Path) -> None:
    store.ingest(write_list(tmp_path, "acc ccaa", "acc"))
    store.solve("acc", Rules(Variant.SUPERDUPER))
    game = store.solution("acc", Rules(Variant.SUPERDUPER)).new_game("human,human")
    game.play("a")
    game.play("c+")
    with pytest.raises(BadMove, match="say where the letter goes"):
        game.play("~a")
    game.play("~a+")  # reverse ac to ca, append a
    assert game.fragment == "caa"
    game.play("+c")
    assert game.result is not None and game.result.reason == "completed the word 'ccaa'"
    assert game.result.losers == (1,)


# -- replays for scripts -----------------------------------------------------------------------


def test_moves_json_replays_and_replies(five: Path) -> None:
    code, out, _ = run("play", "five", "--moves", "t", "--json", "--seed", "1", db=five)
    assert code == 0
    data = json.loads(out)
    assert data["moves"] == ["t"] and data["fragment"] == "t"
    assert data["position"]["outcome"] == "win"
    assert data["reply"] == {"player": 1, "move": "a", "fragment": "ta", "strategy": "optimal"}
    code, out, _ = run("play", "five", "--moves", "t,a,n", "--json", db=five)
    data = json.loads(out)
    assert data["result"]["reason"] == "completed the word 'tan'" and data["reply"] is None


def test_play_errors_are_one_line(five: Path) -> None:
    before = dump(five)
    for args, message in [
        (("play", "nosuch"), "no dictionary named 'nosuch'"),
        (("play", "five", "--moves", "t,7"), "'7' is not a move"),
        (("play", "five", "--players", "human,genius"), "'genius' is not a player"),
        (("play", "five", "--moves", "t,a,n,e"), "the game ended at 'tan'"),
        (("selfplay", "five", "--players", "human,optimal"), "self-play is for computer"),
        (("play", "five", "-m", "4"), "not solved"),
    ]:
        code, _, err = run(*args, db=five)
        assert code == 1, args
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, err
    assert dump(five) == before


def test_selfplay_table(five: Path) -> None:
    code, out, _ = run("selfplay", "five", "--games", "20", "--seed", "1", db=five)
    assert code == 0
    rows = {
        line.split()[1]: line.split()[3:]
        for line in out.splitlines()
        if line.startswith("player ") and "optimal" in line
    }
    assert rows == {"0": ["0", "20"], "1": ["20", "0"]}
    data = json.loads(run("selfplay", "five", "--games", "20", "--json", db=five)[1])
    assert data["wins"] == [0, 20]
    assert Counter(data["final_words"]).total() == 20
    assert set(data["final_words"]) <= {"ghost", "green"}  # player 0 stalls with g
