"""The referee's refusals, clock and message ids, and a board game's room, over five.txt
(ghost green tan tree tries) and tic-tac-toe."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ghostdb import open_store
from ghostdb.errors import BadMove
from ghostdb.play.rooms import referee
from ghostdb.play.rooms.referee import Refused
from ghostdb.play.rooms.state import RoomState
from ghostdb.store.rooms.judge import StoreJudge, judge_for


@pytest.fixture(scope="module")
def judges(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, StoreJudge]]:
    from conftest import OWN_WORDLISTS

    path = tmp_path_factory.mktemp("rules") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
        store.solve("tictactoe")
        yield {
            "five": judge_for(store, "five", "ghost/3"),
            "tictactoe": judge_for(store, "tictactoe", "tictactoe"),
        }


def commit(state: RoomState, events: list[dict], at: float = 0.0) -> list[dict]:
    numbered = []
    for event in events:
        numbered.append({**event, "v": state.version + 1, "at": at})
        state.apply(numbered[-1])
    return numbered


def room(judge: StoreJudge, seats: int = 2, clock: int | None = None, lives: int = 5):
    state = RoomState("r")
    commit(state, referee.new_room(judge.game, "five", ["human"] * seats, lives=lives, clock=clock))
    return state


def fill(state: RoomState) -> None:
    while state.open_seats():
        commit(state, referee.join(state, "p")[1])


def refused(state: RoomState, seat: int, message: dict, judge: StoreJudge) -> str:
    before = state.as_dict()
    with pytest.raises(Refused) as caught:
        referee.decide(state, seat, message, judge, now=1e12)
    assert state.as_dict() == before and str(caught.value)
    return caught.value.code


def test_each_refusal_has_its_code(judges: dict[str, StoreJudge]) -> None:
    judge = judges["five"]
    state = room(judge)
    assert refused(state, 0, {"op": "move", "move": "g"}, judge) == "not_started"
    fill(state)
    assert refused(state, 0, {"op": "dance"}, judge) == "unknown_op"
    assert refused(state, 1, {"op": "move", "move": "g"}, judge) == "not_your_turn"
    assert refused(state, 0, {"op": "move", "move": 7}, judge) == "bad_message"
    assert refused(state, 0, {"op": "move", "move": "x" * 100}, judge) == "bad_message"
    assert refused(state, 0, {"op": "move", "move": "?!"}, judge) == "illegal_move"
    assert refused(state, 0, {"op": "challenge"}, judge) == "illegal_move"  # first move
    assert refused(state, 0, {"op": "word", "word": "ghost"}, judge) == "not_challenged"
    assert refused(state, 0, {"op": "timeout"}, judge) == "too_early"  # no clock at all
    commit(state, referee.decide(state, 0, {"op": "move", "move": "g"}, judge))
    commit(state, referee.decide(state, 1, {"op": "challenge"}, judge))
    assert refused(state, 0, {"op": "move", "move": "h"}, judge) == "must_answer"
    assert refused(state, 1, {"op": "word", "word": "ghost"}, judge) == "not_your_turn"
    assert refused(state, 0, {"op": "word", "word": 5}, judge) == "bad_message"


def test_a_named_word_must_be_in_the_dictionary_and_begin_with_the_position(
    judges: dict[str, StoreJudge],
) -> None:
    judge = judges["five"]
    for word, valid in [("green", True), ("GREEN ", True), ("grin", False), ("tree", False)]:
        state = room(judge)
        fill(state)
        commit(state, referee.decide(state, 0, {"op": "move", "move": "g"}, judge))
        commit(state, referee.decide(state, 1, {"op": "move", "move": "r"}, judge))
        commit(state, referee.decide(state, 0, {"op": "challenge"}, judge))
        events = commit(state, referee.decide(state, 1, {"op": "word", "word": word}, judge))
        answered, over = events[0], events[1]
        assert answered["valid"] is valid, word
        # A valid word loses the round for the challenger (seat 0), else for seat 1.
        assert over["losers"] == ([0] if valid else [1])
        assert over["letters"] == ([1, 0] if valid else [0, 1])
        # The loser starts the next round.
        assert events[2]["type"] == "round" and events[2]["starter"] == over["losers"][0]


def test_the_clock_runs_out_for_the_player_to_move(judges: dict[str, StoreJudge]) -> None:
    judge = judges["five"]
    state = room(judge, clock=30)
    fill(state)
    commit(state, referee.decide(state, 0, {"op": "move", "move": "t"}, judge), at=100.0)
    assert state.deadline() == 130.0
    with pytest.raises(Refused):
        referee.decide(state, 0, {"op": "timeout"}, judge, now=129.9)
    events = commit(state, referee.decide(state, 0, {"op": "timeout"}, judge, now=130.0))
    assert events[0] == {"type": "timed_out", "seat": 1, "v": events[0]["v"], "at": 0.0}
    assert events[1]["losers"] == [1] and events[1]["reason"] == "timeout"


def test_a_message_id_rides_on_its_event(judges: dict[str, StoreJudge]) -> None:
    judge = judges["five"]
    state = room(judge)
    fill(state)
    events = commit(state, referee.decide(state, 0, {"op": "move", "move": "t", "id": "m1"}, judge))
    assert events[0]["ref"] == "m1" and state.refs[(0, "m1")] == events[0]["v"]
    again = RoomState.replay("r", [])
    assert again.refs == {}


def test_five_lives_spell_ghost_and_the_last_one_in_wins(judges: dict[str, StoreJudge]) -> None:
    judge = judges["five"]
    state = room(judge, seats=3, lives=3)
    fill(state)
    for _ in range(6):  # seat 0, then seat 1, each concede three times over
        loser = state.round.turn
        commit(state, referee.decide(state, loser, {"op": "concede"}, judge))
        if state.status == "over":
            break
    assert state.status == "over"
    assert [s.letters for s in state.seats].count(3) == 2
    assert list(state.winners) == [s.seat for s in state.seats if s.letters < 3]
    assert state.as_dict()["seats"][0]["spelled"] in ("PIG", "P", "PI", "")
    assert refused(state, 0, {"op": "concede"}, judge) == "over"


def test_a_completed_word_loses_the_round_at_once(judges: dict[str, StoreJudge]) -> None:
    judge = judges["five"]
    state = room(judge)
    fill(state)
    events: list[dict] = []
    for seat, letter in enumerate("tan"):
        events = commit(
            state, referee.decide(state, seat % 2, {"op": "move", "move": letter}, judge)
        )
    assert [e["type"] for e in events] == ["moved", "round_over", "round"]
    assert events[1]["losers"] == [0] and events[1]["reason"] == "word"
    assert "'tan'" in events[1]["text"]


def test_a_board_game_is_one_game_with_legal_moves_only(judges: dict[str, StoreJudge]) -> None:
    judge = judges["tictactoe"]
    with pytest.raises(BadMove):
        referee.new_room(judge.game, "tictactoe", ["human"] * 3)
    state = RoomState("t")
    commit(state, referee.new_room(judge.game, "tictactoe", ["human", "human"], lives=5))
    fill(state)
    assert state.lives == 1
    assert refused(state, 0, {"op": "challenge"}, judge) == "illegal_move"
    start = judge.position(state.round.position)
    moves = [p.move for p in start.plays]
    commit(state, referee.decide(state, 0, {"op": "move", "move": moves[0]}, judge))
    assert refused(state, 1, {"op": "move", "move": moves[0]}, judge) == "illegal_move"
    # Play on with the stored best moves to the end: the match ends with the game.
    while state.status != "over":
        here = judge.position(state.round.position)
        commit(
            state,
            referee.decide(state, state.round.turn, {"op": "move", "move": here.best_move}, judge),
        )
    assert state.winners == ()  # best play ties tic-tac-toe: nobody wins


@pytest.mark.parametrize(
    ("seats", "lives", "clock"),
    [(["human"], 5, 60), (["human"] * 9, 5, 60), (["human"] * 2, 2, 60), (["human"] * 2, 5, 45)],
)
def test_a_room_the_rules_cannot_hold_is_refused(
    judges: dict[str, StoreJudge], seats: list[str], lives: int, clock: int
) -> None:
    with pytest.raises(BadMove):
        referee.new_room(judges["five"].game, "five", seats, lives=lives, clock=clock)


@pytest.mark.parametrize("player", ["optimall", "common:0", "people"])
def test_a_seat_nobody_can_play_is_refused(judges: dict[str, StoreJudge], player: str) -> None:
    with pytest.raises(BadMove, match="is not a seat"):
        referee.new_room(judges["five"].game, "five", ["human", player])


def test_a_common_player_needs_words(judges: dict[str, StoreJudge]) -> None:
    referee.new_room(judges["five"].game, "five", ["human", "common:100"])
    with pytest.raises(BadMove, match="knows words"):
        referee.new_room(judges["tictactoe"].game, "tictactoe", ["human", "common:100"])
