"""One vocabulary across the command line's text and JSON, the API and the page: the
outcome words, a move's category in the same words, players named by their 0-based
index, moves best first in text as in JSON, and ``position`` as the API's parameter
(``fragment`` its alias)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run, write_list
from fastapi.testclient import TestClient

from ghostdb import open_store
from ghostdb.games.base import Game
from ghostdb.games.registry import GAMES
from ghostdb.web import create_app

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "ghostdb" / "web" / "static"
WORDS = "ghost green tan tree tries"
OUTCOME_WORDS = {"win", "loss", "tie", "draw"}
EVERY_GAME = pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])


def name_of(game: type[Game]) -> str:
    return "five" if game.word_game else game.name


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vocabulary") / "ghost.db"
    assert run("ingest", str(write_list(path.parent, WORDS, "five")), db=path)[0] == 0
    for game in GAMES:
        assert run("solve", name_of(game), db=path)[0] == 0
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with open_store(str(db), create=False) as store, TestClient(create_app(store)) as c:
        yield c


def first_move_position(db: Path, game: type[Game]) -> str:
    start = json.loads(run("lookup", name_of(game), "--json", db=db)[1])
    return start["plays"][0]["fragment"]


@EVERY_GAME
def test_cli_json_and_api_json_say_the_same_in_the_same_words(
    db: Path, client: TestClient, game: type[Game]
) -> None:
    name = name_of(game)
    for position in ("", first_move_position(db, game)):
        code, out, err = run("lookup", name, position, "--json", db=db)
        assert code == 0, err
        cli = json.loads(out)
        api = client.get(f"/api/{name}/position", params={"position": position}).json()
        alias = client.get(f"/api/{name}/position", params={"fragment": position}).json()
        assert cli == api == alias
        assert cli["outcome"] in OUTCOME_WORDS
        assert {p["outcome"] for p in cli["plays"]} <= OUTCOME_WORDS
        assert {p["category"] for p in cli["plays"]} <= OUTCOME_WORDS
        for play in cli["plays"]:  # the category is the outcome for the mover
            flipped = {"win": "loss", "loss": "win"}.get(play["outcome"], play["outcome"])
            assert play["category"] == flipped
        assert cli["to_move"] in (0, 1, None) and cli["winner"] in (0, 1, None)


@EVERY_GAME
def test_text_lists_moves_best_first_as_json_does(db: Path, game: type[Game]) -> None:
    name = name_of(game)
    data = json.loads(run("lookup", name, "--json", db=db)[1])
    text = run("lookup", name, db=db)[1].splitlines()
    rows = text[text.index(next(x for x in text if x.startswith("----"))) + 1 :]
    assert [row.split()[0] for row in rows] == [p["move"] for p in data["plays"]]
    openings = run("openings", name, db=db)[1].splitlines()
    rows = openings[openings.index(next(x for x in openings if x.startswith("----"))) + 1 :]
    assert [row.split()[0] for row in rows] == [p["move"] for p in data["plays"]]


@EVERY_GAME
def test_text_names_players_by_their_index(db: Path, game: type[Game]) -> None:
    name = name_of(game)
    texts = [
        run(*command, db=db)[1]
        for command in (("lookup", name), ("openings", name), ("report", name))
    ]
    for text in texts:
        assert not re.search(r"\b(first|second) player\b", text), text
        assert not re.search(r"\bplayers? [2-9]\b", text)


def test_both_spellings_of_the_position_at_once_are_refused(client: TestClient) -> None:
    answer = client.get("/api/five/position?position=g&fragment=g")
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "give the position once: as position or as its alias fragment"
    }


def test_the_page_speaks_the_same_words() -> None:
    from ghostdb.web.site import PAGE_FILES

    script = "".join(
        (STATIC / f).read_text(encoding="utf-8") for f in PAGE_FILES if f.endswith(".js")
    )
    boards = sorted((STATIC / "boards").glob("*.js"))
    script += "".join(b.read_text(encoding="utf-8") for b in boards)
    assert "for the mover" not in script  # the glossary says: the player to move, or making it
    marks = re.search(r"const MARK = \{([^}]*)\}", script)
    assert marks is not None
    assert set(re.findall(r"(\w+):", marks[1])) == OUTCOME_WORDS
    categories = re.search(r"const CATEGORY_OF = \{([^}]*)\}", script)
    assert categories is not None
    pairs = dict(re.findall(r'(\w+): "(\w+)"', categories[1]))
    assert set(pairs) == set(pairs.values()) == OUTCOME_WORDS
    assert not re.search(r'"lose"|\blose:', script)
    assert not re.search(r"\b(first|second) player\b", script)
    calls = re.findall(r"\bapi\((.*?)\);", script, re.S)
    assert len(calls) >= 5
    for call in calls:  # no query object has a fragment key: the page asks by position
        assert not re.search(r"[{,]\s*fragment\s*[:,}]", call), call
    styles = (STATIC / "app.css").read_text(encoding="utf-8")
    for word in OUTCOME_WORDS:
        assert f".mark.{word}" in styles
