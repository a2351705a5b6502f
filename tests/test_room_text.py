"""What `ghostdb join` prints of a room's messages (`ghostdb.text.rooms`): a board game's
position drawn as the console draws it, and the verdicts said of "you" in good English."""

from __future__ import annotations

from ghostdb.games.registry import default_rules, game_of
from ghostdb.text.rooms import board, describe, verdict_lines


def test_a_board_game_is_drawn_with_its_players_in_the_rounds_order() -> None:
    tictactoe = game_of(default_rules("tictactoe"))
    assert board(tictactoe, "x...o....", ["you", "Bob"], [1, 0], 1) == [
        "    x . .",
        "    . o .",
        "    . . .",
    ]
    chopsticks = game_of(default_rules("chopsticks"))
    # Seat 1 started (player 0, its hands first in the key when it is to move).
    drawn = board(chopsticks, "12-11", ["you", "Bob"], [1, 0], 1)
    assert drawn == ["    Bob:  hands 1 2", "    you:  hands 1 1"]


def test_nothing_is_drawn_for_a_word_game_or_what_cannot_be_drawn() -> None:
    tictactoe = game_of(default_rules("tictactoe"))
    assert board(None, "x........", ["a", "b"], [0, 1], 0) == []
    assert board(game_of(default_rules("ghost")), "gh", ["a", "b"], [0, 1], 0) == []
    assert board(tictactoe, "x........", ["a", "b"], [], None) == []  # no round yet
    assert board(tictactoe, "x........", ["a", "b"], [0, 5], 0) == []  # a seat unknown
    assert board(game_of(default_rules("chopsticks")), "garbage", ["a", "b"], [0, 1], 0) == []


def test_a_drawn_move_is_not_spelled_out_too() -> None:
    moved = {"type": "moved", "seat": 0, "move": "5", "text": "..../.x./..."}
    assert describe(moved, ["you", "Bob"]) == ["you played 5: ..../.x./..."]
    assert describe(moved, ["you", "Bob"], drawn=True) == ["you played 5"]


def test_the_verdicts_say_your_of_you() -> None:
    verdicts = [
        {"seat": 0, "move": "z", "position": "qz", "bluff": True},
        {"seat": 1, "move": "t", "position": "qzt", "verdict": "blunder", "missed": ["s"]},
    ]
    assert verdict_lines(verdicts, ["you", "Bob"]) == [
        "  your z was a bluff: no word can become 'qz'",
        "  Bob's t was a blunder; s would have won",
    ]
