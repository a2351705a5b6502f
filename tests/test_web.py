"""`ghostdb serve`: the JSON API through the ASGI test client, every error path, a
schema-driven fuzz, the page's files, and the server as a process."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    OWN_WORDLISTS,
    POSTGRES_SKIP,
    copy_db,
    dump,
    each_game,
    reset_postgres,
    run,
)
from fastapi.testclient import TestClient

from ghostdb import Store, open_store
from ghostdb.games import registry
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.web import create_app
from ghostdb.web.fastlane import RULE_PARAMS, read_query
from ghostdb.web.page import page_html
from ghostdb.web.protocol import GatheringTransport

STATIC = Path(__file__).resolve().parent.parent / "ghostdb" / "web" / "static"


@pytest.fixture(scope="module")
def client(web_store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(web_store)) as c:
        yield c


@pytest.fixture(scope="module")
def small_store(small_web_db: Path) -> Iterator[Store]:
    with open_store(str(small_web_db), create=False) as store:
        yield store


@pytest.fixture(scope="module")
def small(small_store: Store) -> Iterator[TestClient]:
    """The API over five.txt: for the routes that walk whole plans."""
    with TestClient(create_app(small_store)) as c:
        yield c


def get(client: TestClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.text)
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def cli_json(db: Path, *args: str) -> Any:
    code, out, err = run(*args, "--json", db=db)
    assert code == 0, err
    return json.loads(out)


def error_of(client: TestClient, url: str, status: int) -> str:
    """The one-line message of an error answer, checking its shape."""
    body = get(client, url, status)
    assert set(body) == {"error"}
    assert body["error"] and "\n" not in body["error"]
    assert "Traceback" not in body["error"]
    return body["error"]


# -- answers equal the command line's --json -------------------------------------------------


def test_solutions_list_every_name_with_its_rule_sets(client: TestClient) -> None:
    found = {s["name"]: s for s in get(client, "/api/solutions")["solutions"]}
    assert [r["rules"] for r in found["enable1"]["rule_sets"]] == ["ghost/3", "ghost/4"]
    assert found["enable1"]["game"] == "ghost"
    assert found["enable1"]["alphabet"] == "abcdefghijklmnopqrstuvwxyz"
    assert found["enable1"]["rule_sets"][1]["description"] == "Ghost, words of 4+ letters"
    assert found["chopsticks"]["rule_sets"] == [
        {
            "rules": "chopsticks/5",
            "description": "Chopsticks, a hand dies at 5",
            "decisive": False,
            "plan_unit": None,
        }
    ]
    assert [r["decisive"] for r in found["enable1"]["rule_sets"]] == [True, True]
    assert [r["plan_unit"] for r in found["enable1"]["rule_sets"]] == ["word", "word"]
    assert found["tictactoe"]["game"] == "tictactoe"


@pytest.mark.parametrize(
    ("name", "query", "cli"),
    [
        ("enable1", "fragment=", ["lookup", "enable1"]),
        ("enable1", "fragment=gho", ["lookup", "enable1", "gho"]),
        ("enable1", "fragment=gho&min_length=4", ["lookup", "enable1", "gho", "-m", "4"]),
        ("enable1", "fragment=ghost&rules=ghost/4", ["lookup", "enable1", "ghost", "-m", "4"]),
        ("enable1", "fragment=ghostly", ["lookup", "enable1", "ghostly"]),
        ("enable1", "fragment=GHO&rules=ghost&misere=false", ["lookup", "enable1", "GHO"]),
        ("chopsticks", "", ["lookup", "chopsticks"]),
        ("chopsticks", "fragment=12-11&rules=chopsticks/5", ["lookup", "chopsticks", "12-11"]),
        ("tictactoe", "fragment=x...o....", ["lookup", "tictactoe", "x...o...."]),
        ("tictactoe", "fragment=xxxoo....", ["lookup", "tictactoe", "xxxoo...."]),
    ],
)
def test_position_is_lookup_json(
    client: TestClient, web_db: Path, name: str, query: str, cli: list[str]
) -> None:
    assert get(client, f"/api/{name}/position?{query}") == cli_json(web_db, *cli)


def test_moves_are_listed_best_first(client: TestClient) -> None:
    for url in (
        "/api/enable1/position?fragment=",
        "/api/enable1/position?fragment=n&min_length=4",
        "/api/enable1/position?fragment=q",
        "/api/tictactoe/position?fragment=x...o....",
        "/api/chopsticks/position?fragment=13-24",
    ):
        pos = get(client, url)
        ranks = [("win", "tie", "draw", "loss").index(p["category"]) for p in pos["plays"]]
        assert ranks == sorted(ranks), url
        for category, sign in (("win", 1), ("tie", 1), ("loss", -1)):
            lengths = [sign * p["game_length"] for p in pos["plays"] if p["category"] == category]
            assert lengths == sorted(lengths), url
        assert pos["plays"][0]["move"] == pos["best_move"], url


def test_plays_say_what_each_move_gets_the_mover(client: TestClient) -> None:
    pos = get(client, "/api/enable1/position?fragment=gho")
    assert pos["outcome"] == "win" and pos["winner"] == 1
    assert {p["move"]: p["category"] for p in pos["plays"]} == {"s": "win", "u": "win"}
    word = get(client, "/api/enable1/position?fragment=ghos")["plays"]
    assert {p["move"]: (p["category"], p["final"]) for p in word} == {"t": ("loss", True)}


def test_computer_moves(client: TestClient) -> None:
    base = "/api/enable1/move?rules=ghost/4"
    # The first player wins after n: optimal always answers with a winning move.
    for seed in range(20):
        reply = get(client, f"{base}&fragment=ny&seed={seed}")
        assert reply["play"]["category"] == "win" and reply["by"] == "strategy"
    fastest = get(client, f"{base}&fragment=n&strategy=fastest")
    assert (
        fastest["play"]["move"]
        == get(client, "/api/enable1/position?fragment=n&rules=ghost/4")["best_move"]
    )
    # A seed repeats the choice; skill 0 always plays at random.
    once = get(client, f"{base}&fragment=&strategy=random&seed=7")
    assert get(client, f"{base}&fragment=&strategy=random&seed=7") == once
    assert get(client, f"{base}&skill=0&seed=3")["by"] == "random"
    picks = {get(client, f"{base}&skill=0.5&seed={s}")["by"] for s in range(30)}
    assert picks == {"strategy", "random"}
    moves = {get(client, f"{base}&strategy=rational&seed={s}")["play"]["move"] for s in range(30)}
    assert moves <= {"h", "n"}  # the winning first moves
    assert get(client, "/api/tictactoe/move?fragment=xx.oo....&seed=1")["play"]["move"] == "3"
    chop = get(client, "/api/chopsticks/move?fragment=11-11")
    assert chop["play"]["move"] == "1>1" and chop["play"]["category"] == "draw"


def test_a_common_words_player_replies(client: TestClient, web_store: Store, web_db: Path) -> None:
    pytest.importorskip("wordfreq", reason="needs wordfreq: pip install 'ghostdb[freq]'")
    reply = get(client, "/api/enable1/move?fragment=q&strategy=common:2000&seed=1")
    known = web_store.solution("enable1").vocabularies(["common:2000"])["common:2000"]
    assert reply["by"] == "strategy" and reply["play"]["fragment"] in known.values
    valued = get(client, "/api/enable1/against?position=q&player=common:2000")
    cli = cli_json(web_db, "lookup", "enable1", "q", "--against", "common:2000")
    assert valued == cli["against"]
    trap = get(client, "/api/enable1/move?fragment=q&strategy=trap&seed=1")
    assert trap["by"] == "strategy" and trap["play"]["fragment"].startswith("q")
    message = error_of(client, "/api/tictactoe/move?strategy=common:20", 400)
    assert "no word game" in message
    error_of(client, "/api/enable1/move?strategy=common:0", 422)


def test_the_seeded_reply_is_the_console_games(client: TestClient, web_db: Path) -> None:
    for seed in range(5):
        reply = get(client, f"/api/enable1/move?fragment=n&rules=ghost/4&seed={seed}")
        game = cli_json(web_db, "play", "enable1", "-m", "4", "--moves", "n", "--seed", str(seed))
        assert reply["play"]["move"] == game["reply"]["move"]


@pytest.mark.parametrize(
    ("url", "cli"),
    [
        ("/api/enable1/line?fragment=n&rules=ghost/4", ["line", "enable1", "n", "-m", "4"]),
        ("/api/enable1/line", ["line", "enable1"]),
        ("/api/chopsticks/line", ["line", "chopsticks"]),
        (
            "/api/enable1/analyse?moves=t,r,e,n&rules=ghost/3",
            ["analyse", "enable1", "t", "r", "e", "n"],
        ),
        ("/api/tictactoe/analyse?moves=5,1,9", ["analyse", "tictactoe", "5", "1", "9"]),
        ("/api/chopsticks/analyse?moves=1>1", ["analyse", "chopsticks", "1>1"]),
        ("/api/enable1/puzzle?seed=5", ["puzzle", "enable1", "--seed", "5"]),
        ("/api/tictactoe/line?fragment=x........", ["line", "tictactoe", "x........"]),
        ("/api/enable1/openings?min_length=4", ["openings", "enable1", "-m", "4"]),
        ("/api/compare?a=enable1&vs_min_length=4", ["compare", "enable1", "--vs-min-length", "4"]),
        (
            "/api/compare?a=enable1&rules=ghost/4&vs_rules=ghost/3&examples=3",
            ["compare", "enable1", "-m", "4", "--vs-min-length", "3", "--examples", "3"],
        ),
    ],
)
def test_reading_routes_are_the_clis_json(
    client: TestClient, web_db: Path, url: str, cli: list[str]
) -> None:
    # The command line first: it works out and keeps a comparison the server only reads.
    expected = cli_json(web_db, *cli)
    assert get(client, url) == expected


@pytest.mark.parametrize(
    ("url", "cli"),
    [
        ("/api/five/openings?words=true", ["openings", "five", "--words"]),
        ("/api/five/openings?words=true&rules=super", ["openings", "five", "-r", "super"]),
        ("/api/five/report", ["report", "five"]),
        ("/api/chopsticks/report", ["report", "chopsticks"]),
        ("/api/tictactoe/report", ["report", "tictactoe"]),
        ("/api/five/line?rules=ghost/3/misere", ["line", "five", "--misere"]),
        (
            "/api/compare?a=five&misere=true&vs_misere=false",
            ["compare", "five", "--misere", "--vs-normal"],
        ),
    ],
)
def test_plan_routes_are_the_clis_json(
    small: TestClient, small_web_db: Path, url: str, cli: list[str]
) -> None:
    if "words=true" in url:
        cli = [*cli, "--words"]
    expected = cli_json(small_web_db, *cli)  # first: it keeps a comparison the server reads
    assert get(small, url) == expected


@pytest.mark.parametrize(
    ("query", "flags"),
    [
        ("", []),
        ("player=0", ["-p", "0"]),
        ("player=1&fragment=t", ["-p", "1", "--from", "t"]),
        ("rules=super&fragment=r", ["-r", "super", "--from", "r"]),
    ],
)
def test_strategy_is_the_clis_json(
    small: TestClient, small_web_db: Path, query: str, flags: list[str]
) -> None:
    code, out, err = run("strategy", "five", *flags, "-f", "json", db=small_web_db)
    assert code == 0, err
    assert get(small, f"/api/five/strategy?{query}") == json.loads(out)


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/api/nope/position", 404, "no dictionary named 'nope'"),
        ("/api/enable1/position?rules=super", 404, "not solved for SuperGhost"),
        ("/api/enable1/position?min_length=5", 404, "not solved"),
        ("/api/chopsticks/position?fingers=4", 404, "not solved"),
        ("/api/enable1/position?fragment=ghx", 400, "begins no word"),
        ("/api/enable1/move?fragment=ghost", 400, "finished game"),
        ("/api/tictactoe/position?fragment=xxxxxxxxx", 400, "cannot arise"),
        ("/api/enable1/line?fragment=qz", 400, "begins no word"),
        ("/api/enable1/strategy?fragment=ghostly", 400, "cannot arise"),
        ("/api/enable1/strategy?fragment=ghostx", 400, "begins no word"),
        ("/api/chopsticks/strategy", 400, "word-game notion"),
        ("/api/nope/report", 404, "no dictionary named 'nope'"),
        ("/api/compare?a=enable1&b=nope", 404, "no dictionary named 'nope'"),
        ("/api/enable1/position?fragment=g1", 400, "not a letter"),
        ("/api/chopsticks/position?fragment=55-11", 400, ""),
        ("/api/tictactoe/position?fragment=x", 400, ""),
        ("/api/enable1/position?fingers=3", 400, "not a rule option of ghost"),
        ("/api/tictactoe/position?min_length=3", 400, "not a rule option of tictactoe"),
        ("/api/enable1/position?rules=checkers", 400, ""),
        ("/api/enable1/position?rules=ghost/4&min_length=3", 400, "already names"),
        ("/api/enable1/position?rules=chopsticks/5", 400, "dictionary"),
        ("/api/compare?a=enable1", 400, "nothing to compare"),
        ("/api/enable1/position?min_length=x", 422, "min_length"),
        ("/api/enable1/position?min_length=0", 422, "min_length"),
        ("/api/enable1/position?misere=perhaps", 422, "misere"),
        ("/api/enable1/position?fragment=" + "a" * 101, 422, "fragment"),
        ("/api/" + "a" * 101 + "/position", 422, "name"),
        ("/api/-x/position", 422, "name"),
        ("/api/enable1/move?skill=1.5", 422, "skill"),
        ("/api/enable1/move?skill=nan", 422, "skill"),
        ("/api/enable1/move?skill=-0", 200, ""),
        ("/api/enable1/move?strategy=clever", 422, "strategy"),
        ("/api/enable1/move?seed=-1", 422, "seed"),
        ("/api/enable1/strategy?player=2", 422, "player"),
        ("/api/compare", 422, "a"),
        ("/api/compare?a=enable1&examples=1000", 422, "examples"),
        ("/api/enable1/nothing", 404, "Not Found"),
        ("/nothing", 404, "Not Found"),
    ],
)
def test_errors_are_one_line_with_a_4xx(
    client: TestClient, url: str, status: int, says: str
) -> None:
    if status == 200:
        get(client, url)
        return
    assert says in error_of(client, url, status)


def test_methods_other_than_get_are_refused(client: TestClient) -> None:
    response = client.post("/api/enable1/position?fragment=g")
    assert response.status_code == 405
    assert set(response.json()) == {"error"}


def test_no_route_writes(small: TestClient, small_web_db: Path) -> None:
    before = dump(small_web_db)
    for url in (
        "/api/solutions",
        "/api/five/position?fragment=ghost",
        "/api/five/move?fragment=g",
        "/api/five/line?fragment=g",
        "/api/five/strategy",
        "/api/five/openings?words=true",
        "/api/five/report",
        "/api/compare?a=five&vs_min_length=4",
        "/api/chopsticks/move",
        "/api/nope/position",
    ):
        small.get(url)
    assert dump(small_web_db) == before


# -- the fast lane gives what FastAPI gives ---------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/enable1/position?fragment=gho",
        "/api/enable1/position?fragment=gho&min_length=4&misere=false",
        "/api/enable1/position",
        "/api/enable1/position?fragment=%C3%A9t%C3%A9",
        "/api/enable1/position?fragment=ghx",
        "/api/enable1/position?fragment=g1",
        "/api/enable1/position?rules=super",
        "/api/enable1/position?fingers=5",
        "/api/nope/position",
        "/api/chopsticks/position?fragment=13-24&rules=chopsticks/5",
        "/api/enable1/move?fragment=n&rules=ghost/4&seed=1&skill=0.5&strategy=rational",
        "/api/enable1/move?fragment=ghost",
        "/api/tictactoe/move?fragment=x...o....&seed=2&skill=1.0",
    ],
)
def test_fast_lane_answers_as_fastapi_would(client: TestClient, url: str) -> None:
    route, query = url.split("?", 1) if "?" in url else (url, "")
    assert read_query(query.encode(), route.rsplit("/", 1)[1]) is not None  # the lane takes it
    fast = client.get(url)
    slow = client.get(url + ("&" if "?" in url else "?") + "unknown=1")  # FastAPI takes it
    assert (fast.status_code, fast.json()) == (slow.status_code, slow.json())
    assert fast.headers["content-type"] == slow.headers["content-type"]


@pytest.mark.parametrize(
    "query",
    [
        "min_length=04",
        "min_length=1e1",
        "misere=TRUE",
        "misere=1",
        "fragment=a&fragment=b",
        "skill=.5",
        "seed=007",
        "x=1",
        "fragment=" + "a" * 101,
    ],
)
def test_fast_lane_leaves_unusual_queries_to_fastapi(query: str) -> None:
    assert read_query(query.encode(), "move") is None


# -- every registered game, through both lanes -------------------------------------------


def api_parameter(option: Any) -> str:
    """The query parameter that carries a declared option: a choice goes as ``rules``."""
    return "rules" if option.choices else option.name


def test_every_rule_option_reaches_the_api(client: TestClient) -> None:
    spec = get(client, "/openapi.json")
    declared = {g["game"]: {o["name"] for o in g["options"]} for g in get(client, "/api/games")}
    routes = {
        route: {p["name"]: p for p in spec["paths"][f"/api/{{name}}/{route}"]["get"]["parameters"]}
        for route in ("position", "move")
    }
    for game in registry.GAMES:
        for option in game.options:
            where = f"{game.name}: {option.name}"
            parameter = api_parameter(option)
            for found in routes.values():
                assert parameter in found, where
                schema = found[parameter]["schema"]["anyOf"][0]
                if option.type is int:
                    assert (schema["minimum"], schema["maximum"]) == (option.low, option.high)
            assert parameter in RULE_PARAMS, where
            assert option.name in declared[game.name], where
            for value in option.choices or [option.default]:
                text = str(value).lower()
                assert read_query(f"{parameter}={text}".encode(), "move") is not None, where


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """Ghost over five.txt and every stand-alone game, each at its default rules."""
    path = tmp_path_factory.mktemp("every-game") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        for game in registry.GAMES:
            store.solve("five" if game.word_game else game.name)
        with TestClient(create_app(store)) as c:
            yield c


def both_lanes(client: TestClient, url: str) -> Any:
    """The answer of the fast lane, checked equal to FastAPI's (200 both)."""
    route, query = url.split("?", 1)
    assert read_query(query.encode(), route.rsplit("/", 1)[1]) is not None, url
    fast, slow = client.get(url), client.get(url + "&unknown=1")  # FastAPI takes the second
    assert fast.status_code == slow.status_code == 200, (url, fast.text, slow.text)
    assert fast.json() == slow.json(), url
    return fast.json()


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_every_game_plays_through_both_lanes(every_game: TestClient, game: Any) -> None:
    name = "five" if game.word_game else game.name
    defaults = "".join(
        f"&{api_parameter(o)}={str(getattr(o.default, 'value', o.default)).lower()}"
        for o in game.options
    )
    start = both_lanes(every_game, f"/api/{name}/position?fragment={defaults}")
    assert start["plays"], name
    after = start["plays"][0]["fragment"]
    query = f"fragment={urllib.parse.quote(after)}{defaults}"
    assert both_lanes(every_game, f"/api/{name}/position?{query}")["fragment"] == after
    reply = both_lanes(every_game, f"/api/{name}/move?seed=1{defaults}")
    assert reply["play"]["move"] in {p["move"] for p in start["plays"]}


