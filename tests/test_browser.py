"""The page in a real browser: Debian's Chromium, headless, driven by Playwright.

Whole games by keyboard and by clicks against the computer, Chopsticks and tic-tac-toe,
values, undo and redo, a game restored from its link, the explorer and the tables, the
page at phone width; after each, the browser console must be clean.  Needs
/usr/bin/chromium (``apt-get install chromium``); Playwright never downloads a browser.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import OWN_WORDLISTS, ROOT, run

from ghostdb import Store, open_store
from ghostdb.games import registry

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="needs Playwright: pip install -e '.[dev]'"
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium: apt-get install chromium"),
]


@pytest.fixture(scope="module")
def server(web_store: Store) -> Iterator[str]:
    from ghostdb import Rules

    # The server only reads a comparison: worked out first, as `ghostdb compare` would.
    web_store.compare("enable1", None, Rules(min_length=3), Rules(min_length=4))
    yield from serve(web_store)


@pytest.fixture(scope="module")
def every_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server over five.txt and every registered stand-alone game at default rules."""
    path = tmp_path_factory.mktemp("every-game-page") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        for game in registry.GAMES:
            store.solve("five" if game.word_game else game.name)
        yield from serve(store)


def serve(store: Store) -> Iterator[str]:
    """The app under uvicorn in a thread of this process, on a free port."""
    import uvicorn

    from ghostdb.web import server_config

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(server_config(store, port=port))  # as `ghostdb serve` has it
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@dataclass
class Tab:
    """A page, what its console said, and every URL it asked for."""

    page: Any
    base: str
    problems: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def open(self, hash_: str = "") -> None:
        self.page.goto(f"{self.base}/{hash_}")
        self.page.wait_for_selector("#record", state="attached")
        self.page.wait_for_function("document.querySelector('#chart svg') !== null")

    def record(self) -> list[str]:
        return self.page.locator("#record li").all_inner_texts()

    def wait_moves(self, count: int) -> None:
        """Until the game is over, or ``count`` moves are recorded and a human is to move."""
        self.page.wait_for_function(
            """n => document.querySelector('#result').textContent !== ''
                || (document.querySelectorAll('#record li').length >= n
                    && document.querySelector('#keys .key:not([disabled]),'
                        + ' .board button:not([disabled])') !== null)""",
            arg=count,
            timeout=15_000,
        )

    def over(self) -> bool:
        return self.page.locator("#result").inner_text() != ""


@pytest.fixture
def tab(browser: Any, server: str) -> Iterator[Tab]:
    yield from open_tab(browser, server)


@pytest.fixture
def every_tab(browser: Any, every_server: str) -> Iterator[Tab]:
    yield from open_tab(browser, every_server)


