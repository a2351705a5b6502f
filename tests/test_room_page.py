"""Rooms through the page, in a real browser: three browser contexts — Ann, who makes the
room with the page's form; Bob, who joins with its link; Eve, who watches — play a match
of Ghost over five.txt (ghost green tan tree tries) with three lives: a bluff that is
challenged (a right challenge), a real fragment challenged and answered with a word (a
wrong one), a dropped socket that comes back and shows the move it missed, and the end of
the match.  Verdicts show only once their round is over; axe-core finds the room clean
at desktop and phone width; every console stays clean.  Needs /usr/bin/chromium.
"""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import CHROMIUM, Tab, browser, no_serious_violations, open_tab, serve

from ghostdb import open_store

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="needs Playwright: pip install -e '.[dev]'"
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium: apt-get install chromium"),
]
__all__ = ["browser"]  # the fixture, shared with test_browser

WAIT = 15_000


@pytest.fixture(scope="module")
def room_server(small_web_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server over a copy of five.txt's database: rooms write their log to it."""
    path = tmp_path_factory.mktemp("room-page") / "ghost.db"
    shutil.copy(small_web_db, path)
    with open_store(str(path), create=False) as store:
        for base in serve(store):
            # A room's link serves the page itself, with the page's policy
            # (ghostdb.web.rooms.page.page_router, beside the page at /).
            with urllib.request.urlopen(f"{base}/") as home:
                page = home.read()
            with urllib.request.urlopen(f"{base}/rooms/AnyRoom_id-1") as linked:
                assert linked.read() == page
                assert "default-src 'self'" in linked.headers["Content-Security-Policy"]
            yield base


def person(browser: Any, server: str, width: int = 1280) -> Iterator[Tab]:
    """A tab in a browser context of its own: its own sessionStorage, its own socket."""
    tabs = open_tab(browser, server)
    tab = next(tabs)
    tab.page.set_viewport_size({"width": width, "height": 900})
    yield tab
    next(tabs, None)


@pytest.fixture
def ann(browser: Any, room_server: str) -> Iterator[Tab]:
    yield from person(browser, room_server)


@pytest.fixture
def bob(browser: Any, room_server: str) -> Iterator[Tab]:
    yield from person(browser, room_server)


@pytest.fixture
def eve(browser: Any, room_server: str) -> Iterator[Tab]:
    yield from person(browser, room_server)


def shows(tab: Tab, selector: str, text: str) -> None:
    """Wait until the element's text holds ``text``."""
    tab.page.wait_for_function(
        "([sel, text]) => (document.querySelector(sel)?.textContent || '').includes(text)",
        arg=[selector, text],
        timeout=WAIT,
    )


def text(tab: Tab, selector: str) -> str:
    return str(tab.page.locator(selector).inner_text())


def make_room(tab: Tab, lives: str = "3", clock: str = "300") -> str:
    """Ann makes a room of two people through the form; the room's link."""
    tab.page.goto(f"{tab.base}/")
    tab.page.wait_for_selector("#rm-name option[value=five]", state="attached")
    tab.page.locator(".tab[data-tab=friends]").click()
    tab.page.select_option("#rm-name", "five")
    tab.page.select_option("#rm-rules", "ghost/3")
    tab.page.select_option("#rm-lives", lives)
    tab.page.select_option("#rm-clock", clock)
    assert tab.page.locator("#rm-seats select").evaluate_all("s => s.map(x => x.value)") == [
        "human",
        "human",
    ]
    tab.page.locator("#rm-player").fill("Ann")
    tab.page.locator("#room-form button[type=submit]").click()
    tab.page.wait_for_url(re.compile(r"/rooms/[A-Za-z0-9_-]+$"), timeout=WAIT)
    shows(tab, "#room-whose", "Waiting for 1 more player")
    link = tab.page.locator("#room-link").input_value()
    assert link == tab.page.url
    # The token is kept in this tab's sessionStorage, never in the link.
    room = link.rsplit("/", 1)[1]
    token = tab.page.evaluate(f"JSON.parse(sessionStorage.getItem('ghostdb-room:{room}')).token")
    assert token and token not in link
    return link


def join(tab: Tab, link: str, name: str) -> None:
    tab.page.goto(link)
    tab.page.wait_for_selector("#room-join:not([hidden])")
    tab.page.locator("#room-name").fill(name)
    tab.page.locator("#room-name").press("Enter")
    tab.page.wait_for_selector("#room-join", state="hidden")


def watch(tab: Tab, link: str) -> None:
    tab.page.goto(link)
    tab.page.wait_for_selector("#room-join:not([hidden])")
    tab.page.locator("#room-watch").click()
    shows(tab, "#room-status", "watching")


def position(tab: Tab, fragment: str) -> None:
    shows(tab, "#room-position", fragment)


def everyone(tabs: list[Tab], selector: str, text_: str) -> None:
    for tab in tabs:
        shows(tab, selector, text_)


def my_turn(tab: Tab) -> None:
    shows(tab, "#room-whose", "Your turn")
    tab.page.wait_for_selector("#room-keys .key:not([disabled])")


def test_three_contexts_play_a_match_with_a_bluff_challenges_and_a_dropped_socket(
    ann: Tab, bob: Tab, eve: Tab
) -> None:
    link = make_room(ann)
    hellos: list[dict[str, Any]] = []  # what Bob's sockets say first
    bob.page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda frame: hellos.append(json.loads(frame)) if '"hello"' in frame else None,
        ),
    )
    join(bob, link, "Bob")
    watch(eve, link)
    tabs = [ann, bob, eve]
    everyone(tabs, "#room-seats", "Bob")
    everyone([bob, eve], "#room-whose", "Ann to move")
    assert "PIG" in text(eve, "#room-about") and "300 s a turn" in text(eve, "#room-about")
    assert re.search(r"\d:\d\d left", text(eve, "#room-clock"))
    assert text(ann, "#room-seats").count("online") == 2  # both people are here
    assert eve.page.locator("#room-keys").is_hidden()  # a spectator has no keys
    assert eve.page.locator("#room-actions").is_hidden()
    assert bob.page.locator("#room-keys .key:not([disabled])").count() == 0  # not his turn

    # Round 1: a letter outside the alphabet is refused; then Ann bluffs n (no word of
    # five.txt begins with it), by the keyboard alone.
    my_turn(ann)
    ann.page.keyboard.press("x")
    shows(ann, "#room-status", "'x' is in no word of the dictionary")  # the referee's refusal
    assert text(ann, "#room-position") == "(start)"
    ann.page.keyboard.press("n")
    everyone(tabs, "#room-position", "n")
    everyone(tabs, "#room-moves", "Ann: n")
    assert "bluff" not in eve.page.locator("body").inner_text().lower()  # not before it ends
    assert "bluff" not in text(bob, "#room-rounds").lower()
    # Bob challenges, by the keyboard: Ann must name a word; hers does not count.
    my_turn(bob)
    bob.page.keyboard.press("!")
    ann.page.wait_for_selector("#room-word:not([hidden])")
    shows(ann, "#room-whose", "Bob challenges you")
    shows(eve, "#room-whose", "Bob challenges Ann")
    assert ann.page.evaluate("document.activeElement.id") == "room-word-text"
    assert "bluff" not in eve.page.locator("body").inner_text().lower()
    ann.page.keyboard.type("nest")
    ann.page.keyboard.press("Enter")
    everyone(tabs, "#room-rounds", "bluff")
    everyone(tabs, "#room-rounds", "Bob's challenge of Ann was right")
    everyone(tabs, "#room-seats", "P__")
    assert ann.page.locator("#room-word").is_hidden()

    # Round 2: Ann (who lost) starts with t by a click; Bob plays r; Ann challenges the
    # real fragment tr by a click, and Bob names tree: the challenge was wrong.
    my_turn(ann)
    ann.page.locator("#room-keys .key[data-move=t]").click()
    my_turn(bob)
    bob.page.keyboard.press("r")
    everyone(tabs, "#room-position", "tr")
    my_turn(ann)
    ann.page.locator("#room-challenge").click()
    bob.page.wait_for_selector("#room-word:not([hidden])")
    bob.page.locator("#room-word-text").fill("tree")
    bob.page.locator("#room-word button").click()
    everyone(tabs, "#room-rounds", "Ann's challenge of Bob was wrong: ‘tr’ can become")
    assert "Round 2" in text(eve, "#room-rounds")
    everyone(tabs, "#room-seats", "PI_")
    record = text(eve, "#room-record")
    assert "Ann" in record and record.count("\n") >= 2  # two rounds in the match's record

    # Round 3: Bob's network drops; Ann moves meanwhile; Bob comes back and sees it.
    my_turn(ann)
    seen = bob.page.evaluate(
        "fetch(location.pathname.replace('/rooms/', '/api/rooms/'))"
        ".then(r => r.json()).then(s => s.v)"
    )
    bob.page.context.set_offline(True)
    shows(ann, "#room-seats", "offline")
    ann.page.keyboard.press("g")
    everyone([ann, eve], "#room-position", "g")
    assert text(bob, "#room-position") != "g"  # missed while offline
    bob.page.context.set_offline(False)
    position(bob, "g")
    shows(bob, "#room-moves", "Ann: g")
    assert text(bob, "#room-moves").count("Ann: g") == 1  # the missed move, once
    assert len(hellos) == 2  # the token travels in the hello, never in a URL
    assert hellos[1]["since"] == seen and hellos[1]["token"] == hellos[0]["token"]
    shows(ann, "#room-seats", "online")
    assert "offline" not in text(ann, "#room-seats")
    for letter, tab in (("h", bob), ("o", ann), ("s", bob)):
        my_turn(tab)
        tab.page.keyboard.press(letter)
        everyone(tabs, "#room-moves", f": {letter} ")
    my_turn(ann)
    ann.page.keyboard.press("t")  # ghost: Ann completes a word and takes her last letter

    everyone(tabs, "#room-result", "Bob won the match")
    everyone(tabs, "#room-rounds", "Ann completed ‘ghost’")
    everyone(tabs, "#room-seats", "PIG")
    assert text(bob, "#room-moves") == ""
    assert text(eve, "#room-moves").count("Ann: g") == 0
    for tab in (ann, bob):
        assert tab.page.locator("#room-rematch").is_visible()
    assert eve.page.locator("#room-rematch").is_hidden()
    download = eve.page.locator("#room-download").get_attribute("href")
    record_json = eve.page.evaluate(f"fetch('{download}').then(r => r.json())")
    assert [e["type"] for e in record_json["events"]].count("round_over") == 3
    assert record_json["winners"] == [1]
    assert no_serious_violations(eve.page) == []
    assert no_serious_violations(ann.page) == []

    # A rematch: Ann asks, lands in the new room with a seat of her own.
    ann.page.locator("#room-rematch").click()
    ann.page.wait_for_url(lambda url: url != link and "/rooms/" in url, timeout=WAIT)
    shows(ann, "#room-whose", "Waiting for 1 more player")
    eve.page.wait_for_selector("#room-next:not([hidden])", timeout=WAIT)


