"""Decisive words through the API: ``/api/{name}/decisive`` and ``/api/why`` read the
answers the command line worked out and kept (the server never writes, so one nobody has
asked for yet is a 404 naming the command that works it out), equal the CLI's ``--json``,
refuse bad input with a 4xx and carry ETags like every other answer."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import OWN_WORDLISTS, dump, run, write_list
from fastapi.testclient import TestClient

from ghostdb import Rules, Store, open_store
from ghostdb.games.ghost.rules import Variant
from ghostdb.web import conventions, create_app
from ghostdb.web.library import has_decisive_words

OTHER = "ghost green toga tree tries"
"""five.txt without tan and with toga: player 0 wins it, and deleting tan explains why."""
KEPT = (  # what the command line works out first, and the API then reads
    ("decisive", "five"),
    ("decisive", "five", "--position", "t", "--pool", "other"),
    ("decisive", "five", "--position", "tr", "-m", "4"),
    ("compare", "five", "other", "--why"),
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """five and other, solved for Ghost (3+ and 4+), SuperGhost and three players, with
    tic-tac-toe; the answers of `KEPT` worked out by the command line."""
    path = tmp_path_factory.mktemp("web-decisive") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.ingest(write_list(path.parent, OTHER, "other"))
        for rules in (Rules(), Rules(min_length=4), Rules(Variant.SUPER), Rules(players=3)):
            store.solve("five", rules)
        store.solve("other")
        store.solve("tictactoe")
    for args in KEPT:
        code, _, err = run(*args, db=path)
        assert code == 0, err
    return path


@pytest.fixture(scope="module")
def store(db: Path) -> Iterator[Store]:
    with open_store(str(db), create=False) as opened:
        yield opened


@pytest.fixture(scope="module")
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as c:
        yield c


def cli_json(db: Path, *args: str) -> Any:
    code, out, err = run(*args, "--json", db=db)
    assert code == 0, err
    return json.loads(out)


def error_of(client: TestClient, url: str, status: int) -> str:
    """The one-line message of an error answer, checking its shape."""
    response = client.get(url)
    assert response.status_code == status, (url, response.text)
    body = response.json()
    assert set(body) == {"error"} and body["error"] and "\n" not in body["error"], body
    return body["error"]


@pytest.mark.parametrize(
    ("url", "cli"),
    [
        ("/api/five/decisive", KEPT[0]),
        ("/api/five/decisive?position=t&pool=other", KEPT[1]),
        ("/api/five/decisive?fragment=t&pool=other&rules=ghost/3", KEPT[1]),
        ("/api/five/decisive?position=tr&min_length=4", KEPT[2]),
        ("/api/five/decisive?position=TR&rules=ghost/4", KEPT[2]),
    ],
)
def test_a_kept_answer_is_the_clis_json(
    client: TestClient, db: Path, url: str, cli: tuple[str, ...]
) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json(db, *cli)


def test_why_is_compare_whys_json(client: TestClient, db: Path) -> None:
    answer = client.get("/api/why?a=five&b=other")
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json(db, *KEPT[3])["why"]
    assert answer.json()["fewest"]["edits"] == [
        {"word": "tan", "outcome": "win", "move": "t", "move_before": "win",
         "move_after": "loss", "edit": "delete"},
    ]  # fmt: skip
    assert client.get("/api/why?a=five&b=other&rules=ghost/3").json() == answer.json()


@pytest.mark.parametrize(
    ("url", "command"),
    [
        ("/api/five/decisive?position=tri", "ghostdb decisive five --position tri"),
        ("/api/five/decisive?pool=other", "ghostdb decisive five --pool other"),
        ("/api/five/decisive?min_length=4", "ghostdb decisive five --min-length 4"),
        ("/api/why?a=other&b=five", "ghostdb compare other five --why"),
    ],
)
def test_an_answer_nobody_worked_out_is_a_404_naming_the_command(
    client: TestClient, db: Path, url: str, command: str
) -> None:
    """The message names the command; running it makes the same URL answer 200, with
    what the command keeps."""
    message = error_of(client, url, 404)
    assert "not worked out yet" in message and f"`{command}`" in message, message
    args = shlex.split(command)[1:]
    code, _, err = run(*args, db=db)
    assert code == 0, err
    again = client.get(url)
    assert again.status_code == 200, again.text
    expected = cli_json(db, *args)
    assert again.json() == (expected["why"] if "--why" in args else expected)


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/api/nope/decisive", 404, "no dictionary named 'nope'"),
        ("/api/five/decisive?pool=nope", 404, "no dictionary named 'nope'"),
        ("/api/five/decisive?pool=five", 400, "the pool is five itself"),
        ("/api/tictactoe/decisive", 400, "decisive words are a word-game question"),
        ("/api/five/decisive?players=3", 400, "for two players"),
        ("/api/five/decisive?min_length=5", 404, "not solved"),
        ("/api/five/decisive?position=aa", 400, "'aa' begins no word"),
        ("/api/five/decisive?position=zz", 400, "'z' is in no word of the dictionary"),
        ("/api/five/decisive?position=g1", 400, "'1'"),
        ("/api/five/decisive?position=g&fragment=g", 400, "give the position once"),
        ("/api/five/decisive?fingers=3", 400, "not a rule option of ghost"),
        ("/api/five/decisive?position=" + "a" * 101, 422, "position"),
        ("/api/five/decisive?pool=" + "a" * 101, 422, "pool"),
        ("/api/five/decisive?pool=-x", 422, "pool"),
        ("/api/" + "a" * 101 + "/decisive", 422, "name"),
        ("/api/why?a=five&b=five", 400, "give b other than five"),
        ("/api/why?a=five&b=nope", 404, "no dictionary named 'nope'"),
        ("/api/why?a=nope&b=five", 404, "no dictionary named 'nope'"),
        ("/api/why?a=five&b=tictactoe", 400, "played under its own rules"),
        ("/api/why?a=tictactoe&b=five", 400, "five is a dictionary"),
        ("/api/why?a=five&b=other&min_length=4", 404, "other is not solved"),
        ("/api/why?a=five&b=other&players=3", 404, "other is not solved"),
        ("/api/why?a=five", 422, "b"),
        ("/api/why?b=five", 422, "a"),
        ("/api/why?a=five&b=" + "b" * 101, 422, "b"),
        ("/api/why?a=five&b=o%20ther", 422, "b"),
    ],
)
def test_bad_input_is_one_line_with_a_4xx(
    client: TestClient, url: str, status: int, says: str
) -> None:
    assert says in error_of(client, url, status)


def test_a_rule_set_without_decisive_words_is_refused_as_its_game_declares(
    client: TestClient,
) -> None:
    """SuperGhost: refused in one line (400) while the game declares no decisive words
    for it, else an answer not worked out yet (404); never a 500 either way."""
    if has_decisive_words("super/3"):
        message = error_of(client, "/api/five/decisive?rules=super", 404)
        assert "`ghostdb decisive five --rules super`" in message
    else:
        assert "decisive words" in error_of(client, "/api/five/decisive?rules=super", 400)


def test_the_catalogue_says_which_rule_sets_have_decisive_words(client: TestClient) -> None:
    """What the page offers the panel by: each rule set as its game declares it."""
    found = {
        (s["name"], r["rules"]): r["decisive"]
        for s in client.get("/api/solutions").json()["solutions"]
        for r in s["rule_sets"]
    }
    assert found[("five", "ghost/3")] and found[("five", "ghost/4")]
    assert not found[("five", "ghost/3/3p")] and not found[("tictactoe", "tictactoe")]
    assert found[("five", "super/3")] == has_decisive_words("super/3")


def test_the_server_never_works_an_answer_out(client: TestClient, db: Path) -> None:
    before = dump(db)
    for url in (
        "/api/five/decisive?position=tre",
        "/api/five/decisive?position=g&pool=other",
        "/api/why?a=five&b=other&rules=ghost/4",
        "/api/five/decisive",
        "/api/why?a=five&b=other",
    ):
        assert client.get(url).status_code in (200, 404), url
    assert dump(db) == before


@pytest.mark.parametrize(
    "url", ["/api/five/decisive?position=t&pool=other", "/api/why?a=five&b=other"]
)
def test_an_answer_has_an_etag_and_revalidates_with_304(
    store: Store, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conventions, "STATE_SECONDS", 0.0)
    with TestClient(create_app(store)) as c:
        first = c.get(url)
        assert first.status_code == 200
        tag = first.headers["etag"]
        assert tag.startswith('"') and not tag.startswith("W/")
        assert first.headers["cache-control"] == f"public, max-age={conventions.MAX_AGE}"
        again = c.get(url, headers={"If-None-Match": tag})
        assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
        assert c.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
        missing = c.get("/api/five/decisive?position=gre")  # not worked out: not kept either
        assert missing.status_code == 404 and "etag" not in missing.headers


def test_openapi_documents_both_routes(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/api/{name}/decisive", "/api/why"):
        operation = spec["paths"][path]["get"]
        assert {"200", "400", "404", "422"} <= set(operation["responses"]), path
        assert "worked out" in operation["responses"]["404"]["description"], path
    parameters = {p["name"] for p in spec["paths"]["/api/{name}/decisive"]["get"]["parameters"]}
    assert {"name", "position", "fragment", "pool", "rules", "min_length", "misere"} <= parameters
    parameters = {p["name"] for p in spec["paths"]["/api/why"]["get"]["parameters"]}
    assert {"a", "b", "rules", "min_length"} <= parameters