def open_tab(browser: Any, server: str) -> Iterator[Tab]:
    # Playwright's waits evaluate strings, which the page's CSP (no eval) would block.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True)
    page = context.new_page()
    found = Tab(page, server)
    page.on(
        "console",
        lambda m: (
            found.problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda e: found.problems.append(f"page error: {e}"))
    page.on("request", lambda r: found.requests.append(r.url))
    yield found
    context.close()
    assert found.problems == []  # the console stayed clean
    assert all(url.startswith(server) for url in found.requests)  # nothing from elsewhere


def computer_moves(tab: Tab) -> int:
    return sum(1 for line in tab.record() if line.startswith("player 1"))


def test_a_whole_game_by_keyboard_follows_the_principal_line(tab: Tab, web_db: Path) -> None:
    """ENABLE, words of 4+: the human opens n, then plays the stored best move each time;
    the optimal computer replies through /move; the game ends on a principal line's word."""
    tab.open("#name=enable1&rules=ghost/4&players=human,computer&values=1")
    tab.page.keyboard.press("n")
    tab.wait_moves(2)
    while not tab.over():
        moves = len(tab.record())
        best = tab.page.locator("#keys .key.best").get_attribute("data-letter")
        tab.page.keyboard.press(best)
        tab.wait_moves(moves + 2)
    word = tab.page.locator(".fragment").inner_text().strip()
    code, out, err = run("line", "enable1", "n", "--min-length", "4", "--json", db=web_db)
    assert code == 0, err
    assert word in [e["word"] for e in json.loads(out)["endings"]]
    assert "Player 1 (computer) completed the word" in tab.page.locator("#result").inner_text()
    assert "player 0 (you) wins" in tab.page.locator("#result").inner_text()
    asked = [u for u in tab.requests if "/api/enable1/move?" in u]
    assert len(asked) == computer_moves(tab) > 0


def test_a_whole_game_by_clicks_against_the_optimal_computer(tab: Tab) -> None:
    tab.open("#name=enable1&rules=ghost/3&players=human,computer&strategy=optimal&values=1")
    rng = random.Random(4)
    moves = 0
    while not tab.over():
        keys = tab.page.locator("#keys .key:not(.dead):not([disabled])")
        keys.nth(rng.randrange(keys.count())).click()
        tab.wait_moves(moves + 2)
        moves = len(tab.record())
    result = tab.page.locator("#result").inner_text()
    # Player 1 wins ENABLE with words of 3+: the optimal computer never loses.
    assert "completed the word" in result and "player 1 (computer) wins" in result
    assert computer_moves(tab) == len([u for u in tab.requests if "/move?" in u])


def test_values_undo_redo_and_a_game_restored_from_its_link(
    tab: Tab, browser: Any, server: str, tmp_path: Path
) -> None:
    tab.open("#name=enable1&rules=ghost/4&players=human,computer")
    assert tab.page.locator("#keys .key.win").count() == 0
    tab.page.keyboard.press("n")
    tab.wait_moves(2)
    tab.page.keyboard.press("y")  # a mistake: n y y is no word
    tab.wait_moves(3)
    assert tab.over() and "no word begins with 'nyy'" in tab.page.locator("#result").inner_text()
    tab.page.locator("#undo").click()
    assert len(tab.record()) == 2
    tab.page.locator("#show-values").check()
    assert tab.page.locator("#keys .key.win").count() == 1  # c is the only winning move
    assert tab.page.locator("#keys .key.dead").count() > 0  # letters no word continues
    assert tab.page.locator("#keys .key.best .val").inner_text().startswith("W")
    tab.page.keyboard.press("c")
    tab.wait_moves(4)
    before = tab.record()
    fragment = tab.page.locator(".fragment").inner_text()
    tab.page.keyboard.press("Backspace")  # undo the computer's reply and the move before it
    assert tab.record() == before[:2]
    tab.page.keyboard.press("Control+y")
    tab.page.keyboard.press("Control+y")
    assert tab.record() == before
    points = tab.page.locator("#chart svg circle, #chart svg rect, #chart svg path")
    assert points.count() == len(before) + 1
    shot = tmp_path / "web.png"
    tab.page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("GHOSTDB_FIGURES"):
        figures = ROOT / "docs" / "figures"
        figures.mkdir(exist_ok=True)
        shutil.copy(shot, figures / "web.png")
    link = tab.page.locator("#permalink").get_attribute("href")
    assert "moves=n%2Cy%2Cc%2C" in link
    other = browser.new_page(bypass_csp=True)
    try:
        other.goto(f"{server}/{link}")
        other.wait_for_function("document.querySelectorAll('#record li').length === 4")
        assert other.locator("#record li").all_inner_texts() == before
        assert other.locator(".fragment").inner_text() == fragment
        assert other.locator("#show-values").is_checked()
    finally:
        other.close()


def fill(page: Any, selector: str) -> None:
    """Empty a node (so that what fills it next is waited for)."""
    page.evaluate("s => document.querySelector(s).replaceChildren()", selector)


def test_the_game_record_round_trips_into_the_analysis(tab: Tab, web_db: Path) -> None:
    """The page's "Analyse the game" judges the record it shows, as `ghostdb analyse`
    judges the same moves (a letter no word continues included); axe-core finds the
    analysis clean."""
    tab.open("#name=enable1&rules=ghost/4&players=human,computer")
    tab.page.keyboard.press("n")
    tab.wait_moves(2)
    tab.page.keyboard.press("y")
    tab.wait_moves(3)
    moves = [line.split()[2] for line in tab.record()]  # "player 0 n → n …"
    tab.page.locator("#show-analysis").click()
    tab.page.wait_for_selector("#analysis table")
    rows = tab.page.locator("#analysis tbody tr").all_inner_texts()
    code, out, err = run("analyse", "enable1", *moves, "--min-length", "4", "--json", db=web_db)
    assert code == 0, err
    found = json.loads(out)
    assert len(rows) == len(found["moves"]) == 3
    for row, m in zip(rows, found["moves"], strict=True):
        assert m["move"] in row and m["verdict"] in row
    assert found["moves"][-1]["value_after"] == "loss"
    assert no_serious_violations(tab.page) == []
    fill(tab.page, "#analysis")  # a pasted record, as `play` prints its moves
    tab.page.locator("#record-text").fill(" ".join(moves[:2]))
    tab.page.locator("#record-form button").click()
    tab.page.wait_for_function("document.querySelectorAll('#analysis tbody tr').length === 2")


def test_explore_values_moves_against_a_common_player(tab: Tab, web_store: Store) -> None:
    pytest.importorskip("wordfreq", reason="needs wordfreq: pip install 'ghostdb[freq]'")
    tab.open("#tab=explore&name=enable1&rules=ghost/3&position=q")
    tab.page.wait_for_selector("#ex-out table")
    tab.page.locator("#ex-against").select_option("common:2000")
    tab.page.locator("#explore-form button[type=submit]").click()
    tab.page.wait_for_selector("#ex-out th:text('against common:2000')")
    found = web_store.solution("enable1").against(
        web_store.solution("enable1").lookup("q"), "common:2000"
    )
    rows = tab.page.locator("#ex-out tbody tr").all_inner_texts()
    for p in found["plays"]:
        row = next(r for r in rows if r.split("\t")[0] == p["move"])
        assert row.split("\t")[-1] == ("W" if p["outcome"] == "win" else "L") + str(
            p["game_length"]
        )
    assert no_serious_violations(tab.page) == []


def test_puzzles_keep_a_streak(tab: Tab, web_store: Store) -> None:
    """The Puzzles tab: a kept puzzle's moves as buttons; the right one counts in the
    streak, a wrong one names the answer and ends the streak; axe-core finds it clean."""
    tab.open("#name=enable1&rules=ghost/3")
    tab.page.locator(".tab[data-tab=puzzles]").click()
    for right in (True, True, False):
        tab.page.locator("#puzzle-form button[type=submit]").click()
        tab.page.wait_for_selector("#pz-out .puzzle-move:not([disabled])")
        text = tab.page.locator("#pz-out p").first.inner_text()
        fragment = text.split(" — ")[0]
        pos = web_store.solution("enable1").lookup(fragment)
        answer = next(p.move for p in pos.plays if p.wins)
        moves = tab.page.locator("#pz-out .puzzle-move")
        pick = answer if right else next(m for m in moves.all_inner_texts() if m != answer)
        moves.filter(has_text=pick).first.click()
        said = tab.page.locator("#pz-out [role=status]").inner_text()
        assert said.startswith("Right" if right else "No") and answer in said
    assert tab.page.locator("#pz-streak").inner_text() == "Solved in a row: 0."
    assert no_serious_violations(tab.page) == []


def test_chopsticks_by_clicks_to_a_decision_or_a_repeated_position(tab: Tab) -> None:
    tab.open("#name=chopsticks&rules=chopsticks/5&players=human,computer&values=1")
    # A tap by clicking hands: my left hand, then the opponent's left hand.
    tab.page.locator(".hands .row").nth(1).locator("button").nth(0).click()
    tab.page.locator(".hands .row").nth(0).locator("button").nth(0).click()
    tab.wait_moves(2)
    assert tab.record()[0].startswith("player 0 1>1")
    for _ in range(40):
        if tab.over():
            break
        moves = len(tab.record())
        play_chopsticks_move(tab, best_move(tab))  # by clicks on the drawn hands
        tab.wait_moves(moves + 2)
    result = tab.page.locator("#result").inner_text()
    assert "drawn by repetition" in result or "wins" in result


def best_move(tab: Tab) -> str:
    """The stored best move at the page's position, as its status line says it."""
    status = tab.page.locator("#status").inner_text()
    return status.rsplit("best move ", 1)[1].strip()


def play_chopsticks_move(tab: Tab, move: str) -> None:
    """A tap by clicking my hand, then the opponent's; a transfer by its control."""
    rows = tab.page.locator(".hands .row")
    if ">" in move:
        mine, theirs = move.split(">")
        rows.nth(1).locator(
            "button", has=tab.page.locator(f".count:text-matches(' {mine}$')")
        ).first.click()
        rows.nth(0).locator(
            "button", has=tab.page.locator(f".count:text-matches(' {theirs}$')")
        ).first.click()
    else:
        tab.page.locator(f".transfers [data-move='{move}']").click()


def test_tictactoe_by_keyboard_ends_in_a_tie_with_best_play(tab: Tab) -> None:
    tab.open("#name=tictactoe&rules=tictactoe&players=human,computer&values=1")
    moves = 0
    while not tab.over():
        best = tab.page.evaluate(
            "fetch(location.origin + '/api/tictactoe/position?fragment=' +"
            " [...document.querySelectorAll('.ttt button')].map(b => b.textContent[0] === 'X'"
            " ? 'x' : b.textContent[0] === 'O' ? 'o' : '.').join('')).then(r => r.json())"
            ".then(p => p.best_move)"
        )
        tab.page.keyboard.press(best)
        tab.wait_moves(moves + 2)
        moves = len(tab.record())
    assert "Nobody wins" in tab.page.locator("#result").inner_text()


def test_computer_against_computer_plays_to_the_end(tab: Tab) -> None:
    tab.open("#name=enable1&rules=ghost/3&players=computer,computer")
    tab.page.wait_for_function(
        "document.querySelector('#result').textContent !== ''", timeout=60_000
    )
    assert "player 1 (computer) wins" in tab.page.locator("#result").inner_text()


def test_principal_line_and_plan_from_a_position(tab: Tab) -> None:
    tab.open("#name=enable1&rules=ghost/4&players=human,human&moves=n")
    tab.page.locator("#show-line").click()
    tab.page.wait_for_selector("#analysis table")
    assert "nyctalopia" in tab.page.locator("#analysis").inner_text()


def explore_in(tab: Tab, name: str, position: str) -> None:
    """Open the Explore tab and look up ``position`` of ``name``, as a user types it."""
    tab.open()
    tab.page.locator(".tab[data-tab=explore]").click()
    tab.page.locator("#ex-name").select_option(name)
    tab.page.locator("#ex-name").dispatch_event("change")
    tab.page.locator("#ex-fragment").fill(position)
    tab.page.locator("#ex-fragment").press("Enter")
    tab.page.wait_for_selector("#ex-out table")


PLAN_CELL = re.compile(r"\d[\d,]* (?:word|sequence)s?, (?:all won|all lost|[\d,]+ lost)")


def test_explorer_report_and_compare(tab: Tab, web_db: Path) -> None:
    """The page's report and comparison say each plan as the command line does."""
    explore_in(tab, "enable1", "gho")
    assert "player 1 to move wins; best move s" in tab.page.locator("#ex-out").inner_text()
    tab.page.locator("#ex-out button", has_text="ghou").click()
    tab.page.wait_for_function("document.querySelector('#ex-out').textContent.includes('ghoul')")
    tab.page.locator(".tab[data-tab=tables]").click()
    tab.page.locator("#rep-name").select_option("tictactoe")
    tab.page.locator("#report-form button").click()
    tab.page.wait_for_selector("#rep-out table")
    assert "tictactoe" in tab.page.locator("#rep-out").inner_text()
    tab.page.locator("#rep-name").select_option("enable1")
    tab.page.locator("#report-form button").click()
    tab.page.wait_for_function("document.querySelector('#rep-out').textContent.includes('ghost/3')")
    said = PLAN_CELL.findall(run("report", "enable1", db=web_db)[1])
    assert said and PLAN_CELL.findall(tab.page.locator("#rep-out").inner_text()) == said
    tab.page.locator("#cmp-a").select_option("enable1")
    tab.page.locator("#cmp-a").dispatch_event("change")
    tab.page.locator("#cmp-a-rules").select_option("ghost/3")
    tab.page.locator("#cmp-b").select_option("enable1")
    tab.page.locator("#cmp-b").dispatch_event("change")
    tab.page.locator("#cmp-b-rules").select_option("ghost/4")
    tab.page.locator("#compare-form button").click()
    tab.page.wait_for_selector("#cmp-out table")
    assert "h n" in tab.page.locator("#cmp-out").inner_text()
    cli = run("compare", "enable1", "--min-length", "3", "--vs-min-length", "4", db=web_db)[1]
    said = PLAN_CELL.findall(cli)
    assert len(said) == 4 and PLAN_CELL.findall(tab.page.locator("#cmp-out").inner_text()) == said


def test_first_load_is_small_and_fits_a_phone(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True
    )
    page = context.new_page()
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(len(r.body())))
    try:
        page.goto(f"{server}/#name=enable1&rules=ghost/3")
        page.wait_for_function("document.querySelector('#chart svg') !== null")
        page.wait_for_load_state("networkidle")
        assert 0 < sum(sizes) <= 150_000  # the target: 150 KB
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        context.close()


