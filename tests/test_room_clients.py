"""The rooms' other clients against a real server: `ghostdb join` through a pipe and a
pseudo-terminal, its one-line failures, and the manual's example bot (the protocol page's
Python block, run as printed)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from test_room_server import Server, db, server  # noqa: F401 - the fixtures used here
from websockets.sync.client import connect

JOIN = [sys.executable, "-m", "ghostdb", "join"]


def new_room(at: Server, seats: list[str], player: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": "five", "seats": seats, "lives": 1, "clock": None}
    if player:
        body["player"] = player
    return at.post("/api/rooms", body)


def test_join_through_a_pipe_concedes_and_the_computer_wins(server: Server) -> None:  # noqa: F811
    made = new_room(server, ["human", "optimal"])
    link = f"{server.base}/rooms/{made['room']}"
    done = subprocess.run(
        [*JOIN, link, "--name", "Ann"],
        input="?\nconcede\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "you are seat 0" in out and "type a move" in out
    assert "you conceded the round" in out or "Ann conceded the round" in out
    assert "computer (optimal) won the match" in out
    assert made.get("token") is None or made["token"] not in out + done.stderr


def test_join_in_a_terminal_plays_a_letter_against_the_computer(server: Server) -> None:  # noqa: F811
    pexpect = pytest.importorskip("pexpect", reason="needs pexpect: pip install -e '.[dev]'")
    made = new_room(server, ["human", "optimal"])
    link = f"{server.base}/rooms/{made['room']}"
    child = pexpect.spawn(JOIN[0], [*JOIN[1:], link, "--name", "Ann"], encoding="utf-8", timeout=30)
    try:
        child.expect("your move>")
        child.sendline("t")
        child.expect(r"you played t: t")
        child.expect(r"computer \(optimal\) played \w: t\w")  # its answer, through the server
        child.expect("your move>")
        child.sendline("concede")
        child.expect("won the match")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_join_draws_a_board_game_and_plays_it_to_its_end(server: Server) -> None:  # noqa: F811
    pexpect = pytest.importorskip("pexpect", reason="needs pexpect: pip install -e '.[dev]'")
    made = server.post(
        "/api/rooms", {"name": "tictactoe", "seats": ["human", "optimal"], "clock": None}
    )
    link = f"{server.base}/rooms/{made['room']}"
    child = pexpect.spawn(JOIN[0], [*JOIN[1:], link, "--name", "Ann"], encoding="utf-8", timeout=30)
    row = r"    ([xo.]) ([xo.]) ([xo.])\r?\n"
    played = 0
    try:
        child.expect(row * 3)  # the empty board, as the console draws it
        board = "".join(child.match.groups())
        assert board == "." * 9
        ends = ["your move>", "won the match", "ends with no winner", row * 3]
        while (found := child.expect(ends)) != 1 and found != 2:
            if found == 3:  # the computer's move drawn
                board = "".join(child.match.groups())
                continue
            if not played:  # the help says how this game's moves are typed
                child.sendline("?")
                child.expect("here, type the number of an empty square")
            square = board.index(".")
            child.sendline(str(square + 1))
            child.expect(rf"you played {square + 1}\r?\n")  # the square alone: a board follows
            child.expect(row * 3)
            board = "".join(child.match.groups())
            assert board[square] in "xo"
            played += 1
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert played >= 2 and found in (1, 2) and child.exitstatus == 0


@pytest.mark.parametrize(
    ("link", "says"),
    [
        ("not a link", "is not a room's link"),
        ("http://127.0.0.1:9/rooms/AAAAAAAAAAAAAAAAAAAAAA", "cannot reach"),
        ("ftp://example.org/rooms/AAAAAAAAAAAAAAAAAAAAAA", "is not a room's link"),
    ],
)
def test_join_with_a_bad_link_is_one_line(link: str, says: str) -> None:
    done = subprocess.run(
        [*JOIN, link, "--name", "Ann"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_join_of_an_unknown_or_full_room_is_one_line(server: Server) -> None:  # noqa: F811
    unknown = f"{server.base}/rooms/AAAAAAAAAAAAAAAAAAAAAA"
    done = subprocess.run(
        [*JOIN, unknown, "--name", "Ann"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "refused to seat you" in done.stderr
    made = new_room(server, ["human", "optimal"], player="Bob")  # Bob has the only seat
    full = f"{server.base}/rooms/{made['room']}"
    done = subprocess.run(
        [*JOIN, full, "--name", "Ann"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "refused to seat you" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_manuals_bot_plays_a_seat(server: Server, tmp_path: Path) -> None:  # noqa: F811
    page = (ROOT / "docs" / "reference" / "rooms.md").read_text()
    code = re.search(r"```python\n(.*?)```", page, re.S)[1]  # type: ignore[index]
    script = tmp_path / "bot.py"
    script.write_text(code)
    made = new_room(server, ["human", "human"], player="Ann")
    link = f"{server.base}/rooms/{made['room']}"
    bot = subprocess.Popen(
        [sys.executable, str(script), link, "Bot"], stdout=subprocess.PIPE, text=True
    )
    try:
        url = f"ws://127.0.0.1:{server.port}/api/rooms/{made['room']}/socket"
        with connect(url, open_timeout=10) as ann:
            ann.send(json.dumps({"op": "hello", "token": made["token"], "since": 0}))
            seen: list[dict[str, Any]] = []

            def until(kind: str) -> dict[str, Any]:
                while True:
                    message = json.loads(ann.recv(timeout=20))
                    seen.append(message)
                    if message["type"] == kind:
                        return message

            until("round")  # the bot has joined: the match starts, Ann to move
            ann.send(json.dumps({"op": "move", "move": "t", "id": 1}))
            assert until("moved")["seat"] == 0
            answer = until("moved")  # the bot's letter
            assert answer["seat"] == 1 and answer["position"].startswith("t")
            ann.send(json.dumps({"op": "concede", "id": 2}))
            assert until("match_over")["winners"] == [1]
        out, _ = bot.communicate(timeout=30)
    finally:
        bot.kill()
    assert bot.returncode == 0 and "Bot won the match" in out
