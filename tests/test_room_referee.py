"""The room's referee against an independent brute-force referee (tests/room_brute.py):
random matches among random policies that bluff, challenge, concede, name words and
complete them, over random small word lists, every ruling compared."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from room_brute import BruteRoom

from ghostdb import open_store
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.play.rooms import referee
from ghostdb.play.rooms.referee import Refused
from ghostdb.play.rooms.state import RoomState
from ghostdb.store.rooms.judge import judge_for

ALPHABET = "abc"
FORMS = {"ghost": ("",), "super": ("", "+"), "superduper": ("", "+")}


LOGS: dict[int, list[dict]] = {}
"""Each state's log, as a server keeps it (by the state's id)."""


def commit(state: RoomState, events: list[dict], at: float = 0.0) -> None:
    """Number the events as a server does, keep them, then fold them in."""
    for event in events:
        numbered = {**event, "v": state.version + 1, "at": at}
        LOGS.setdefault(id(state), []).append(numbered)
        state.apply(numbered)


def new_state(judge, seats: list[str], lives: int) -> RoomState:
    state = RoomState("room")
    commit(state, referee.new_room(judge.game, "small", seats, lives=lives, clock=None))
    while state.open_seats():
        _seat, events = referee.join(state, f"p{len(state.open_seats())}")
        commit(state, events)
    return state


def apply_move(fragment: str, letter: str, form: str) -> str:
    return letter + fragment if form == "+" else fragment + letter


def random_word(rng: random.Random, words: list[str], fragment: str) -> str:
    """A word to name when challenged: one of the list (which may or may not count), or
    a string that may be no word at all."""
    pick = rng.random()
    if pick < 0.4 and words:
        return rng.choice(words)
    if pick < 0.7:
        return fragment + "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 3)))
    return "".join(rng.choice(ALPHABET + "z") for _ in range(rng.randint(1, 5)))


def play_out(state: RoomState, brute: BruteRoom, judge, rng: random.Random) -> None:
    """Random actions until the match ends, each ruled by both referees."""
    words = sorted(brute.words)
    for _ in range(400):
        if state.status == "over":
            break
        rnd = state.round
        assert rnd is not None
        seat = rnd.turn
        assert seat == brute.turn
        assert rnd.position == brute.fragment
        assert [s.letters for s in state.seats] == brute.letters
        roll = rng.random()
        if rnd.phase == "answer":
            if roll < 0.15:
                message, expect = {"op": "concede"}, (brute.concede, seat)
            else:
                word = random_word(rng, words, rnd.position)
                message, expect = {"op": "word", "word": word}, (brute.answer, seat, word)
        elif roll < 0.2:
            if brute.last is None:  # the round's first move: both refuse a challenge
                with pytest.raises(Refused) as refused:
                    referee.decide(state, seat, {"op": "challenge"}, judge)
                assert refused.value.code == "illegal_move"
                continue
            message, expect = {"op": "challenge"}, (brute.challenge, seat)
        elif roll < 0.25:
            message, expect = {"op": "concede"}, (brute.concede, seat)
        else:
            # Mostly letters that keep a word in reach, sometimes a bluff.
            options = [(c, f) for c in ALPHABET for f in FORMS[brute.variant]]
            real = [o for o in options if brute.has_word(apply_move(rnd.position, *o))]
            letter, form = rng.choice(real if real and roll < 0.85 else options)
            after = apply_move(rnd.position, letter, form)
            message = {"op": "move", "move": f"{form}{letter}" if form else letter}
            if letter not in "".join(brute.words):  # no word has it: a typo, refused
                with pytest.raises(Refused) as refused:
                    referee.decide(state, seat, message, judge)
                assert refused.value.code == "illegal_move"
                continue
            expect = (brute.move, seat, after)
        events = referee.decide(state, seat, message, judge)
        ruling = expect[0](*expect[1:])
        ended = [e for e in events if e["type"] == "round_over"]
        if ruling is None:
            assert not ended, (message, events)
        else:
            assert ended and ended[0]["losers"] == ruling, (message, events, ruling)
        commit(state, events)
        if brute.winners is not None:
            assert state.status == "over"
            assert list(state.winners or ()) == brute.winners
    assert state.status == "over" and brute.winners is not None


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[str], Rules, int, int, int]:
    words = draw(
        st.lists(st.text(ALPHABET, min_size=2, max_size=5), min_size=2, max_size=10, unique=True)
    )
    variant = draw(st.sampled_from([Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER]))
    min_length = draw(st.sampled_from([2, 3]))
    misere = draw(st.booleans())
    seats = draw(st.sampled_from([2, 2, 3]))
    lives = draw(st.sampled_from([1, 3, 5]))
    seed = draw(st.integers(0, 2**31))
    return words, Rules(variant, min_length, misere, 2), seats, lives, seed


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=cases())
def test_the_referee_agrees_with_brute_force(tmp_path: Path, case) -> None:
    words, rules, seats, lives, seed = case
    if not any(len(w) >= rules.min_length for w in words):
        words = [*words, "abc"]
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    source = folder / "small.txt"
    source.write_text("\n".join(words) + "\n", encoding="utf-8")
    with open_store(str(folder / "ghost.db"), create=True) as store:
        store.ingest(source)
        store.solve("small", rules)
        judge = judge_for(store, "small", rules.key)
        state = new_state(judge, ["human"] * seats, lives)
        brute = BruteRoom(
            frozenset(words), rules.min_length, rules.variant.value, rules.misere, seats, lives
        )
        play_out(state, brute, judge, random.Random(seed))
        # Folding the same log again gives the same room: what a restarted server does.
        again = RoomState.replay("room", LOGS.pop(id(state)))
        assert again.as_dict() == state.as_dict()