# -- every registered game, drawn by its declared board ------------------------------------

BOARD = {"letters": ".fragment", "hands": ".hands", "grid": ".ttt", "columns": ".columns"}
"""The element that draws each board kind."""


def click_a_move(tab: Tab, board: str) -> None:
    """One move by clicks on the board (or the letter keys) as a player would make it."""
    page = tab.page
    if board == "hands":  # my left hand, then the opponent's left hand
        page.locator(".hands .row").nth(1).locator("button").nth(0).click()
        page.locator(".hands .row").nth(0).locator("button").nth(0).click()
    elif board == "letters":
        page.locator("#keys .key.best").click()
    else:  # a square, or a column to drop a disc in
        page.locator(f"{BOARD[board]} button:not([disabled])").first.click()


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_every_game_is_drawn_and_played_by_click(every_tab: Tab, game: Any) -> None:
    name = "five" if game.word_game else game.name
    rules = registry.default_rules(name).key
    every_tab.open(f"#name={name}&rules={rules}&players=human,computer&values=1")
    assert every_tab.page.locator(BOARD[game.board]).count() == 1, game.board
    shown = every_tab.page.locator("#how-to-play").inner_text()
    # How to play the chosen rule set, in words: no other variant's rules, no flags.
    assert registry.game_of(registry.parse_rules(rules)).explain() in shown
    assert "--" not in shown
    every_tab.wait_moves(0)
    click_a_move(every_tab, game.board)
    every_tab.wait_moves(1)
    assert every_tab.record()[0].startswith("player 0 ")
    if game.board == "columns":  # the disc landed at the foot of its column
        assert every_tab.page.locator(".columns .disc").count() >= 1