# -- one write a response --------------------------------------------------------------------


class Wire:
    """A transport that records what it is asked to do."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        assert not self.closed
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 8000) if name == "sockname" else default


def test_writes_of_one_step_leave_together() -> None:
    async def main() -> None:
        wire = Wire()
        transport = GatheringTransport(wire, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
        transport.write(b"{}")
        assert wire.writes == []
        assert transport.get_write_buffer_size() == 21
        await asyncio.sleep(0)
        assert wire.writes == [b"HTTP/1.1 200 OK\r\n\r\n{}"]
        transport.write(b"last")
        transport.close()  # what is pending goes first
        assert wire.writes[1:] == [b"last"] and wire.closed
        await asyncio.sleep(0)  # the flush already scheduled finds nothing
        assert len(wire.writes) == 2
        assert transport.get_extra_info("sockname") == ("127.0.0.1", 8000)

        lost = Wire()
        transport = GatheringTransport(lost, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(b"an answer")
        lost.closed = True  # the client went away before the loop turned
        await asyncio.sleep(0)
        assert lost.writes == []

    asyncio.run(main())


# -- a schema-driven fuzz ---------------------------------------------------------------------


def test_openapi_describes_every_route(client: TestClient) -> None:
    spec = get(client, "/openapi.json")
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {
        "/api/games",
        "/api/solutions",
        "/api/{name}/position",
        "/api/{name}/move",
        "/api/{name}/line",
        "/api/{name}/analyse",
        "/api/{name}/puzzle",
        "/api/{name}/against",
        "/api/{name}/strategy",
        "/api/{name}/openings",
        "/api/{name}/report",
        "/api/compare",
        "/api/{name}/decisive",
        "/api/why",
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/join",
        "/api/rooms/{room_id}/record",
        "/api/rooms/{room_id}/rematch",
    }
    position = spec["paths"]["/api/{name}/position"]["get"]
    assert {"200", "400", "404", "422"} <= set(position["responses"])


def test_fuzz_finds_no_server_error(small_web_db: Path, tmp_path: Path) -> None:
    """Schemathesis generates requests from /openapi.json (valid and invalid ones, names
    from the examples too): no answer may be a 5xx, every one must be JSON, and each must
    match the schema documented for its status.  On a copy of the database: the rooms'
    routes write (rooms), and the other tests' servers must not find its rooms."""

    import schemathesis

    copy = tmp_path / "fuzz.db"
    copy_db(small_web_db, copy)
    with open_store(str(copy), create=False) as store:
        app = create_app(store)
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        calls = 0
        for result in schema.get_all_operations():
            calls += fuzz(result.ok())
    assert calls >= 8 * 20


