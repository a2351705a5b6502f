"""Connect Four: the position counts against an independent count and against John
Tromp's published counts of 7 × 6 (OEIS A212693), the bitboard build against the generic
explorer, the stored values against a brute-force negamax written here, and the rules'
notation and limits."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from conftest import run

from ghostdb import BadFragment, BadMove, Outcome, open_store
from ghostdb.games.base import explore
from ghostdb.games.connectfour import ConnectFour, ConnectFourRules, _levels
from ghostdb.games.registry import parse_rules

# OEIS A212693 (John Tromp): legal 7 × 6 positions after n plies, n = 0..8.
A212693 = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]


# -- an independent model: boards as tuples of columns, written for the tests ---------------


def _won(columns: tuple[str, ...], height: int) -> bool:
    """Whether either mark has four in a row, by walking every cell in four directions."""
    width = len(columns)

    def at(c: int, r: int) -> str:
        col = columns[c] if 0 <= c < width else ""
        return col[r] if 0 <= r < len(col) else ""

    for c in range(width):
        for r in range(len(columns[c])):
            mark = columns[c][r]
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(at(c + i * dc, r + i * dr) == mark for i in range(4)):
                    return True
    return False


def _children(columns: tuple[str, ...], height: int) -> list[tuple[int, tuple[str, ...]]]:
    if _won(columns, height):
        return []
    mark = "xo"[sum(map(len, columns)) % 2]
    return [
        (c, (*columns[:c], col + mark, *columns[c + 1 :]))
        for c, col in enumerate(columns)
        if len(col) < height
    ]


def count_positions(width: int, height: int) -> int:
    """Every board reachable from the empty one, play stopping at a win."""
    level = {("",) * width}
    total = 0
    while level:
        total += len(level)
        level = {child for board in level for _, child in _children(board, height)}
    return total


def to_key(columns: tuple[str, ...], height: int) -> str:
    rows = []
    for r in range(height - 1, -1, -1):
        rows.append("".join(col[r] if r < len(col) else "." for col in columns))
    return "/".join(rows)


def from_key(key: str) -> tuple[str, ...]:
    rows = key.split("/")
    return tuple(
        "".join(rows[r][c] for r in range(len(rows) - 1, -1, -1)).rstrip(".")
        for c in range(len(rows[0]))
    )


def negamax(width: int, height: int):
    """(value, remoteness) for the player to move, by plain recursion with a memo: the
    winner ends soonest, the loser lasts longest, a tie comes soonest."""

    @cache
    def value(columns: tuple[str, ...]) -> tuple[str, int]:
        if _won(columns, height):
            return "loss", 0
        moves = _children(columns, height)
        if not moves:
            return "tie", 0
        results = [value(child) for _, child in moves]
        wins = [n for v, n in results if v == "loss"]
        if wins:
            return "win", 1 + min(wins)
        ties = [n for v, n in results if v == "tie"]
        if ties:
            return "tie", 1 + min(ties)
        return "loss", 1 + max(n for _, n in results)

    return value


# -- counts ------------------------------------------------------------------------------------


@pytest.mark.long  # 4 × 4's positions counted by a plain-Python search and the explorer
def test_4x4_count_matches_an_independent_count_and_the_explorer() -> None:
    game = ConnectFour()
    graph = game.build()
    assert graph.size == count_positions(4, 4) == 161_029

    def moves(key: str) -> list[tuple[int, str]]:
        return [(int(n) - 1, child) for n, child in game.candidates(key)]

    slow = explore(game.start(), moves, game.final, game.level, acyclic=True)
    assert graph.keys == slow.keys
    for field in ("level", "final", "edge_parent", "edge_child", "edge_rank"):
        assert (getattr(graph, field) == getattr(slow, field)).all(), field


def test_the_first_plies_of_7x6_match_the_published_counts() -> None:
    assert [len(mask) for mask, _, _ in _levels(7, 6, last=8)] == A212693


@pytest.mark.slow
@pytest.mark.long  # minutes: the independent count walks every board in Python
def test_5x4_and_4x5_counts_match_an_independent_count() -> None:
    assert ConnectFour(ConnectFourRules(5, 4)).build().size == count_positions(5, 4)
    assert ConnectFour(ConnectFourRules(4, 5)).build().size == count_positions(4, 5)


# -- values through the store --------------------------------------------------------------------


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("c4") / "c4.db")
    with open_store(db, create=True) as store:
        store.solve("connectfour")
    return db


@pytest.mark.long  # plain-Python negamax from sampled positions
def test_4x4_values_match_brute_force_from_sampled_positions(solved: str) -> None:
    value = negamax(4, 4)
    with open_store(solved) as store:
        solution = store.solution("connectfour")
        start = solution.lookup()
        assert (start.outcome.value, start.game_length) == value(("",) * 4) == ("tie", 16)
        keys = sorted(ConnectFour().build().keys)
        for key in random.Random(4).sample(keys, 400):
            pos = solution.lookup(key)
            assert (pos.outcome.value, pos.game_length) == value(from_key(key)), key
            assert {p.fragment for p in pos.plays} == {
                to_key(child, 4) for _, child in _children(from_key(key), 4)
            }


def test_verify_is_clean_and_lines_end_in_the_stored_value(solved: str) -> None:
    with open_store(solved) as store:
        (verdict,) = store.verify("connectfour")
        assert verdict.ok, verdict.as_dict()
        line = store.solution("connectfour").line()
        assert line.endings and all(e.winner is None for e in line.endings)


@pytest.mark.slow
@pytest.mark.long  # minutes: the brute-force negamax of 5 x 4 is plain Python
def test_5x4_start_value_matches_brute_force(tmp_path: Path) -> None:
    rules = ConnectFourRules(5, 4)
    with open_store(str(tmp_path / "c4.db"), create=True) as store:
        store.solve("connectfour", rules)
        start = store.solution("connectfour", rules).lookup()
    expected = negamax(5, 4)(("",) * 5)
    assert (start.outcome.value, start.game_length) == expected
    assert start.outcome is Outcome.TIE


# -- notation and limits -----------------------------------------------------------------------


def test_keys_moves_and_their_errors() -> None:
    game = ConnectFour()
    assert game.clean_key("..../..../..../.X..") == "..../..../..../.x.."
    assert game.clean_key("____ ____ ____ _x__") == "..../..../..../.x.."
    assert game.clean_key("............x...") == "..../..../..../x..."
    with pytest.raises(BadFragment, match="rows from the top"):
        game.clean_key("x")
    with pytest.raises(BadFragment, match="discs fall down"):
        game.clean_key("x.../..../..../....")
    with pytest.raises(BadFragment, match="X moves first"):
        game.clean_key("..../..../..../oo..")
    full = "x.../o.../x.../o..."
    assert game.parse_move(full, "2") == ("2", "x.../o.../x.../ox..")
    with pytest.raises(BadMove, match="column 1 is full"):
        game.parse_move(full, "1")
    with pytest.raises(BadMove, match="not a move"):
        game.parse_move(full, "9")
    assert game.ending("..../..../ooo./xxxx") == "X connected four"


def test_rule_keys_and_boards_too_big_for_memory() -> None:
    assert parse_rules("connectfour/5x4") == ConnectFourRules(5, 4)
    assert ConnectFourRules(5, 4).flags() == " --width 5"
    with pytest.raises(BadMove, match=r"7 × 6 has up to .* trillion positions"):
        ConnectFourRules(7, 6)
    with pytest.raises(BadMove, match="--height must be from 4 to 7"):
        ConnectFourRules(4, 8)


def test_a_refused_board_is_one_line_and_creates_no_file(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    code, out, err = run("solve", "connectfour", "--width", "6", db=db)
    assert code == 1 and out == ""
    assert err.startswith("error: Connect Four 6 × 4 has up to ") and err.count("\n") == 1
    assert not db.exists()