def test_the_page_opens_on_the_word_game(every_tab: Tab) -> None:
    every_tab.open()
    assert every_tab.page.locator("#name").input_value() == "five"
    assert every_tab.page.locator(".fragment").count() == 1


def test_choosing_a_game_starts_it_and_ghost_comes_first(every_tab: Tab) -> None:
    """The dictionaries (Ghost) head the list; choosing another game draws its board at
    once, with no press of New game."""
    every_tab.open()
    page = every_tab.page
    names = page.locator("#name option").evaluate_all("(os) => os.map((o) => o.value)")
    words = [n for n in names if registry.played_as(n).word_game]
    assert names[: len(words)] == words and len(words) < len(names)
    for game in registry.GAMES:
        if not game.word_game:
            page.locator("#name").select_option(game.name)
            page.locator(BOARD[game.board]).wait_for()
            assert page.locator("#how-to-play").inner_text().startswith(game.title)


# -- what each board shows, links into the explorer, and accessibility ----------------------


@pytest.fixture(scope="module")
def small_server(small_web_db: Path) -> Iterator[str]:
    with open_store(str(small_web_db), create=False) as store:
        yield from serve(store)


@pytest.fixture
def small_tab(browser: Any, small_server: str) -> Iterator[Tab]:
    yield from open_tab(browser, small_server)