def fuzz(operation: Any) -> int:
    """Up to 40 generated requests to one operation; how many were sent."""
    from hypothesis import HealthCheck, Phase, given, settings
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import response_schema_conformance

    sent = []

    @settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def check(case: Any) -> None:
        response = case.call()
        sent.append(response.status_code)
        case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
        json.loads(response.text)

    check()
    return len(sent)


# -- the page --------------------------------------------------------------------------------


def test_the_page_and_its_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    total = len(page.content)
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        response = client.get(asset)
        assert response.status_code == 200, asset
        total += len(response.content)
    assert total <= 300_000
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/docs.js" in docs.text


def test_the_page_loads_nothing_from_elsewhere() -> None:
    for path in (p for p in STATIC.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?:src|href)=[\"']?(?:https?:)?//", text), path.name
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", ""), path.name
        assert "https://" not in text, path.name


def test_other_commands_do_not_import_the_web_stack() -> None:
    code = (
        "import sys, ghostdb.cli; "
        "assert not {'fastapi', 'uvicorn', 'starlette', 'pydantic'} & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the server as a process -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, proc: subprocess.Popen[str], limit: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if proc.poll() is not None:
            pytest.fail(f"the server stopped: {proc.stderr.read() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return time.monotonic() - start
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.05)
    pytest.fail(f"the server did not answer {url} within {limit} s")


def serve(db: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghostdb", "serve", "--db", str(db), "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return proc, port


def stop(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
    out, err = proc.communicate(timeout=10)
    return proc.returncode, out, err


def fetch(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def test_serve_answers_many_requests_at_once_and_stops_on_ctrl_c(
    web_db: Path, web_store: Store
) -> None:
    proc, port = serve(web_db)
    base = f"http://127.0.0.1:{port}"
    try:
        # Ready within 2 s on an idle machine (scripts/bench_web.py measures it); the
        # machine running the tests may be busy.
        wait_ready(f"{base}/api/solutions", proc, 20)
        rng = random.Random(1)
        fragments = ["", "g", "gh", "gho", "ghos", "n", "ny", "q", "qa", "zy", "ghx"]
        urls = [
            f"{base}/api/enable1/position?fragment={rng.choice(fragments)}"
            f"&min_length={rng.choice((3, 4))}"
            for _ in range(400)
        ] + [f"{base}/api/enable1/line?fragment=gh", f"{base}/api/tictactoe/line"] * 10
        rng.shuffle(urls)
        answers: dict[str, Any] = {}
        errors: list[str] = []

        def worker(chunk: list[str]) -> None:
            for url in chunk:
                try:
                    answers[url] = fetch(url)
                except urllib.error.HTTPError as exc:
                    answers[url] = (exc.code, json.load(exc))
                except Exception as exc:
                    errors.append(f"{url}: {exc!r}")

        threads = [threading.Thread(target=worker, args=(urls[i::16],)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        for file in ("index.html", "app.js", "render.js", "panels.js", "app.css"):  # whole
            path = "/" if file == "index.html" else f"/static/{file}"
            with urllib.request.urlopen(base + path, timeout=10) as response:
                expected = page_html(file) if file == "index.html" else (STATIC / file).read_text()
                assert response.read() == expected.encode()
        for url, answer in answers.items():
            if "/position?" not in url:
                continue
            fragment, min_length = re.findall(r"fragment=(\w*)&min_length=(\d)", url)[0]
            if fragment == "ghx":
                assert answer[0] == 400
            else:
                expected = web_store.solution("enable1", Rules(min_length=int(min_length))).lookup(
                    fragment
                )
                assert answer == expected.as_dict()
    finally:
        code, out, err = stop(proc)
    assert code == 0, err
    assert "Traceback" not in err
    assert out.startswith(f"ghostdb: serving on http://127.0.0.1:{port}/")


def test_serve_warns_when_not_on_localhost(web_db: Path) -> None:
    proc, port = serve(web_db, "--host", "0.0.0.0")
    try:
        wait_ready(f"http://127.0.0.1:{port}/api/solutions", proc, 20)
    finally:
        code, _, err = stop(proc)
    assert code == 0
    assert err.splitlines()[0] == (
        "warning: serving on 0.0.0.0: anyone who can reach this machine can read the store"
    )


def test_serve_refuses_a_missing_database(tmp_path: Path) -> None:
    code, _, err = run("serve", db=tmp_path / "none.db")
    assert code == 1
    assert err.startswith("error: no database at")
    assert not (tmp_path / "none.db").exists()


# -- PostgreSQL --------------------------------------------------------------------------------


PG_URL = os.environ.get("GHOSTDB_TEST_POSTGRES_URL", "")


@pytest.mark.slow
@pytest.mark.skipif(not PG_URL, reason=POSTGRES_SKIP)
def test_the_api_on_postgresql(web_store: Store, enable1: Path) -> None:
    """The same answers from a server database, many threads at once."""

    reset_postgres(PG_URL)
    with open_store(PG_URL, create=True) as pg:
        pg.ingest(enable1)
        pg.solve("enable1", Rules(min_length=4))
        pg.solve("tictactoe")
        with TestClient(create_app(pg)) as c:
            urls = [
                f"/api/enable1/position?fragment={f}&min_length=4" for f in ("", "n", "ny", "zy")
            ]
            urls += [
                "/api/tictactoe/position?fragment=x...o....",
                "/api/enable1/line?fragment=n&min_length=4",
            ]
            results: dict[str, Any] = {}

            def worker(url: str) -> None:
                results[url] = c.get(url).json()

            threads = [threading.Thread(target=worker, args=(u,)) for u in urls * 5]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for url in urls:
                sqlite_answer = TestClient(create_app(web_store)).get(url).json()
                assert results[url] == sqlite_answer, url


# -- 1,000 random stored positions: the API equals `lookup --json` --------------------------------


def random_fragments(db: Path, rules: str, count: int, seed: int) -> list[str]:
    with sqlite3.connect(db) as conn:
        (solution,) = conn.execute(
            "SELECT id FROM solutions WHERE rules = ? AND status = 'complete'", (rules,)
        ).fetchone()
        rows = conn.execute(
            "SELECT fragment FROM positions WHERE solution_id = ?", (solution,)
        ).fetchall()
    return random.Random(seed).sample([r[0] for r in rows], count)


@pytest.fixture(scope="session")
def superduper_db(web_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the web database with ENABLE solved for SuperDuperGhost too (~10 s)."""
    path = tmp_path_factory.mktemp("superduper") / "ghost.db"
    copy_db(web_db, path)
    with open_store(str(path), create=True) as store:
        store.solve("enable1", Rules(Variant.SUPERDUPER, 3))
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "flags"),
    [
        ("ghost/3", []),
        ("ghost/4", ["-m", "4"]),
        pytest.param("superduper/3", ["--rules", "superduper"], marks=pytest.mark.long),
    ],
)
def test_a_thousand_random_positions_equal_lookup_json(
    superduper_db: Path, rules: str, flags: list[str]
) -> None:
    with open_store(str(superduper_db), create=False) as store, TestClient(create_app(store)) as c:
        for fragment in random_fragments(superduper_db, rules, 1000, seed=len(rules)):
            api = get(c, f"/api/enable1/position?rules={rules}&fragment={fragment}")
            assert api == cli_json(superduper_db, "lookup", "enable1", fragment, *flags), fragment


def test_a_broken_database_answers_503_not_a_traceback(small_web_db: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.db"
    copy_db(small_web_db, broken)
    with sqlite3.connect(broken) as conn:
        conn.execute("ALTER TABLE positions RENAME TO positions_gone")
    with open_store(str(broken), create=False) as store, TestClient(create_app(store)) as c:
        for url in (
            "/api/five/position?fragment=g",  # the fast lane
            "/api/five/position?fragment=g&unknown=1",  # FastAPI
            "/api/five/line",
        ):
            message = error_of(c, url, 503)
            assert message.startswith("the database did not answer: no such table")


def other_rules(game: Any) -> dict[str, Any]:
    """One rule option of ``game`` set away from its default, by name: a second rule set
    to compare with ({} for a game with no options: it is compared with itself).  A bool
    option first, else the last int one (Connect Four's height: 4 x 5 is the smaller of
    the two boards one step up)."""
    for option in game.options:
        if option.type is bool:
            return {option.name: not option.default}
    for option in reversed(game.options):
        if option.type is int and option.name != "players":
            return {option.name: option.default + 1}
    return {}


def vs_words(option: Any, value: Any) -> list[str]:
    """The command-line words that give ``value`` to compare's second side."""
    if option.type is bool:
        flag = option.flag if value != option.default else option.opposite_flag
        return ["--vs-" + flag.removeprefix("--")]
    return ["--vs-" + option.flag.removeprefix("--"), str(value)]


@pytest.mark.parametrize("game", each_game(registry.GAMES), ids=lambda g: g.name)
def test_every_game_compares_two_of_its_rule_sets_on_the_cli_and_the_api(
    tmp_path: Path, game: Any
) -> None:
    """compare's second side takes every game's options (--vs-… and vs_…), so Connect
    Four compares board sizes as Ghost compares minimum lengths."""
    other = other_rules(game)
    name = "five" if game.word_game else game.name
    db = tmp_path / "ghost.db"
    cli: list[str] = []
    query = ""
    with open_store(str(db), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        left, right = store.rules_for(name), store.rules_for(name, **other)
        store.solve(name, left)
        store.solve(name, right)
        for option_name, value in other.items():
            cli += vs_words(registry.all_options()[option_name], value)
            query += f"&vs_{option_name}={str(value).lower()}"
        code, out, err = run("compare", name, *cli, "--json", db=db)
        if not other:  # one rule set: nothing to compare, said in one line, on both
            assert (
                code == 1
                and err
                == f"error: nothing to compare: give a second name, or {name} has one rule set\n"
            )
            with TestClient(create_app(store)) as client:
                refused = client.get(f"/api/compare?a={name}")
            assert refused.status_code == 400 and "nothing to compare" in refused.text
            return
        assert code == 0, err
        found = json.loads(out)
        with TestClient(create_app(store)) as client:
            answer = get(client, f"/api/compare?a={name}{query}")
    assert [found["a"]["rules"], found["b"]["rules"]] == [left.key, right.key] != [left.key] * 2
    assert answer == found


def test_a_walk_past_the_limit_is_a_400_naming_the_command(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines and plans from a position are walked for the request, so no request walks
    more than `WALK_LIMIT` positions: past it, one line says what prints it whole."""
    from ghostdb.web.conventions import AnswerCache
    from ghostdb.web.routes import plans

    monkeypatch.setattr(plans, "WALK_LIMIT", 5)
    monkeypatch.setattr(client.app, "cache", AnswerCache())  # answers held under the old limit
    message = error_of(client, "/api/enable1/line", 400)
    assert "passes more than 5 positions" in message and "`ghostdb line enable1`" in message
    message = error_of(client, "/api/enable1/strategy?fragment=a&player=0", 400)
    assert "`ghostdb strategy enable1`" in message
    # The plan from the start is kept: read, not walked, whatever its size.
    assert get(client, "/api/enable1/strategy?player=1")["outcomes"] > 5
    monkeypatch.setattr(plans, "WALK_LIMIT", 10_000)
    monkeypatch.setattr(client.app, "cache", AnswerCache())
    assert get(client, "/api/enable1/line")["endings"]
