"""Games beside Ghost: Chopsticks (cycles and draws) and tic-tac-toe (ties), the two
solvers, and the store, CLI and play engine on them.

The references here share no code with ghostdb's games or solvers: their own move rules,
a plain recursive minimax for tic-tac-toe, and for graphs with cycles a naive fixpoint —
the sets of positions won or lost within k moves, recomputed from scratch for k = 0, 1, …
until nothing changes.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import dump, run
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostdb import ChopsticksRules, NotForThisGame, Outcome, Store, TicTacToeRules
from ghostdb.errors import BadMove, DeadFragment, NameConflict
from ghostdb.games.base import DRAW, LOSS, NOT_FINAL, TIE, VALUE_NAMES, WIN, PositionGraph
from ghostdb.games.chopsticks import Chopsticks
from ghostdb.games.tictactoe import TicTacToe
from ghostdb.solvers import levels, retrograde

# -- references ------------------------------------------------------------------------------


def naive_values(
    nodes: list[str], children: dict[str, list[str]], final: dict[str, str]
) -> dict[str, tuple[str, int | None]]:
    """Outcome and game length of every node by the k-step definition.

    won_k: a move to a node lost within k-1; lost_k: every move to a node won within k-1
    (finals enter at k = 0 with their own value).  Then, among the rest, tie_k: a move to
    a tie within k-1.  A node's length is the first k at which it enters; whatever never
    enters is a draw.
    """
    value: dict[str, tuple[str, int | None]] = {
        n: (final[n], 0) for n in nodes if final.get(n) in ("win", "loss")
    }
    k = 0
    while True:
        k += 1
        new = {}
        for n in nodes:
            if n in value or n in final:
                continue
            kids = [value.get(c) for c in children[n]]
            if any(v is not None and v[0] == "loss" for v in kids):
                new[n] = ("win", k)
            elif kids and all(v is not None and v[0] == "win" for v in kids):
                new[n] = ("loss", k)
        if not new:
            break
        value.update(new)
    ties = {n: ("tie", 0) for n in nodes if final.get(n) == "tie"}
    k = 0
    while True:
        k += 1
        new = {
            n: ("tie", k)
            for n in nodes
            if n not in value
            and n not in ties
            and n not in final
            and any(c in ties for c in children[n])
        }
        if not new:
            break
        ties.update(new)
    value.update(ties)
    return {n: value.get(n, ("draw", None)) for n in nodes}


def chopsticks_reference(
    fingers: int = 5, rollover: bool = False, transfers: bool = True
) -> tuple[list[str], dict[str, list[str]], dict[str, str]]:
    """Chopsticks written afresh from the rules: positions reachable from the start."""

    def key(mine: tuple[int, int], theirs: tuple[int, int]) -> str:
        return "".join(map(str, sorted(mine))) + "-" + "".join(map(str, sorted(theirs)))

    def moves(mine: tuple[int, int], theirs: tuple[int, int]) -> set[str]:
        out = set()
        for i in range(2):
            for j in range(2):
                if mine[i] and theirs[j]:
                    hit = mine[i] + theirs[j]
                    hit = hit % fingers if rollover else (0 if hit >= fingers else hit)
                    new = list(theirs)
                    new[j] = hit
                    out.add(key((new[0], new[1]), mine))
        if transfers:
            for total_left in range(fingers):
                right = sum(mine) - total_left
                if 0 <= right < fingers and sorted((total_left, right)) != sorted(mine):
                    # a legal transfer: each hand's change is made by one move of k
                    # fingers from a hand that keeps at least one
                    for src in range(2):
                        k = mine[src] - (total_left if src == 0 else right)
                        if k >= 1 and mine[src] - k >= 1:
                            out.add(key(theirs, (total_left, right)))
        return out

    start = "11-11"
    children: dict[str, list[str]] = {}
    todo = [start]
    while todo:
        n = todo.pop()
        if n in children:
            continue
        mine, theirs = (int(n[0]), int(n[1])), (int(n[3]), int(n[4]))
        children[n] = [] if mine == (0, 0) else sorted(moves(mine, theirs))
        todo.extend(children[n])
    final = {n: "loss" for n in children if n.startswith("00")}
    return sorted(children), children, final


LINES3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@cache
def minimax(board: str) -> tuple[str, int]:
    """Tic-tac-toe by plain recursion: (outcome for the player to move, moves left)."""
    if any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES3):
        return "loss", 0
    if "." not in board:
        return "tie", 0
    mark = "x" if board.count("x") == board.count("o") else "o"
    results = [minimax(board[:i] + mark + board[i + 1 :]) for i in range(9) if board[i] == "."]
    losses = [n for v, n in results if v == "loss"]
    if losses:
        return "win", 1 + min(losses)
    ties = [n for v, n in results if v == "tie"]
    if ties:
        return "tie", 1 + min(ties)
    return "loss", 1 + max(n for _, n in results)


def all_boards() -> set[str]:
    seen, todo = set(), ["." * 9]
    while todo:
        b = todo.pop()
        if b in seen:
            continue
        seen.add(b)
        if minimax(b)[1] == 0:
            continue
        mark = "x" if b.count("x") == b.count("o") else "o"
        todo.extend(b[:i] + mark + b[i + 1 :] for i in range(9) if b[i] == ".")
    return seen


def solved_values(graph: PositionGraph, solve) -> dict[str, tuple[str, int | None]]:  # type: ignore[no-untyped-def]
    v = solve(graph)
    return {
        k: (VALUE_NAMES[int(v.value[i])], None if v.length[i] < 0 else int(v.length[i]))
        for i, k in enumerate(graph.keys)
    }


# -- the solvers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        ChopsticksRules(),
        ChopsticksRules(rollover=True),
        ChopsticksRules(transfers=False),
        ChopsticksRules(fingers=4),
        ChopsticksRules(fingers=3, rollover=True, transfers=False),
    ],
)
def test_chopsticks_matches_a_naive_fixpoint(rules: ChopsticksRules) -> None:
    graph = Chopsticks(rules).build()
    nodes, children, final = chopsticks_reference(rules.fingers, rules.rollover, rules.transfers)
    assert sorted(graph.keys) == nodes
    for i, key in enumerate(graph.keys):
        kids = graph.edge_child[graph.edge_parent == i]
        assert sorted(graph.keys[c] for c in kids) == children[key], key
    assert solved_values(graph, retrograde.solve) == naive_values(nodes, children, final)


def test_chopsticks_start_is_a_draw() -> None:
    values = solved_values(Chopsticks().build(), retrograde.solve)
    assert values["11-11"] == ("draw", None)
    # Taps only: no position can repeat (every tap adds fingers), and someone wins.
    assert solved_values(Chopsticks(ChopsticksRules(transfers=False)).build(), retrograde.solve)[
        "11-11"
    ][0] in ("win", "loss")


def test_tictactoe_matches_plain_minimax() -> None:
    graph = TicTacToe().build()
    assert len(graph.keys) == 5478
    assert set(graph.keys) == all_boards()
    values = solved_values(graph, levels.solve)
    assert values["." * 9] == ("tie", 9)
    assert values == {b: minimax(b) for b in graph.keys}
    # Retrograde analysis agrees on a graph without cycles.
    assert solved_values(graph, retrograde.solve) == values


@st.composite
def random_graphs(draw: st.DrawFn, acyclic: bool) -> PositionGraph:
    """A random game graph: finals win/loss/tie, moves anywhere (or only upwards)."""
    n = draw(st.integers(2, 14))
    final = [draw(st.sampled_from([NOT_FINAL, NOT_FINAL, WIN, LOSS, TIE])) for _ in range(n)]
    final[0] = NOT_FINAL
    edges = set()
    for p in range(n):
        if final[p] != NOT_FINAL:
            continue
        targets = range(p + 1, n) if acyclic else [x for x in range(n) if x != p]
        kids = draw(st.sets(st.sampled_from(list(targets)), min_size=1)) if targets else set()
        if not kids:
            final[p] = TIE
        edges |= {(p, c) for c in kids}
    edge = sorted(edges)
    return PositionGraph(
        keys=[f"n{i:02d}" for i in range(n)],
        level=np.arange(n, dtype=np.int32) if acyclic else np.zeros(n, dtype=np.int32),
        final=np.array(final, dtype=np.int8),
        edge_parent=np.array([p for p, _ in edge], dtype=np.int32),
        edge_child=np.array([c for _, c in edge], dtype=np.int32),
        edge_rank=np.array([c for _, c in edge], dtype=np.int32),
        start=0,
        acyclic=acyclic,
    )


def reference_of(graph: PositionGraph) -> dict[str, tuple[str, int | None]]:
    children = {k: [] for k in graph.keys}
    for p, c in zip(graph.edge_parent, graph.edge_child, strict=True):
        children[graph.keys[p]].append(graph.keys[c])
    final = {graph.keys[i]: VALUE_NAMES[f] for i, f in enumerate(graph.final) if f >= 0}
    return naive_values(graph.keys, children, final)


@settings(max_examples=300, deadline=None)
@given(random_graphs(acyclic=False))
def test_retrograde_equals_the_naive_fixpoint(graph: PositionGraph) -> None:
    assert solved_values(graph, retrograde.solve) == reference_of(graph)


@settings(max_examples=200, deadline=None)
@given(random_graphs(acyclic=True))
def test_level_sweep_and_retrograde_agree_without_cycles(graph: PositionGraph) -> None:
    a, b = levels.solve(graph), retrograde.solve(graph)
    for field in ("value", "length", "best", "reachable"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert solved_values(graph, levels.solve) == reference_of(graph)


def test_best_move_keeps_the_draw() -> None:
    graph = Chopsticks().build()
    v = retrograde.solve(graph)
    drawn = np.flatnonzero(v.value == DRAW)
    assert len(drawn) and (v.value[v.best[drawn]] == DRAW).all()


# -- the store, the CLI and play -------------------------------------------------------------


@pytest.fixture
def games_store(store: Store) -> Store:
    store.solve("chopsticks")
    store.solve("tictactoe")
    return store


def test_lookups_of_games(games_store: Store) -> None:
    start = games_store.solution("chopsticks").lookup()
    assert start.fragment == "11-11" and start.outcome is Outcome.DRAW
    assert start.game_length is None and start.to_move is None
    assert [p.move for p in start.plays] == ["1>1"]  # every tap of the start is the same
    # A draw lists its drawing moves, and counts them.
    pos = games_store.solution("chopsticks").lookup("12-11")
    drawing = [p.move for p in pos.plays if p.outcome is Outcome.DRAW]
    assert drawing and pos.drawing_moves == len(drawing) and pos.best_move in drawing
    assert (
        games_store.solution("chopsticks").lookup("21 / 11").fragment == "12-11"
    )  # canonical form
    board = games_store.solution("tictactoe").lookup("x...o....")
    assert board.outcome is Outcome.TIE and board.to_move == 0
    assert board.as_dict()["plays"][0]["category"] == "tie"
    with pytest.raises(DeadFragment, match="can reach"):
        games_store.solution("chopsticks").lookup("44-44")
    with pytest.raises(NotForThisGame, match="word-game notion"):
        games_store.solution("chopsticks").strategy()


def test_each_rule_option_changes_the_solution(games_store: Store) -> None:
    rule_sets = [
        ChopsticksRules(),
        ChopsticksRules(fingers=4),
        ChopsticksRules(rollover=True),
        ChopsticksRules(transfers=False),
    ]
    answers = set()
    for rules in rule_sets:
        games_store.solve("chopsticks", rules)
        report = {r.rules: r for r in games_store.report("chopsticks")}[rules]
        answers.add((report.fragment_count, tuple(sorted(report.outcomes.items()))))
    assert len(answers) == len(rule_sets)


def test_line_of_a_draw_is_a_cycle(games_store: Store) -> None:
    found = games_store.solution("chopsticks").line()
    assert found.cycle
    path = found.endings[0].path
    assert path[-1] in path[:-1]
    assert all(games_store.solution("chopsticks").lookup(k).outcome is Outcome.DRAW for k in path)
    tie = games_store.solution("tictactoe").line()
    assert not tie.cycle and len(tie.endings[0].path) == 10
    assert minimax(tie.endings[0].path[-1]) == ("tie", 0)


def test_computer_holds_a_draw_and_a_tie(games_store: Store) -> None:
    with pytest.warns(DeprecationWarning, match="write seats="):  # the keyword's old name
        report = games_store.solution("chopsticks").selfplay(
            players="optimal,optimal", games=20, seed=1
        )
    assert report.draws == 20 and report.wins == (0, 0)
    report = games_store.solution("tictactoe").selfplay(seats="optimal,optimal", games=20, seed=1)
    assert report.draws == 20
    # Against random play the optimal computer never loses tic-tac-toe.
    report = games_store.solution("tictactoe").selfplay(seats="optimal,random", games=60, seed=2)
    assert report.losses[0] == 0 and report.wins[0] > 0


def test_a_human_game_of_tictactoe(games_store: Store) -> None:
    game = games_store.solution("tictactoe").new_game(seats="human,human")
    for move in ["1", "4", "2", "5"]:
        game.play(move)
    with pytest.raises(BadMove, match="taken"):
        game.play("1")
    game.play("3")
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.reason == "X completed a line"


def test_game_names_are_reserved(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("cat\ndog\n")
    with pytest.raises(NameConflict, match="name of a game"):
        store.ingest(path, name="chopsticks")


def test_cli_on_games(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    assert run("solve", "chopsticks", "--all", db=db)[0] == 0
    assert run("solve", "tictactoe", db=db)[0] == 0
    code, out, _ = run("games", db=db)
    assert code == 0 and "chopsticks/5/rollover" in out and "--fingers" in out
    code, out, _ = run("lookup", "chopsticks", db=db)
    assert code == 0 and "draws" in out and "drawing moves: 1" in out
    code, out, _ = run("line", "chopsticks", db=db)
    assert code == 0 and "cycle" in out
    code, out, _ = run("report", "chopsticks", "--json", db=db)
    rows = json.loads(out)["solutions"]
    assert {r["rules"] for r in rows} == {
        "chopsticks/5",
        "chopsticks/5/rollover",
        "chopsticks/5/no-transfers",
        "chopsticks/5/rollover/no-transfers",
    }
    assert all(sum(r["positions_by_outcome"].values()) == r["fragments"] for r in rows)
    code, out, _ = run("play", "tictactoe", "--moves", "5", "--json", "--seed", "1", db=db)
    data = json.loads(out)
    assert code == 0 and data["position"]["fragment"] == "....x...."
    assert data["reply"]["move"] in {"1", "3", "7", "9"}  # only corners hold the tie
    before = dump(db)
    for args, message in [
        (("lookup", "chopsticks", "--min-length", "4"), "--min-length is not a rule option"),
        (("lookup", "tictactoe", "--fingers", "4"), "--fingers is not a rule option"),
        (("strategy", "chopsticks"), "word-game notion"),
        (("lookup", "chopsticks", "--fingers", "4"), "not solved for Chopsticks"),
        (("lookup", "tictactoe", "xx"), "not a tic-tac-toe board"),
        (("play", "tictactoe", "--moves", "5,5"), "taken"),
        (("lookup", "chopsticks", "ab-cd"), "not a Chopsticks position"),
    ]:
        code, out, err = run(*args, db=db)
        assert code == 1 and out == "", args
        assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err
    assert dump(db) == before


# -- structure ---------------------------------------------------------------------------------


def test_tictactoe_key_checks() -> None:
    game = TicTacToe(TicTacToeRules())
    assert game.clean_key("X__ _O_ ___") == "x...o...."
    with pytest.raises(Exception, match="X moves first"):
        game.clean_key("oo.......")
