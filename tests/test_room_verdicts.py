"""A room's verdicts: each finished round graded by the store (`ghostdb.play.rooms.verdicts`),
on ENABLE with words of 3+ letters, the moves written out.

Every value and verdict is held to what the store says of the same moves, through
`Solution.analyse` and `Solution.lookup`, never to a number written here.  A challenge's
ruling is a lookup: the dictionary is asked once, by its primary key.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from conftest import write_list
from sqlalchemy import event

from ghostdb import Store, open_store
from ghostdb.errors import NotSolved
from ghostdb.games.ghost.rules import Rules
from ghostdb.play.rooms import referee
from ghostdb.play.rooms.state import RoomState
from ghostdb.store.answers.solution import Solution
from ghostdb.store.rooms.judge import StoreJudge, judge_for

GHOST3 = Rules(min_length=3)


# -- driving a room by hand -----------------------------------------------------------------------


def commit(state: RoomState, events: list[dict[str, Any]], at: float = 0.0) -> None:
    """Number the events as a server does, then fold them in."""
    for e in events:
        state.apply({**e, "v": state.version + 1, "at": at})


def new_room(judge: StoreJudge, people: int, lives: int = 3, name: str = "enable1") -> RoomState:
    """A room of ``people`` persons, every seat taken, the first round begun."""
    state = RoomState("room")
    seats = ["human"] * people
    commit(state, referee.new_room(judge.game, name, seats, lives=lives, clock=None, seed=1))
    for i in range(people):
        commit(state, referee.join(state, f"p{i}")[1])
    assert state.status == "playing"
    return state


def say(state: RoomState, message: dict[str, Any], judge: StoreJudge) -> list[dict[str, Any]]:
    """The seat to play sends ``message``; the events are committed and returned."""
    assert state.round is not None
    events = referee.decide(state, state.round.turn, message, judge)
    commit(state, events)
    return events


def play(state: RoomState, letters: str, judge: StoreJudge) -> list[dict[str, Any]]:
    """Each letter in turn, by whoever is to move; the last move's events."""
    events: list[dict[str, Any]] = []
    for letter in letters:
        events = say(state, {"op": "move", "move": letter}, judge)
    return events


def round_over(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "round_over")


# -- what the store says --------------------------------------------------------------------------


def held_to_the_store(solution: Solution, verdicts: list[dict[str, Any]], moves: str) -> None:
    """Each move's verdict against `Solution.analyse` of the same moves, and its missed
    wins against the stored position before it."""
    reviews = solution.analyse(list(moves)).reviews
    graded = [v for v in verdicts if "move" in v]
    assert [v["move"] for v in graded] == list(moves)
    for verdict, review in zip(graded, reviews, strict=True):
        assert verdict["position"] == review.after
        assert verdict["value_before"] == review.value_before
        assert verdict["value_after"] == review.value_after
        assert verdict["verdict"] == review.verdict
        assert verdict["best"] == list(review.best)
        before = solution.lookup(review.before)
        wins = [p.move for p in before.plays if p.wins]
        assert verdict["missed"] == ([] if review.value_after == "win" else wins)
        assert verdict["bluff"] == (solution.get(review.after) is None)


def best_line_word(solution: Solution, fragment: str) -> str:
    """Where the stored best line from ``fragment`` ends, read here move by move."""
    pos = solution.lookup(fragment)
    while True:
        best = next(p for p in pos.plays if p.move == pos.best_move)
        if best.is_final:
            return best.fragment
        pos = solution.lookup(best.fragment)


@pytest.fixture
def judge(solved_enable1: Store) -> StoreJudge:
    return judge_for(solved_enable1, "enable1", "ghost/3")


@pytest.fixture
def solution(solved_enable1: Store) -> Solution:
    return solved_enable1.solution("enable1", GHOST3)


# -- the acceptance match -------------------------------------------------------------------------