@pytest.mark.parametrize("width", [1280, 375], ids=["desktop", "phone"])
def test_the_room_passes_axe_core_and_fits_a_phone(
    browser: Any, room_server: str, width: int
) -> None:
    """A player's view (keys, the word box when challenged, verdicts) and a spectator's,
    at desktop and phone width: no serious axe-core finding, nothing wider than the
    screen."""
    tabs = [person(browser, room_server, width) for _ in range(3)]
    ann, bob, eve = (next(t) for t in tabs)
    try:
        found: dict[str, list[str]] = {}
        eve.page.goto(f"{eve.base}/")
        eve.page.wait_for_selector("#rm-name option[value=five]", state="attached")
        eve.page.locator(".tab[data-tab=friends]").click()
        eve.page.locator("#rm-add").click()  # a third seat, a computer by default
        assert eve.page.locator("#rm-seats select").nth(2).input_value() == "optimal"
        found["the form"] = no_serious_violations(eve.page)
        assert eve.page.evaluate("document.documentElement.scrollWidth") <= width
        link = make_room(ann, lives="1", clock="60")
        join(bob, link, "Bob")
        watch(eve, link)
        my_turn(ann)
        found["player to move"] = no_serious_violations(ann.page)
        found["spectator"] = no_serious_violations(eve.page)
        ann.page.keyboard.press("t")
        my_turn(bob)
        bob.page.keyboard.press("!")
        ann.page.wait_for_selector("#room-word:not([hidden])")
        found["challenged"] = no_serious_violations(ann.page)
        ann.page.locator("#room-concede").click()
        everyone([ann, bob, eve], "#room-result", "won the match")
        found["over"] = no_serious_violations(eve.page)
        for tab in (ann, eve):
            wide = tab.page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, (tab, wide)
        assert {where: v for where, v in found.items() if v} == {}
    finally:
        for t in tabs:
            next(t, None)