@pytest.mark.parametrize(
    ("name", "moves", "line"),
    [("tictactoe", "5,1,2,8,3,7,4,9", 3), ("connectfour", "1,2,1,2,1,2,1", 4)],
)
def test_board_games_say_who_is_who_and_mark_the_winning_line(
    every_tab: Tab, name: str, moves: str, line: int
) -> None:
    every_tab.open(f"#name={name}&players=human,human&moves={moves}")
    every_tab.page.wait_for_function("document.querySelector('#result').textContent !== ''")
    marks = every_tab.page.locator(".marks").inner_text()
    assert "X: player 0 (human)" in marks and "O: player 1 (human)" in marks
    assert every_tab.page.locator(".board .won").count() == line
    every_tab.page.locator("#undo").click()  # no line any more
    assert every_tab.page.locator(".board .won").count() == 0


def test_super_keys_show_the_best_value_over_every_side(small_tab: Tab) -> None:
    small_tab.open("#name=five&rules=super/3&players=human,human&values=1&moves=r%2B")
    small_tab.wait_moves(1)
    position = json.loads(
        small_tab.page.evaluate(
            "fetch('/api/five/position?rules=super/3&position=r').then(r => r.text())"
        )
    )
    best: dict[str, Any] = {}
    for play in position["plays"]:  # best first: the first play of each letter is its best
        best.setdefault(play["move"].strip("+~"), play)
    for letter, play in best.items():
        key = small_tab.page.locator(f"#keys .key[data-letter='{letter}']")
        assert key.get_attribute("data-best") == play["move"], letter
        shown = key.locator(".val").inner_text()
        assert shown == {"win": "W", "loss": "L"}[play["category"]] + str(play["game_length"])