def test_a_match_of_a_bluff_a_wrong_challenge_and_a_word(
    judge: StoreJudge, solution: Solution
) -> None:
    """Three rounds, three letters of PIG: a bluff caught, a real fragment challenged,
    a word completed; each round's verdicts as the store says them."""
    state = new_room(judge, 2, lives=3)
    assert solution.get("qz") is None and solution.get("q") is not None

    # Round 1: seat 0 plays q, seat 1 bluffs z (no word begins qz), seat 0 challenges.
    assert play(state, "qz", judge)[-1]["type"] == "moved"
    assert state.as_dict()["rounds"] == []  # nothing tells the bluff before the round ends
    say(state, {"op": "challenge"}, judge)
    over = round_over(say(state, {"op": "concede"}, judge))
    assert over["losers"] == [1] and over["reason"] == "conceded"
    verdicts = over["verdicts"]
    held_to_the_store(solution, verdicts, "qz")
    assert [v["bluff"] for v in verdicts[:2]] == [False, True]
    assert verdicts[1]["value_after"] == "loss"  # a bluff loses at once, as analyse says
    end = verdicts[-1]
    assert end["ending"] == "conceded" and end["challenger"] == 0 and end["target"] == 1
    assert end["position"] == "qz" and end["right"] is True and end["example"] is None
    assert end["word"] is None and end["valid"] is False
    assert [s.letters for s in state.seats] == [0, 1]

    # Round 2, begun by its loser, seat 1: c, a; seat 1 challenges a real fragment and
    # loses to the word seat 0 names.
    assert state.round is not None and state.round.starter == 1
    play(state, "ca", judge)
    say(state, {"op": "challenge"}, judge)
    assert judge.is_word("cab") and solution.get("ca") is not None
    over = round_over(say(state, {"op": "word", "word": "cab"}, judge))
    assert over["losers"] == [1] and over["reason"] == "challenge"
    verdicts = over["verdicts"]
    held_to_the_store(solution, verdicts, "ca")
    end = verdicts[-1]
    assert end["challenger"] == 1 and end["target"] == 0 and end["position"] == "ca"
    assert end["right"] is False and end["word"] == "cab" and end["valid"] is True
    assert end["example"] == best_line_word(solution, "ca")
    assert judge.is_word(end["example"]) and end["example"].startswith("ca")

    # Round 3, begun by seat 1 again: c, a, t completes "cat": seat 1 loses and is out.
    assert state.round is not None and state.round.starter == 1
    events = play(state, "cat", judge)
    over = round_over(events)
    assert over["losers"] == [1] and over["reason"] == "word"
    held_to_the_store(solution, over["verdicts"], "cat")
    end = over["verdicts"][-1]
    assert end == {"ending": "word", "losers": [1], "position": "cat", "seat": 1, "word": "cat"}
    assert events[-1]["type"] == "match_over" and events[-1]["winners"] == [0]

    # The record keeps every round's verdicts, and downloads as JSON.
    record = json.loads(json.dumps(state.as_dict()))
    assert [r["verdicts"] for r in record["rounds"]] == [r["verdicts"] for r in state.rounds]
    assert len(record["rounds"]) == 3


def test_a_bluff_named_a_non_word_is_caught(judge: StoreJudge, solution: Solution) -> None:
    state = new_room(judge, 2)
    play(state, "qz", judge)
    say(state, {"op": "challenge"}, judge)
    over = round_over(say(state, {"op": "word", "word": "qzx"}, judge))
    assert over["losers"] == [1] and over["reason"] == "challenge"
    end = over["verdicts"][-1]
    assert end["right"] is True and end["word"] == "qzx" and end["valid"] is False
    assert end["example"] is None
    held_to_the_store(solution, over["verdicts"], "qz")


def test_a_missed_win_is_named(judge: StoreJudge, solution: Solution) -> None:
    """A move that throws a win away: the winning moves the player had are named."""
    start = solution.lookup("")
    # The first player loses ENABLE's Ghost/3, so the second has a win after any letter.
    first = start.plays[0].move
    after_first = solution.lookup(first)
    assert after_first.outcome.value == "win"
    losing = next(p.move for p in after_first.plays if not p.wins and not p.is_final)
    state = new_room(judge, 2)
    play(state, first + losing, judge)
    say(state, {"op": "concede"}, judge)
    verdicts = state.rounds[-1]["verdicts"]
    held_to_the_store(solution, verdicts, first + losing)
    assert verdicts[1]["verdict"] == "blunder"
    assert verdicts[1]["missed"] == [p.move for p in after_first.plays if p.wins] != []
    assert verdicts[-1] == {"ending": "conceded", "losers": [0], "position": first + losing}


# -- a ruling is a lookup -------------------------------------------------------------------------