@pytest.mark.parametrize("width", [1280, 375], ids=["desktop", "phone"])
def test_a_board_game_is_played_on_its_board(browser: Any, room_server: str, width: int) -> None:
    """Tic-tac-toe in a room: Ann against the computer, by pressing the board's squares (no
    keys beside it), Eve watching the same board; axe-core finds the board clean."""
    tabs = [person(browser, room_server, width) for _ in range(2)]
    ann, eve = (next(t) for t in tabs)
    try:
        ann.page.goto(f"{ann.base}/")
        ann.page.wait_for_selector("#rm-name option[value=tictactoe]", state="attached")
        ann.page.locator(".tab[data-tab=friends]").click()
        ann.page.select_option("#rm-name", "tictactoe")
        ann.page.locator("#rm-seats select").nth(1).select_option("optimal")
        ann.page.locator("#rm-player").fill("Ann")
        ann.page.locator("#room-form button[type=submit]").click()
        ann.page.wait_for_url(re.compile(r"/rooms/[A-Za-z0-9_-]+$"), timeout=WAIT)
        watch(eve, ann.page.url)
        board = "#room-board .ttt .key"
        ann.page.wait_for_selector(f"{board}:not([disabled])", timeout=WAIT)
        assert ann.page.locator(board).count() == 9
        assert ann.page.locator("#room-keys").is_hidden()  # the squares are the keys
        assert eve.page.locator(f"{board}:not([disabled])").count() == 0  # Eve only watches
        assert no_serious_violations(ann.page) == []
        played = 0
        while not text(ann, "#room-result"):
            ann.page.wait_for_function(
                "() => document.querySelector('#room-result').textContent"
                " || document.querySelector('#room-board .key:not([disabled])')",
                timeout=WAIT,
            )
            if text(ann, "#room-result"):
                break
            square = ann.page.locator(f"{board}:not([disabled])").first
            move = square.get_attribute("data-move")
            square.click()
            ann.page.wait_for_selector(f"{board}[data-move='{move}'].filled", timeout=WAIT)
            played += 1
        shows(eve, "#room-result", "the match")
        assert played >= 2
        cells = "#room-board .key"
        mine = ann.page.locator(cells).evaluate_all("ks => ks.map(k => k.textContent)")
        assert eve.page.locator(cells).evaluate_all("ks => ks.map(k => k.textContent)") == mine
        assert sorted(set(mine) - {""}) == ["O", "X"]
        assert "(final)" not in text(ann, "#room-rounds")  # the round's line says how it ended
        assert eve.page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        for t in tabs:
            next(t, None)
