"""Every registered game on every surface a user reaches from the command line.

The tests enumerate `ghostdb.games.registry.GAMES`, so a game added there is played,
solved, looked up, lined, reported, verified and self-played here without a line of this
file changing.  Ghost is played over a small word list written here; every other game at
its default rules.  One database, solved once for the module through the command line,
serves every test.

The console is driven as users drive it: through a pseudo-terminal, a human seat typing
legal moves picked from the stored lookup (plus one move that is not legal, and ``?``),
and through a pipe with every input line given up front, against computer seats.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
from conftest import copy_db, run, write_list

from ghostdb import Store, open_store
from ghostdb.cli.console import HELP
from ghostdb.errors import BadMove
from ghostdb.games.base import Game
from ghostdb.games.registry import GAMES
from ghostdb.play.engine import HUMAN, Match
from ghostdb.store.answers.solution import Solution
from ghostdb.values import Outcome, Play, Position

WORDS = "cat cow dog door dot toad"
DICTIONARY = "tiny"
SEATS = ("human,computer", "computer,human", "computer,computer")
SEED = 3
NOT_A_MOVE = "!!"
"""A line no game's notation reads as a move."""

EVERY_GAME = pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
EVERY_SEATING = pytest.mark.parametrize("seats", SEATS)
ANNOUNCED = re.compile(r"player \d \(\w+\) plays (\S+):")
RESULT = re.compile(r"^(player \d \(\w+\) (wins|loses): |nobody wins: )")
FLIPPED = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN}