@contextmanager
def statements(store: Store) -> Iterator[tuple[list[str], list[str]]]:
    """The statements run meanwhile: on the lookups' own raw connection (where a
    position and a word are read; SQLite's trace), and through the store's engine
    (SQLAlchemy's event)."""
    raw: list[str] = []
    engine: list[str] = []

    def seen(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        engine.append(sql)

    driver = store.lookups.dbapi()
    driver.set_trace_callback(raw.append)
    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        yield raw, engine
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
        driver.set_trace_callback(None)


def test_a_challenge_is_ruled_by_one_lookup_of_the_word(
    solved_enable1: Store, judge: StoreJudge
) -> None:
    assert judge.is_word("cat")  # the first finds the dictionary's id, once
    with statements(solved_enable1) as (raw, engine):
        assert judge.is_word("cab") and not judge.is_word("cabz")
    assert len(raw) == 2 and all("FROM words" in sql for sql in raw) and not engine

    # The query reads the words table by its primary key: a search, never a scan.
    database = solved_enable1.engine.url.database
    assert database is not None
    with sqlite3.connect(database) as conn:  # the statement as run, its values in place
        plan = conn.execute(f"EXPLAIN QUERY PLAN {raw[0]}").fetchall()
    details = " ".join(str(row[-1]) for row in plan)
    assert "SEARCH" in details and "SCAN" not in details, details

    # The whole ruling on a named word asks the dictionary once; the rest are reads of
    # positions (the round's verdicts), each by its key, and at most one probe of the
    # solution's row by its key (whether what the judge kept is still published).
    state = new_room(judge, 2)
    play(state, "ca", judge)
    say(state, {"op": "challenge"}, judge)
    with statements(solved_enable1) as (raw, engine):
        say(state, {"op": "word", "word": "cab"}, judge)
    assert sum("FROM words" in sql for sql in raw) == 1 and not engine
    reads = [sql for sql in raw if sql.startswith("SELECT")]
    probes = [sql for sql in reads if "FROM solutions" in sql and "solutions.id =" in sql]
    assert len(probes) <= 1
    others = [sql for sql in reads if sql not in probes]
    assert all("FROM words" in sql or "positions" in sql for sql in others), others


# -- the judge ------------------------------------------------------------------------------------


def test_the_judge_answers_as_the_store(judge: StoreJudge, solution: Solution) -> None:
    assert judge.game.key == "ghost/3"
    assert judge.position("ca") == solution.lookup("ca")
    assert judge.position("qz") is None
    assert judge.position("c4!") is None  # a key the game cannot have at all
    assert judge.is_word("aa") and not judge.is_word("") and not judge.is_word("zzzq")
    assert judge.graded(2) is not None and judge.graded(2)("ca") == solution.lookup("ca")
    assert judge.graded(3) is None  # ENABLE is not solved for three players here
    assert judge.word_for("optimal", "ca") == best_line_word(solution, "ca")
    assert judge.word_for("optimal", "qz") is None
    assert judge.knows("optimal", "ca") and not judge.knows("optimal", "qz")


def test_a_rule_set_not_solved_has_no_judge(solved_enable1: Store) -> None:
    with pytest.raises(NotSolved):
        judge_for(solved_enable1, "enable1", "super/3")


# -- rounds of more players -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """A small list solved for Ghost/3 with two and three players, Ghost/4 with two."""
    folder = tmp_path_factory.mktemp("verdicts-small")
    words = write_list(folder, "cat cow dog door dot toad taco coat good odd act", "small")
    with open_store(str(folder / "ghost.db"), create=True) as store:
        store.ingest(words)
        for rules in (GHOST3, Rules(min_length=3, players=3), Rules(min_length=4)):
            store.solve("small", rules)
        yield store


def test_a_round_of_three_is_graded_by_the_solution_for_three(small_store: Store) -> None:
    """A room over Ghost/3 (solved for two) played by three: its rounds of three are
    graded by the solution for three players; a room whose rules are not solved for
    three shows only the moves and bluffs."""
    judge = judge_for(small_store, "small", "ghost/3")
    three = small_store.solution("small", Rules(min_length=3, players=3))
    state = new_room(judge, 3, name="small")
    over = round_over(play(state, "dog", judge))
    assert over["losers"] == [2] and over["reason"] == "word"
    reviews = three.analyse(list("dog")).reviews
    graded = over["verdicts"][:-1]
    for verdict, review in zip(graded, reviews, strict=True):
        assert (verdict["value_before"], verdict["value_after"], verdict["verdict"]) == (
            review.value_before,
            review.value_after,
            review.verdict,
        )
        assert verdict["best"] == list(review.best)

    unsolved = judge_for(small_store, "small", "ghost/4")
    state = new_room(unsolved, 3, name="small")
    play(state, "dod", unsolved)  # "dod" begins no word: a bluff
    say(state, {"op": "challenge"}, unsolved)
    over = round_over(say(state, {"op": "concede"}, unsolved))
    assert over["verdicts"][:-1] == [
        {"seat": 0, "move": "d", "position": "d", "bluff": False},
        {"seat": 1, "move": "o", "position": "do", "bluff": False},
        {"seat": 2, "move": "d", "position": "dod", "bluff": True},
    ]
    assert over["verdicts"][-1]["right"] is True and over["losers"] == [2]