def test_an_explored_position_has_a_link_and_plays_from_there(small_tab: Tab) -> None:
    explore_in(small_tab, "five", "tr")
    text = small_tab.page.locator("#ex-out").inner_text()
    assert "null" not in text and "undefined" not in text
    link = small_tab.page.locator("#ex-out a.explore-link").get_attribute("href")
    assert link is not None and "tab=explore" in link and "position=tr" in link
    assert small_tab.page.evaluate("location.hash") == link
    # The link opens the explorer on the same position, in a fresh page.
    small_tab.page.goto(f"{small_tab.base}/{link}")
    small_tab.page.wait_for_selector("#ex-out table")
    assert small_tab.page.locator("#explore").is_visible()
    assert small_tab.page.locator("#ex-out").inner_text() == text
    small_tab.page.locator("#play-from-here").click()
    small_tab.page.wait_for_function("document.querySelector('.fragment').textContent === 'tr'")
    assert small_tab.page.locator("#play").is_visible()
    assert "player 0 (you) to move" in small_tab.page.locator("#status").inner_text()
    assert "from=tr" in small_tab.page.evaluate("location.hash")


def no_serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_every_tab_passes_axe_core(browser: Any, small_server: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        found: dict[str, list[str]] = {}
        for hash_ in (
            "#name=five&rules=ghost/3&players=human,computer&values=1&moves=t",
            "#name=chopsticks&players=human,computer&values=1",
            "#name=tictactoe&players=human,human&values=1&moves=5,1",
        ):
            page.goto(f"{small_server}/{hash_}")
            page.wait_for_function("document.querySelector('#chart svg') !== null")
            page.wait_for_timeout(300)
            found[f"play {hash_}"] = no_serious_violations(page)
        page.locator(".tab[data-tab=explore]").click()
        page.locator("#ex-fragment").fill("t")
        page.locator("#ex-fragment").press("Enter")
        page.wait_for_selector("#ex-out table")
        found["explore"] = no_serious_violations(page)
        page.locator(".tab[data-tab=tables]").click()
        page.locator("#report-form button").click()
        page.wait_for_selector("#rep-out table")
        page.locator("#compare-form button").click()
        page.wait_for_selector("#cmp-out table, #cmp-out .error")
        found["report and compare"] = no_serious_violations(page)
        assert {where: v for where, v in found.items() if v} == {}
    finally:
        context.close()


def test_chopsticks_record_is_absolute_and_transfers_are_a_control(small_tab: Tab) -> None:
    small_tab.open("#name=chopsticks&players=human,human&values=1&moves=1>1,2>1")
    small_tab.wait_moves(2)
    record = small_tab.record()
    # Positions are named from player 0's side whoever is to move, each move marked.
    assert record[0].startswith("player 0 1>1 → player 0: 11, player 1: 12")
    assert record[1].startswith("player 1 2>1 → player 0: 13, player 1: 12")
    assert small_tab.page.locator("#record li .mark").count() == 2
    assert small_tab.page.locator(".hands .hand-svg").count() == 4
    transfer = small_tab.page.locator(".transfers [data-move='=22']")
    assert "draw for the player making it" in (transfer.get_attribute("title") or "")
    transfer.click()
    small_tab.wait_moves(3)
    assert small_tab.record()[2].startswith("player 0 =22 → player 0: 22, player 1: 12")


SHOWN = {  # a position of each game worth a picture: mid-game, values shown
    "ghost": "#name=five&rules=ghost/3&players=human,computer&values=1&moves=t",
    "chopsticks": "#name=chopsticks&players=human,computer&values=1&moves=1>1",
    "tictactoe": "#name=tictactoe&players=human,human&values=1&moves=5,1,2,8,3,7,4",
    "connectfour": "#name=connectfour&players=human,human&values=1&moves=1,2,1,2,1,2",
}


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_every_game_has_a_picture(every_tab: Tab, tmp_path: Path, game: Any) -> None:
    """Each registered game drawn mid-game with its values (GHOSTDB_FIGURES=1 writes the
    manual's pictures, docs/figures/page-GAME.png)."""
    assert game.name in SHOWN, "a new game: add a position worth a picture to SHOWN"
    every_tab.open(SHOWN[game.name])
    every_tab.page.wait_for_selector(f"{BOARD[game.board]}")
    every_tab.page.wait_for_timeout(400)  # a falling disc lands
    shot = tmp_path / f"page-{game.name}.png"
    every_tab.page.locator(".game").screenshot(path=str(shot))
    assert shot.stat().st_size > 5_000
    if os.environ.get("GHOSTDB_FIGURES") and not game.word_game:  # Ghost's is web.png
        shutil.copy(shot, ROOT / "docs" / "figures" / shot.name)


@pytest.mark.parametrize("mode", ["click", "keyboard"])
@pytest.mark.parametrize("name", ["tictactoe", "connectfour"])
def test_a_whole_board_game_with_best_play_is_a_tie(every_tab: Tab, name: str, mode: str) -> None:
    """Tic-tac-toe and Connect Four 4 x 4 are ties: the human plays the stored best move
    each turn, by clicking its square or column or by typing its number, against the
    optimal computer, and nobody wins."""
    every_tab.open(f"#name={name}&players=human,computer&values=1")
    for _ in range(20):
        if every_tab.over():
            break
        moves = len(every_tab.record())
        move = best_move(every_tab)
        if mode == "click":
            every_tab.page.locator(f".board button[data-move='{move}']").click()
        else:
            every_tab.page.keyboard.press(move)
        every_tab.wait_moves(moves + 2)
    assert every_tab.over()
    assert "Nobody wins." in every_tab.page.locator("#result").inner_text()
    assert every_tab.page.locator(".board .won").count() == 0


def test_chopsticks_by_keyboard_alone(small_tab: Tab) -> None:
    """Every control of the hands board is a button: Tab reaches it, Enter presses it."""
    small_tab.open("#name=chopsticks&players=human,computer&values=1")
    page = small_tab.page
    for _ in range(12):
        if small_tab.over():
            break
        moves = len(small_tab.record())
        move = best_move(small_tab)
        if ">" in move:
            mine, theirs = move.split(">")
            rows = page.locator(".hands .row")
            for row, count in ((1, mine), (0, theirs)):
                hand = rows.nth(row).locator(
                    "button", has=page.locator(f".count:text-matches(' {count}$')")
                )
                hand.first.focus()
                page.keyboard.press("Enter")
        else:
            page.locator(f".transfers [data-move='{move}']").focus()
            page.keyboard.press("Enter")
        small_tab.wait_moves(moves + 2)
    assert len(small_tab.record()) >= 2
    assert all(line.startswith(("player 0", "player 1")) for line in small_tab.record())


# -- decisive words: the Explore panel, and why on the compare view ---------------------------


@pytest.fixture(scope="module")
def decisive_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """five and other (five without tan, with toga) solved, with tic-tac-toe; the command
    line has worked out five's decisive words at the start with other as the pool, and
    why five and other differ (the server only reads answers)."""
    from conftest import write_list

    path = tmp_path_factory.mktemp("decisive-page") / "ghost.db"
    other = write_list(path.parent, "ghost green toga tree tries", "other")
    for args in (
        ("ingest", str(OWN_WORDLISTS / "five.txt")),
        ("ingest", str(other)),
        ("solve", "five"),
        ("solve", "other"),
        ("solve", "tictactoe"),
        ("decisive", "five", "--pool", "other"),
        ("compare", "five", "other", "--why"),
    ):
        code, _, err = run(*args, db=path)
        assert code == 0, err
    with open_store(str(path), create=False) as store:
        yield from serve(store)


@pytest.fixture
def decisive_tab(browser: Any, decisive_server: str) -> Iterator[Tab]:
    yield from open_tab(browser, decisive_server)


def explore_to(page: Any, name: str, position: str) -> None:
    """Look up ``position`` of ``name`` on the Explore tab, as a user types it."""
    page.locator("#ex-name").select_option(name)
    page.locator("#ex-name").dispatch_event("change")
    page.locator("#ex-fragment").fill(position)
    page.locator("#ex-fragment").press("Enter")
    link = f"#ex-out a.explore-link[href*='name={name}&'][href$='position={position}']"
    page.wait_for_selector(link)


def test_decisive_words_on_a_phone_by_keyboard(decisive_tab: Tab) -> None:
    """Explore five at the start, pool other, by keyboard at 390 px: the panel names the
    word whose deletion alone changes the outcome and the move it changes; axe finds
    nothing serious and nothing scrolls sideways.  At tr nobody has worked the answer
    out: the panel says which command does.  A long list stops at 40; a game without
    words has no panel."""
    page = decisive_tab.page
    page.set_viewport_size({"width": 390, "height": 844})
    decisive_tab.open("#tab=explore&name=five&rules=ghost/3&position=")
    page.wait_for_selector("#ex-out table")
    assert page.locator("#decisive").is_visible()
    page.locator("#dec-pool").select_option("other")
    page.locator("#decisive-form button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#dec-out ul")
    shown = page.locator("#dec-out").inner_text()
    assert "Now, at (start): player 0 to move loses." in shown
    assert "Deleting one word alone changes it: 1 word:" in shown
    assert "tan — the move t: losing → winning" in shown
    assert "Adding one word of other alone changes it: 0 words." in shown
    assert "Fewest edits that change it: 1, then player 0 to move wins:" in shown
    assert "delete tan — the move t: losing → winning" in shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert no_serious_violations(page) == []

    explore_to(page, "five", "tr")
    page.locator("#decisive-form button").click()
    page.wait_for_selector("#dec-out .note")
    note = page.locator("#dec-out .note").inner_text()
    assert "not worked out yet" in note and "ghostdb decisive five --position tr" in note
    assert page.locator("#dec-out .note code").count() == 1
    # The browser logs every 404 it is answered; this one is the answer expected.
    expected = (
        "error: Failed to load resource: the server responded with a status of 404 (Not Found)"
    )
    assert decisive_tab.problems == [expected]
    decisive_tab.problems.clear()

    many = [  # a made-up answer: 45 deletions, the fewest an upper bound
        {"word": f"tr{i:02}", "outcome": "loss", "move": "tr", "move_before": "loss",
         "move_after": "gone"}
        for i in range(45)
    ]  # fmt: skip
    fewest = {"count": 2, "exact": False, "delete": [], "add": [], "outcome": "loss", "edits": []}
    body = {"name": "five", "rules": "ghost/3", "position": "tr", "to_move": 0,
            "outcome": "win", "pool": None, "deletions": many, "additions": None,
            "fewest": fewest}  # fmt: skip
    page.route("**/api/five/decisive?*", lambda route: route.fulfill(json=body))
    page.locator("#decisive-form button").click()
    page.wait_for_selector("#dec-out ul")
    assert page.locator("#dec-out ul li").count() == 41
    assert page.locator("#dec-out ul li").last.inner_text() == "and 5 more"
    assert "Fewest edits that change it: at most 2" in page.locator("#dec-out").inner_text()

    explore_to(page, "tictactoe", "")
    assert page.locator("#decisive").is_hidden()


def test_compare_says_why_two_dictionaries_differ(decisive_tab: Tab) -> None:
    page = decisive_tab.page
    decisive_tab.open()
    page.locator(".tab[data-tab=tables]").click()
    for side, name in (("a", "five"), ("b", "other")):
        page.locator(f"#cmp-{side}").select_option(name)
        page.locator(f"#cmp-{side}").dispatch_event("change")
        page.locator(f"#cmp-{side}-rules").select_option("ghost/3")
    page.locator("#compare-form button").click()
    page.wait_for_selector("#cmp-out table")
    shown = page.locator("#cmp-out").inner_text()
    assert "Why: player 0 loses in five and wins in other; 1 of their 2 differing words" in shown
    assert "delete tan (only in five) — the move t: losing → winning" in shown