def name_of(game: type[Game]) -> str:
    """The stored name a game is played under: the word list, or the game's own name."""
    return DICTIONARY if game.word_game else game.name


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database with every game solved at its default rules, through the command
    line (Connect Four 4 × 4 takes the longest: about a second)."""
    path = tmp_path_factory.mktemp("every-game") / "ghost.db"
    words = write_list(path.parent, WORDS, DICTIONARY)
    code, _, err = run("ingest", str(words), db=path)
    assert code == 0, err
    for game in GAMES:
        code, out, err = run("solve", name_of(game), db=path)
        assert code == 0 and out.startswith(f"solved {name_of(game)} "), err
    return path


@pytest.fixture(scope="module")
def solved(db: Path) -> Iterator[Store]:
    with open_store(str(db), create=False) as store:
        yield store


def spawn(*args: str, db: Path) -> pexpect.spawn:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "ghostdb", *args, "--db", str(db)],
        env=env,
        encoding="utf-8",
        timeout=30,
    )


def flat(text: str) -> str:
    """Text with every run of white space made one space: wrapped lines read as one."""
    return " ".join(text.split())


def best_play(position: Position) -> Play:
    return next(p for p in position.plays if p.move == position.best_move)


# -- the console, through a pseudo-terminal ----------------------------------------------------


@EVERY_GAME
@EVERY_SEATING
def test_console_in_a_terminal(game: type[Game], seats: str, db: Path, solved: Store) -> None:
    """Each human move is a legal move of the stored position the announced moves reach;
    the first prompt also gets a line that is not a move (one line of error, the same
    prompt again) and ``?`` (every legal move listed)."""
    name = name_of(game)
    replica = solved.solution(name).new_game("human,human")  # follows the announced moves
    rng = random.Random(SEED)
    child = spawn("play", name, "--players", seats, "--seed", str(SEED), db=db)
    transcript, probed, moves = "", False, ""
    while True:
        found = child.expect([r"player (\d)> ", r"\nmoves: ([^\r\n]*)\r?\n"])
        transcript += child.before + child.after
        _follow(replica, transcript)
        if found == 1:
            moves = child.match[1].strip()
            break
        player = int(child.match[1])
        assert seats.split(",")[player] == HUMAN and replica.to_move == player
        if not probed:
            _probe(child, replica, player)
            probed = True
        child.sendline(rng.choice(replica.plays()).move)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, transcript
    assert probed == (HUMAN in seats)
    _check_ending(transcript, replica, moves)
    assert flat(replica.game.move_hint()) in flat(transcript)


def _follow(replica: Match, transcript: str) -> None:
    """Make on ``replica`` the moves announced in ``transcript`` that it has not made."""
    for move in ANNOUNCED.findall(transcript)[len(replica.history) :]:
        replica.play(move)


def _probe(child: pexpect.spawn, replica: Match, player: int) -> None:
    """A line that is not a move, then ``?``, each answered before the same prompt."""
    prompt = f"player {player}> "
    child.sendline(NOT_A_MOVE)
    child.expect_exact(prompt)
    echoed, error = child.before.strip().splitlines()  # the terminal echoes what was typed
    assert echoed.strip() == NOT_A_MOVE
    assert error.startswith(f"{NOT_A_MOVE!r} is not a") and error.endswith(HELP), error
    child.sendline("?")
    child.expect_exact(prompt)
    rows = {line.split()[0] for line in child.before.splitlines()[1:] if line.strip()}
    assert {p.move for p in replica.plays()} <= rows


def _moves_line(transcript: str) -> str:
    return transcript.rstrip().rsplit("moves: ", 1)[1].strip()


def _check_ending(transcript: str, replica: Match, moves: str) -> None:
    """The transcript ends with a result line and every move, as the replica played it."""
    assert replica.result is not None, transcript
    assert moves == " ".join(t.move for t in replica.history)
    lines = [line.strip() for line in transcript.splitlines() if line.strip()]
    result = lines[-2]
    assert RESULT.match(result) and replica.result.reason in result, result


# -- the console, through a pipe ---------------------------------------------------------------


@EVERY_GAME
@EVERY_SEATING
def test_console_through_a_pipe(game: type[Game], seats: str, db: Path, solved: Store) -> None:
    """Every input line given at once: the same match played through the API with the same
    seed tells which moves to type and how the game ends."""
    name = name_of(game)
    match = solved.solution(name).new_game(seats, seed=SEED)
    rng = random.Random(SEED)
    typed = [NOT_A_MOVE, "?"]  # read at the first human prompt, if there is one
    while match.result is None:
        if match.seat() == HUMAN:
            typed.append(rng.choice(match.plays()).move)
            match.play(typed[-1])
        else:
            match.computer_move()
    command = ["play", name, "--players", seats, "--seed", str(SEED), "--db", str(db)]
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", *command],
        input="\n".join(typed) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    out = proc.stdout
    assert "\x1b" not in out
    _check_ending(out, match, _moves_line(out))
    human = [t for t in match.history if match.seat(t.player) == HUMAN]
    for turn in human:
        assert f"player {turn.player}> {turn.move}" in out.splitlines()
    if human:
        first = human[0].player
        lines = out.splitlines()
        at = lines.index(f"player {first}> {NOT_A_MOVE}")
        assert lines[at + 1].startswith(f"{NOT_A_MOVE!r} is not a")
        assert lines[at + 2] == f"player {first}> ?"


@EVERY_GAME
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_computers_end_as_the_solution_says(
    game: type[Game], seed: int, db: Path, solved: Store
) -> None:
    """Optimal against optimal, the console's result line states the start's stored value:
    the side that wins, or nobody (a tie, or a draw that can only end when a position comes
    again, as in Chopsticks).  A crash or a wrong ending in any game shows here first."""
    name = name_of(game)
    outcome = solved.solution(name).lookup().outcome
    code, out, err = run("play", name, "--players", "computer,computer", "--seed", str(seed), db=db)
    assert code == 0, err
    result = [line for line in out.splitlines() if line.strip()][-2]
    if outcome in (Outcome.TIE, Outcome.DRAW):
        assert result.startswith("nobody wins: "), result
        assert ("came again" in result) == (outcome is Outcome.DRAW), result
        return
    winner, loser = (0, 1) if outcome is Outcome.WIN else (1, 0)
    assert (
        f"player {winner} (optimal) wins" in result or f"player {loser} (optimal) loses" in result
    ), result


def _refused_move(solution: Solution, plies: int = 12) -> tuple[list[str], str, str] | None:
    """Moves along the stored best line, then a move in the game's own notation that is
    legal elsewhere on that line but not where it is typed (a taken square, a hand that
    is out), with the engine's reason for refusing it; None if every such move is one the
    game plays (in Ghost, any letter)."""
    line = solution.new_game("human,human")
    seen: list[str] = []
    for _ in range(plies):
        if line.result is not None:
            return None
        legal = {p.move for p in line.plays()}
        seen += [move for move in sorted(legal) if move not in seen]
        for move in seen:
            if move in legal:
                continue
            trial = solution.new_game("human,human")
            for earlier in line.history:
                trial.play(earlier.move)
            try:
                trial.play(move)
            except BadMove as exc:
                return [t.move for t in line.history], move, str(exc)
        line.play(line.position.best_move or next(iter(legal)))
    return None


@EVERY_GAME
def test_a_legal_looking_move_that_is_not_legal_here(
    game: type[Game], db: Path, solved: Store
) -> None:
    """A move in the game's notation that the position does not allow gets one line of
    reason and the same prompt again: the game goes on (a game that words every such move
    as a losing play, as Ghost does, has none to refuse)."""
    name = name_of(game)
    solution = solved.solution(name)
    found = _refused_move(solution)
    if found is None:
        assert solution.game.dead_play("", []) is not None
        return
    moves, refused, reason = found
    command = ["play", name, "--players", "human,human", "--db", str(db)]
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", *command],
        input="\n".join([*moves, refused, "quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    player = len(moves) % 2
    at = lines.index(f"player {player}> quit")
    assert lines[at - 2] == f"player {player}> {refused}", lines
    assert lines[at - 1] == f"{reason}; {HELP}", lines
    assert lines[-1].startswith(f"player {player} (human) quit at ")


# -- self-play ---------------------------------------------------------------------------------


@EVERY_GAME
def test_selfplay(game: type[Game], db: Path, solved: Store) -> None:
    """Optimal against optimal always ends as the solution says; any strategies tally
    every game once."""
    name = name_of(game)
    solution = solved.solution(name)
    start = solution.lookup()
    report = solution.selfplay(("optimal", "optimal"), games=8, seed=SEED)
    expected = {
        Outcome.WIN: ((8, 0), 0),
        Outcome.LOSS: ((0, 8), 0),
        Outcome.TIE: ((0, 0), 8),
        Outcome.DRAW: ((0, 0), 8),
    }[start.outcome]
    assert (report.wins, report.draws) == expected
    code, out, err = run(
        "selfplay", name, "--players", "rational,random", "--games", "20", "--json", db=db
    )
    assert code == 0, err
    data = json.loads(out)
    assert sum(data["wins"]) + data["draws"] == 20 and data["wins"] == data["losses"][::-1]
    assert sum(data["final_words"].values()) == 20
    code, out, err = run("selfplay", name, "--games", "5", "--seed", "1", db=db)
    assert code == 0 and "5 games" in out, err


# -- the other surfaces ------------------------------------------------------------------------


@EVERY_GAME
def test_solve_is_done_once(game: type[Game], db: Path, solved: Store) -> None:
    name = name_of(game)
    assert solved.solve(name).skipped
    code, out, _ = run("solve", name, db=db)
    assert code == 0 and "already solved" in out


@EVERY_GAME
def test_lookup_at_the_start_and_one_move_on(game: type[Game], db: Path, solved: Store) -> None:
    """The best move's position holds the value the start's play promised, through the API
    and the command line (text and ``--json``)."""
    name = name_of(game)
    solution = solved.solution(name)
    start = solution.lookup()
    assert start.fragment == solution.game.start() and start.plays
    best = best_play(start)
    after = solution.lookup(best.fragment)
    assert (after.outcome, after.game_length) == (best.outcome, best.game_length)
    assert start.outcome == FLIPPED.get(best.outcome, best.outcome)
    if start.game_length is not None:
        assert start.game_length == best.game_length + 1
    for position, args in ((start, ()), (after, (after.fragment,))):
        code, out, err = run("lookup", name, *args, db=db)
        assert code == 0, err
        assert f"best move {position.best_move}" in out or position.is_final
        code, out, err = run("lookup", name, *args, "--json", db=db)
        assert code == 0, err
        data = json.loads(out)
        assert data["fragment"] == position.fragment
        assert data["outcome"] == position.outcome.value
        assert data["best_move"] == position.best_move
        assert sorted(p["move"] for p in data["plays"]) == sorted(p.move for p in position.plays)


@EVERY_GAME
def test_line(game: type[Game], db: Path, solved: Store) -> None:
    name = name_of(game)
    solution = solved.solution(name)
    lines = solution.line()
    assert lines.tree.outcome == solution.lookup().outcome
    assert lines.endings or lines.cycle
    code, out, err = run("line", name, db=db)
    assert code == 0 and out.startswith(name), err
    code, out, err = run("line", name, "--json", db=db)
    assert code == 0, err
    assert json.loads(out)["outcome"] == lines.tree.outcome.value


@EVERY_GAME
def test_report(game: type[Game], db: Path, solved: Store) -> None:
    name = name_of(game)
    solution = solved.solution(name)
    (row,) = solved.report(name)
    assert row.rules.key == solution.rules.key
    assert row.outcome == solution.lookup().outcome
    assert sum(row.outcomes.values()) == row.fragment_count > 1
    code, out, err = run("report", name, db=db)
    assert code == 0 and out.count("\n") >= 3, err
    code, out, err = run("report", name, "--json", db=db)
    assert code == 0, err
    (data,) = json.loads(out)["solutions"]
    assert data["rules"] == row.rules.key and data["outcome"] == row.outcome.value


@EVERY_GAME
def test_verify_is_clean(game: type[Game], db: Path, solved: Store) -> None:
    name = name_of(game)
    verdicts = solved.verify(name)
    assert verdicts and all(v.ok for v in verdicts), [v.findings for v in verdicts]
    code, out, err = run("verify", name, db=db)
    assert code == 0 and ": ok (" in out, err


@EVERY_GAME
def test_pack_probe_and_verify_of_the_pack(
    game: type[Game], db: Path, solved: Store, tmp_path: Path
) -> None:
    """The solution packed through the command line answers as the store, and its
    pack verifies (against the store too)."""
    name = name_of(game)
    path = tmp_path / f"{name}.ghostpack"
    code, out, err = run("pack", name, "-o", str(path), db=db)
    assert code == 0 and "bytes" in out, err
    solution = solved.solution(name)
    start = solution.lookup()
    after = solution.lookup(best_play(start).fragment)
    for position in (start, after):
        probe = [sys.executable, "-m", "ghostdb", "probe", str(path), position.fragment, "--json"]
        done = subprocess.run(probe, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == json.loads(json.dumps(position.as_dict()))
    code, out, err = run("verify", str(path), db=db)
    assert code == 0 and "agrees with the store" in out, err


@EVERY_GAME
def test_quit_names_the_position(game: type[Game], db: Path, solved: Store) -> None:
    """``quit`` (or the end of input) ends the game where it stands, in the game's words."""
    name = name_of(game)
    start = solved.solution(name).game.start()
    proc = subprocess.run(
        [sys.executable, "-m", "ghostdb", "play", name, "--db", str(db)],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    label = solved.solution(name).game.label(start)
    assert f"player 0 (human) quit at {label}; moves: none" in proc.stdout.splitlines()


@pytest.mark.parametrize(
    ("game", "players"),
    [(game, 2) for game in GAMES] + [(game, 3) for game in GAMES if game.word_game],
    ids=lambda x: x if isinstance(x, int) else x.name,
)
def test_counted_moves_are_the_graphs(
    game: type[Game], players: int, db: Path, solved: Store, tmp_path: Path
) -> None:
    """The winning and drawing moves a lookup counts from the plays it reads (they are
    not stored) are those of the game's graph, counted here over its edges from the
    solver's values, at every position (a sample of Connect Four's): the moves to a
    position lost, or drawn, for its mover; for more than two players, the moves that
    keep the mover safe (solved in a copy of the module's database).  A move back to the
    same position is no play."""
    import random as rnd
    import shutil

    import numpy as np

    from ghostdb import solvers
    from ghostdb.games.base import DRAW, LOSS
    from ghostdb.solvers import safety

    name = name_of(game)
    rules = solved.solution(name).game.rules
    with contextlib.ExitStack() as stack:
        store = solved
        if players > 2:
            shutil.copy(db, tmp_path / "copy.db")
            store = stack.enter_context(open_store(str(tmp_path / "copy.db"), create=True))
            rules = type(rules).from_key(f"{rules.key}/{players}p")
            store.solve(name, rules)
        solution = store.solution(name, rules)
        words = store.words(name, rules.min_length) if game.word_game else None
        graph = solution.game.build(words)
        parent, child = graph.edge_parent, graph.edge_child
        play = child != parent
        if players > 2:
            _, safe = safety.values(graph, players, rules.misere)
            mover = 1 << (graph.level[parent] % players)
            winning, drawing = play & ((safe[child] & mover) != 0), np.zeros_like(play)
        else:
            value = solvers.solve(graph).value
            winning, drawing = play & (value[child] == LOSS), play & (value[child] == DRAW)
        wins = np.bincount(parent, weights=winning, minlength=graph.size).astype(int)
        draws = np.bincount(parent, weights=drawing, minlength=graph.size).astype(int)
        for i in rnd.Random(0).sample(range(graph.size), min(graph.size, 3000)):
            position = solution.lookup(graph.keys[i])
            expected = (wins[i], draws[i])
            assert (position.winning_moves, position.drawing_moves) == expected, graph.keys[i]


# -- one vocabulary (the manual's glossary) -------------------------------------------------


def glossary_outcomes() -> tuple[set[str], set[str]]:
    """The outcome words the glossary defines: as values (win, loss, …) and as verbs
    (wins, loses, …)."""
    text = (Path(__file__).resolve().parent.parent / "docs/reference/glossary.md").read_text()
    values = re.search(r"\*\*(win, loss, tie, draw)\*\* \(the outcomes\)", text)
    verbs = re.search(r"they are verbs: \*(\w+)\*, \*(\w+)\*, \*(\w+)\*, \*(\w+)\*", text)
    assert values and verbs, "the glossary no longer defines the outcome words"
    return set(values[1].split(", ")), set(verbs.groups())


OUTCOME_KEYS = ("outcome", "category", "outcome_for_mover", "outcome_for_next_player")


def _outcome_words(answer: Any) -> Iterator[str]:
    """Every value of an outcome's key (`OUTCOME_KEYS`) in a JSON answer."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key in OUTCOME_KEYS and value is not None:
                yield value
            yield from _outcome_words(value)
    elif isinstance(answer, list):
        for item in answer:
            yield from _outcome_words(item)


@EVERY_GAME
def test_every_surface_speaks_the_glossarys_outcomes(
    game: type[Game], db: Path, solved: Store
) -> None:
    """`lookup`'s text and --json and the API's position answer use the glossary's
    outcome words only, and name a position ``position`` (``fragment`` its alias)."""
    from fastapi.testclient import TestClient

    from ghostdb.web import create_app

    values, verbs = glossary_outcomes()
    name = name_of(game)
    start = solved.solution(name).lookup()
    keys = ["", best_play(start).fragment]
    with TestClient(create_app(solved)) as client:
        for key in keys:
            code, out, err = run("lookup", name, *([key] if key else []), "--json", db=db)
            assert code == 0, err
            answers = [
                json.loads(out),
                client.get(f"/api/{name}/position", params={"position": key}).json(),
            ]
            for answer in answers:
                assert set(_outcome_words(answer)) <= values, answer
                assert answer["position"] == answer["fragment"] == (key or start.fragment)
                assert all(p["position"] == p["fragment"] for p in answer["plays"])
            code, out, err = run("lookup", name, *([key] if key else []), db=db)
            said = re.search(r"(?:player \d|the player) to move (\w+)", out)
            assert said is None or said[1] in verbs, out
            lines = out.splitlines()
            head = next(i for i, line in enumerate(lines) if "  for " in line)
            at = [c.startswith("for ") for c in re.split(r"\s{2,}", lines[head])].index(True)
            column = {re.split(r"\s{2,}", line.strip())[at] for line in lines[head + 2 :] if line}
            assert column <= verbs, out


VERDICT = re.compile(r"(\d[\d,]*) (word|sequence)s?, (all won|all lost|[\d,]+ lost)")


def glossary_plan_verdicts() -> set[str]:
    """How the glossary says a plan's outcomes end: *all won*, *all lost*, *N lost*."""
    text = (Path(__file__).resolve().parent.parent / "docs/reference/glossary.md").read_text()
    said = re.search(r"said\s+as\s+\*([\w ]+)\*,\s+\*([\w ]+)\*\s+or\s+\*([\w ]+)\*", text)
    assert said, "the glossary no longer says how a plan's outcomes end"
    return set(said.groups())


def _in_glossary(verdict: str, said: set[str]) -> bool:
    return verdict in said or re.sub(r"^[\d,]+ ", "N ", verdict) in said


def test_a_plan_reads_the_same_on_every_surface(tmp_path: Path) -> None:
    """A best plan's size and how its outcomes end, in the words the glossary gives, the
    same in `report`, `compare` and `survey` (text and --json) and the API's report and
    comparison: ENABLE's words of q, x and z, where player 0's plan loses one outcome."""
    from conftest import shared_list
    from fastapi.testclient import TestClient

    from ghostdb.web import create_app

    said = glossary_plan_verdicts()
    words = [w for w in shared_list("enable1.txt").read_text().split() if w[0] in "qxz"]
    db = tmp_path / "ghost.db"
    assert run("ingest", str(write_list(tmp_path, " ".join(words), "qz")), db=db)[0] == 0
    for length in ("3", "4"):
        assert run("solve", "qz", "--min-length", length, db=db)[0] == 0
    seen: dict[tuple[str, int], set[tuple[int, str]]] = {}

    def saw(rules: str, player: int, outcomes: int, verdict: str) -> None:
        assert _in_glossary(verdict, said), verdict
        seen.setdefault((rules, player), set()).add((outcomes, verdict))

    def verdict(outcomes: int, lost: int) -> str:
        return "all won" if lost == 0 else "all lost" if lost == outcomes else f"{lost:,} lost"

    def texts(out: str, rules: list[str]) -> None:
        rows = [line for line in out.splitlines() if VERDICT.search(line)]
        assert len(rows) == len(rules), out
        for line, key in zip(rows, rules, strict=True):
            for player, m in enumerate(VERDICT.finditer(line)):
                saw(key, player, int(m[1].replace(",", "")), m[3])

    out = run("report", "qz", db=db)[1]
    texts(out, ["ghost/3", "ghost/4"])
    out = run("survey", db=db)[1]
    texts(out, ["ghost/3", "ghost/4"])
    out = run("compare", "qz", "--min-length", "3", "--vs-min-length", "4", db=db)[1]
    plans = [line for line in out.splitlines() if "best plan" in line]
    for player, line in enumerate(plans):
        for key, m in zip(("ghost/3", "ghost/4"), VERDICT.finditer(line), strict=True):
            saw(key, player, int(m[1].replace(",", "")), m[3])
    with open_store(db, readonly=True) as store, TestClient(create_app(store)) as client:
        compared = [
            json.loads(
                run("compare", "qz", "--min-length", "3", "--vs-min-length", "4", "--json", db=db)[
                    1
                ]
            ),
            client.get(
                "/api/compare", params={"a": "qz", "rules": "ghost/3", "vs_rules": "ghost/4"}
            ).json(),
        ]
        for c in compared:
            for side in (c["a"], c["b"]):
                for player, (plan, lost) in enumerate(
                    zip(side["plans"], side["lost"], strict=True)
                ):
                    saw(side["rules"], player, plan["outcomes"], verdict(plan["outcomes"], lost))
        reports = [json.loads(run("report", "qz", "--json", db=db)[1])]
        reports.append(client.get("/api/qz/report").json())
        for report in reports:
            for row in report["solutions"]:
                for player, key in enumerate(("first_player_plan", "second_player_plan")):
                    plan = row[key]
                    saw(
                        row["rules"],
                        player,
                        plan["outcomes"],
                        verdict(plan["outcomes"], plan["losses"]),
                    )
    assert set(seen) == {(r, p) for r in ("ghost/3", "ghost/4") for p in (0, 1)}
    assert all(len(v) == 1 for v in seen.values()), seen
    assert ("ghost/3", 0) in seen and next(iter(seen["ghost/3", 0]))[1] == "1 lost"


# -- a room -------------------------------------------------------------------------------------


@EVERY_GAME
def test_every_game_plays_a_room_to_its_end(db: Path, tmp_path: Path, game: type[Game]) -> None:
    """A person (through the room's socket, as any client) against the optimal computer,
    one life: moves picked from the stored lookup until the match ends with its game."""

    from test_room_sockets import Socket, served

    copy = tmp_path / "rooms.db"  # rooms write: the module's database stays as it is
    copy_db(db, copy)
    name = name_of(game)
    with served(copy) as (client, _hub), open_store(str(copy), create=False) as store:
        made = client.post(
            "/api/rooms",
            json={
                "name": name,
                "seats": ["human", "optimal"],
                "lives": 1,
                "clock": None,
                "player": "Ann",
            },
        )
        assert made.status_code == 201, made.text
        room = made.json()
        solution = store.solution(name)
        ann = Socket(client, room["room"])
        state = ann.hello(room["token"])["state"]
        order, turn = state["round"]["seats"], state["round"]["turn"]
        position = state["round"]["position"]
        for _ in range(200):
            plays = solution.lookup(position).plays if turn == 0 else ()
            if plays:  # none at the game's end: its round_over is on its way
                play = next((p for p in plays if not p.is_final), plays[0])
                ann.send(op="move", move=play.move)
                turn = None  # until the move comes back
            message = ann.next()
            assert message["type"] != "error", message
            if message["type"] == "moved":
                position = message["position"]
                turn = order[(order.index(message["seat"]) + 1) % len(order)]
            elif message["type"] == "round_over":
                turn = None
            elif message["type"] == "match_over":
                break
        else:
            pytest.fail(f"{game.name}: the room's match did not end")
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["status"] == "over" and record["rounds"]
        assert record["rounds"][-1]["verdicts"], "every round is graded"
        ann.close()
