"""The computer seats of a room (`ghostdb.play.rooms.bots`): the policies the manual
states, held to the store on ENABLE with words of 3+ letters, and whole matches that
computers play among themselves to their end, in every registered game.

A seat is driven by hand where a test needs a position (the referee rules on a message,
not on who sent it), then asked what it would send.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import write_list

from ghostdb import Store, open_store
from ghostdb.games.base import Game
from ghostdb.games.ghost.rules import Rules
from ghostdb.games.registry import GAMES
from ghostdb.play.rooms import bots, referee
from ghostdb.play.rooms.state import RoomState
from ghostdb.store.answers.solution import Solution
from ghostdb.store.rooms.judge import StoreJudge, judge_for

GHOST3 = Rules(min_length=3)
SEEDS = range(30)


# -- rooms ----------------------------------------------------------------------------------------


def commit(state: RoomState, events: list[dict[str, Any]], log: list | None = None) -> None:
    """Number the events as a server does (keeping them in ``log``), then fold them in."""
    for e in events:
        numbered = {**e, "v": state.version + 1, "at": float(state.version)}
        if log is not None:
            log.append(numbered)
        state.apply(numbered)


def new_room(
    judge: StoreJudge,
    seats: list[str],
    name: str = "enable1",
    lives: int = 3,
    seed: int = 0,
    log: list | None = None,
) -> RoomState:
    """A room of ``seats`` (persons join every ``human`` seat), its first round begun."""
    state = RoomState("room")
    made = referee.new_room(judge.game, name, seats, lives=lives, clock=None, seed=seed)
    commit(state, made, log)
    while state.open_seats():
        commit(state, referee.join(state, "person")[1], log)
    commit(state, referee.start_if_ready(state), log)
    assert state.status == "playing"
    return state


def by_hand(state: RoomState, judge: StoreJudge, message: dict[str, Any]) -> list[dict]:
    """The seat to play sends ``message`` (whoever sits there)."""
    assert state.round is not None
    events = referee.decide(state, state.round.turn, message, judge)
    commit(state, events)
    return events


def at(judge: StoreJudge, seats: list[str], fragment: str) -> RoomState:
    """A room whose first round has reached ``fragment``, its letters played by hand."""
    state = new_room(judge, seats)
    for letter in fragment:
        by_hand(state, judge, {"op": "move", "move": letter})
    assert state.round is not None and state.round.position == fragment
    return state


def asked(state: RoomState, judge: StoreJudge, seed: int = 0) -> dict[str, Any]:
    """What the seat to play would send, drawn from ``seed``."""
    assert state.round is not None
    return bots.command(state, state.round.turn, judge, random.Random(seed))


def play_out(state: RoomState, judge: StoreJudge, log: list | None = None) -> int:
    """Every seat a computer's, until the match ends; the number of messages.  Each
    message must be one the referee takes."""
    for count in range(5000):
        if state.status == "over":
            return count
        assert state.round is not None
        seat = state.round.turn
        message = bots.command(state, seat, judge, bots.rng_for(state, seat))
        commit(state, referee.decide(state, seat, message, judge), log)
    raise AssertionError("the match did not end")


def walk(solution: Solution, rng: random.Random) -> str:
    """A reachable fragment of two letters or more that is no word, by a random walk
    over stored plays."""
    while True:
        pos, fragment = solution.lookup(""), ""
        for _ in range(rng.randint(2, 6)):
            plays = [p for p in pos.plays if not p.is_final]
            if not plays:
                break
            fragment = rng.choice(plays).fragment
            pos = solution.lookup(fragment)
        if len(fragment) >= 2:
            return fragment


@pytest.fixture
def judge(solved_enable1: Store) -> StoreJudge:
    return judge_for(solved_enable1, "enable1", "ghost/3")


@pytest.fixture
def solution(solved_enable1: Store) -> Solution:
    return solved_enable1.solution("enable1", GHOST3)


# -- seeds ----------------------------------------------------------------------------------------


def test_the_same_seed_plays_the_same_match(judge: StoreJudge) -> None:
    logs = []
    for _ in range(2):
        log: list[dict] = []
        state = new_room(judge, ["optimal", "rational", "random"], seed=5, log=log)
        play_out(state, judge, log)
        logs.append(log)
    assert logs[0] == logs[1]
    assert RoomState.replay("room", logs[0]).as_dict() == state.as_dict()
    state = new_room(judge, ["optimal", "optimal"], seed=5)
    assert bots.rng_for(state, 1).random() == bots.rng_for(state, 1).random()
    assert bots.rng_for(state, 0).random() != bots.rng_for(state, 1).random()


def test_an_absent_person_is_played_by_a_strategy_for_the_rules() -> None:
    assert bots.substitute("human") == "optimal"
    assert bots.substitute("human", 3) == "rational"
    assert bots.substitute("random", 3) == "random"
    assert bots.substitute("fastest", 3) == "rational"  # a two-player strategy
    assert bots.substitute("common:500") == "common:500"


def test_a_persons_seat_is_played_as_the_substitute_plays(judge: StoreJudge) -> None:
    people = at(judge, ["human", "human"], "qz")
    computers = at(judge, ["optimal", "optimal"], "qz")
    assert asked(people, judge) == asked(computers, judge) == {"op": "challenge"}


# -- challenges -----------------------------------------------------------------------------------


def test_an_optimal_seat_challenges_every_bluff_and_no_real_fragment(
    judge: StoreJudge, solution: Solution
) -> None:
    rng = random.Random(1)
    for _ in range(40):
        fragment = walk(solution, rng)
        state = at(judge, ["optimal", "optimal"], fragment)
        assert asked(state, judge)["op"] == "move", fragment
        # The same fragment with a letter that no word continues: always challenged.
        pos = solution.lookup(fragment)
        stored = {p.fragment for p in pos.plays}
        bluff = next(n for n, c in judge.game.candidates(fragment) if c not in stored)
        by_hand(state, judge, {"op": "move", "move": bluff})
        assert asked(state, judge) == {"op": "challenge"}, fragment + bluff
        # The bluffer, challenged, knows no word: it concedes.
        by_hand(state, judge, {"op": "challenge"})
        assert asked(state, judge) == {"op": "concede"}


def test_a_challenged_seat_names_a_word_the_fragment_can_become(
    judge: StoreJudge, solution: Solution
) -> None:
    rng = random.Random(2)
    for _ in range(40):
        fragment = walk(solution, rng)
        state = at(judge, ["optimal", "optimal"], fragment)
        by_hand(state, judge, {"op": "challenge"})
        message = asked(state, judge)
        assert message["op"] == "word", fragment
        word = message["word"]
        assert judge.is_word(word) and judge.game.can_become(fragment, word), (fragment, word)
        events = by_hand(state, judge, message)
        assert events[0]["type"] == "answered" and events[0]["valid"] is True


def test_a_common_seat_challenges_what_it_knows_no_word_for(judge: StoreJudge) -> None:
    pytest.importorskip(
        "wordfreq", reason="common:N players need wordfreq: pip install 'ghostdb[freq]'"
    )
    known = judge.vocabulary("common:500")
    assert known is not None and len(known.words) == 500
    pairs = [a + b for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghijklmnopqrstuvwxyz"]
    strange = [f for f in pairs if judge.position(f) is not None and f not in known.values]
    familiar = [f for f in pairs if f in known.values and not judge.position(f).is_final]
    assert strange and familiar
    for fragment in strange[:10]:
        state = at(judge, ["common:500", "common:500"], fragment)
        assert asked(state, judge) == {"op": "challenge"}, fragment
        assert not judge.knows("common:500", fragment) and judge.knows("optimal", fragment)
    for fragment in familiar[:10]:
        state = at(judge, ["common:500", "common:500"], fragment)
        message = asked(state, judge)
        assert message["op"] == "move", fragment
        # It keeps to its vocabulary where it can.
        assert fragment + message["move"] in known.values, (fragment, message)
        # Challenged, it names its most common word that the fragment can become.
        by_hand(state, judge, {"op": "challenge"})
        word = next(w for w in known.words if judge.game.can_become(fragment, w))
        assert asked(state, judge) == {"op": "word", "word": word}


# -- moves and bluffs -----------------------------------------------------------------------------


def test_a_seat_never_completes_a_word_while_it_knows_another_move(
    judge: StoreJudge, solution: Solution
) -> None:
    pos = solution.lookup("ca")
    finals = {p.move for p in pos.plays if p.is_final}
    assert finals and len(finals) < len(pos.plays)
    for strategy in ("optimal", "fastest", "rational", "random"):
        state = at(judge, [strategy, strategy], "ca")
        for seed in SEEDS:
            message = asked(state, judge, seed)
            assert message["op"] == "move" and message["move"] not in finals, strategy


def test_a_seat_bluffs_only_when_every_move_it_knows_loses(
    judge: StoreJudge, solution: Solution
) -> None:
    """Where it wins it plays a winning move; where every move loses it bluffs one time
    in two (a letter no word continues, which is no word), else holds out longest."""
    rng = random.Random(3)
    losing, winning = [], []
    while len(losing) < 4 or len(winning) < 4:
        fragment = walk(solution, rng)
        pos = solution.lookup(fragment)
        has_bluff = len(pos.plays) < len(judge.game.candidates(fragment))
        if pos.outcome.value == "loss" and has_bluff:
            losing.append(fragment)
        elif pos.outcome.value == "win":
            winning.append(fragment)
    for fragment in winning[:4]:
        state = at(judge, ["optimal", "optimal"], fragment)
        wins = {p.move for p in solution.lookup(fragment).plays if p.wins}
        assert all(asked(state, judge, s)["move"] in wins for s in SEEDS)
    bluffs = holds = 0
    for fragment in losing[:4]:
        state = at(judge, ["optimal", "optimal"], fragment)
        pos = solution.lookup(fragment)
        longest = max(p.game_length or 0 for p in pos.plays)
        for seed in SEEDS:
            move = asked(state, judge, seed)["move"]
            child = fragment + move
            if judge.position(child) is None:
                assert not judge.is_word(child)
                bluffs += 1
            else:
                assert any(p.fragment == child and p.game_length == longest for p in pos.plays)
                holds += 1
    total = bluffs + holds
    assert total // 4 < bluffs < total * 3 // 4  # one time in two, give or take


# -- whole matches --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seats", [["optimal", "optimal"], ["optimal", "common:2000", "random"], ["human", "trap"]]
)
def test_computers_play_a_match_on_enable_to_its_end(judge: StoreJudge, seats: list[str]) -> None:
    """Lives 3: every message is one the referee takes, every event folds in, the match
    ends with one winner; the seats that know the whole dictionary challenge only
    bluffs and answer only with valid words."""
    if any(s.startswith("common:") for s in seats):
        pytest.importorskip(
            "wordfreq", reason="common:N players need wordfreq: pip install 'ghostdb[freq]'"
        )
    log: list[dict] = []
    state = new_room(judge, seats, seed=11, log=log)
    play_out(state, judge, log)
    assert state.status == "over" and state.winners is not None and len(state.winners) == 1
    assert RoomState.replay("room", log).as_dict() == state.as_dict()
    assert json.loads(json.dumps(state.as_dict()))["rounds"] == state.rounds
    everything = {"optimal", "trap", "human"}  # the seats that know the whole dictionary
    for over in state.rounds:
        end = over["verdicts"][-1]
        if "challenger" not in end:
            continue
        if state.seats[end["challenger"]].player in everything:
            assert end["right"], end
        if state.seats[end["target"]].player in everything:
            # Challenged on a real fragment it names a valid word; on a bluff it concedes.
            assert end["valid"] if not end["right"] else end["word"] is None, end


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Every registered game solved at its default rules (Ghost over a small list)."""
    folder = tmp_path_factory.mktemp("room-bots")
    words = write_list(folder, "cat cow dog door dot toad", "tiny")
    with open_store(str(folder / "ghost.db"), create=True) as store:
        store.ingest(words)
        for game in GAMES:
            store.solve(name_of(game))
        yield store


def name_of(game: type[Game]) -> str:
    return "tiny" if game.word_game else game.name


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
@pytest.mark.parametrize("seats", [("optimal", "random"), ("rational", "trap")])
def test_computers_play_every_game_to_its_end(
    every_game: Store, game: type[Game], seats: tuple[str, str]
) -> None:
    name = name_of(game)
    solution = every_game.solution(name)
    judge = judge_for(every_game, name, solution.rules.key)
    for seed in range(3):
        log: list[dict] = []
        state = new_room(judge, list(seats), name=name, seed=seed, log=log)
        play_out(state, judge, log)
        assert state.status == "over" and log[-1]["type"] == "match_over"
        assert RoomState.replay("room", log).as_dict() == state.as_dict()
        for over in state.rounds:
            moves = [v for v in over["verdicts"] if "move" in v]
            assert moves and all(
                v["verdict"] in ("best", "good", "mistake", "blunder")
                for v in moves
                if "verdict" in v
            )
        if not game.word_game:
            assert len(state.rounds) == 1  # one game decides the match
            assert all("verdict" in v for v in state.rounds[0]["verdicts"][:-1])
