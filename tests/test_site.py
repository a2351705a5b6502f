"""The offline copy of the game site (`ghostdb export site`) in a real browser.

The copy is served by a plain static file server (Python's ``http.server``, no ghostdb),
and Chromium may ask for nothing outside its folder.  Its JavaScript reads the packs and
makes each game's moves itself (``ghostdb/games/scripts``): every position it answers is
held to the store's own lookup, over every position of every registered game and of every
Ghost variant on a small list, and a sample of ENABLE's; its computer plays 100 games of
ENABLE Ghost/3, each move held to the store's best moves; whole games are played through
the page by clicks; axe-core finds nothing serious.  Needs /usr/bin/chromium.
"""

from __future__ import annotations

import functools
import json
import random
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import OWN_WORDLISTS, run
from test_browser import (
    CHROMIUM,
    Tab,
    best_move,
    browser,
    no_serious_violations,
    open_tab,
    play_chopsticks_move,
)

from ghostdb import Store, open_store
from ghostdb.games import registry
from ghostdb.games.chopsticks import ChopsticksRules
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.games.registry import parse_rules
from ghostdb.pack import open_pack
from ghostdb.web.site import chosen_solutions, export_site, missing_scripts

__all__ = ["browser"]  # the browser fixture, shared with the page's tests
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium: apt-get install chromium"),
]

FIVE_RULES = [
    Rules(min_length=3),
    Rules(min_length=3, misere=True),
    Rules(variant=Variant.SUPER, min_length=3),
    Rules(variant=Variant.SUPERDUPER, min_length=3),
    Rules(variant=Variant.INSERT, min_length=3),
    Rules(variant=Variant.ANAGRAM, min_length=3),
    Rules(min_length=3, players=3),
]
"""Every Ghost variant, misère and three players, over a small list (every position)."""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_args: Any) -> None:
        pass


def static_server(folder: Path) -> Iterator[str]:
    """A plain static file server over ``folder`` on a free port, in a thread."""
    handler = functools.partial(Quiet, directory=str(folder))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
        httpd.shutdown()


@pytest.fixture(scope="module")
def every_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """five.txt under every Ghost variant; every registered game under its standard rule
    sets (Connect Four: 4 × 4 only, the others take minutes)."""
    path = tmp_path_factory.mktemp("site-store") / "ghost.db"
    with open_store(str(path), create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        for rules in FIVE_RULES:
            store.solve("five", rules)
        for game in registry.GAMES:
            if game.word_game:
                continue
            for rules in (
                game.standard_rule_sets()[:1]
                if game.name == "connectfour"
                else (game.standard_rule_sets())
            ):
                store.solve(game.name, rules)
        yield store


@pytest.fixture(scope="module")
def every_site(every_store: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("every-site") / "site"
    export_site(every_store, folder, chosen_solutions(every_store, [], []))
    return folder


@pytest.fixture(scope="module")
def every_url(every_site: Path) -> Iterator[str]:
    yield from static_server(every_site)


@pytest.fixture(scope="module")
def enable_site(solved_enable1: Store, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("enable-site") / "site"
    export_site(solved_enable1, folder, chosen_solutions(solved_enable1, ["enable1"], ["ghost/3"]))
    return folder


@pytest.fixture(scope="module")
def enable_url(enable_site: Path) -> Iterator[str]:
    yield from static_server(enable_site)


def offline_tab(browser: Any, base: str) -> Iterator[Tab]:
    """A tab whose every request outside the copy's folder is refused (and recorded:
    `open_tab` fails the test on any)."""
    tabs = open_tab(browser, base)
    tab = next(tabs)
    tab.page.context.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith(base) else route.abort(),
    )
    yield tab
    next(tabs, None)


@pytest.fixture
def every_tab(browser: Any, every_url: str) -> Iterator[Tab]:
    yield from offline_tab(browser, every_url)


@pytest.fixture
def enable_tab(browser: Any, enable_url: str) -> Iterator[Tab]:
    yield from offline_tab(browser, enable_url)


JS_POSITIONS = """async ([name, rules, keys]) => Promise.all(keys.map((key) =>
    ghostdbOfflinePosition(name, rules, key)
      .catch((e) => ({ error: e.message, status: e.status }))))"""


def js_positions(tab: Tab, name: str, rules: str, keys: list[str]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for at in range(0, len(keys), 2_000):
        found += tab.page.evaluate(JS_POSITIONS, [name, rules, keys[at : at + 2_000]])
    return found


def held_to_the_store(tab: Tab, store: Store, name: str, rules: str, keys: list[str]) -> None:
    """Each key as the copy answers it equals the store's lookup (the same JSON)."""
    chosen = parse_rules(rules)
    for key, mine in zip(keys, js_positions(tab, name, rules, keys), strict=True):
        theirs = store.solution(name, chosen).lookup(key).as_dict()
        assert mine == theirs, (rules, key)


def test_every_game_and_variant_answers_every_position_as_the_store(
    every_tab: Tab, every_store: Store, every_site: Path
) -> None:
    """Every position of every exported solution (a sample of Connect Four's 161,029)."""
    every_tab.open()
    site = json.loads((every_site / "site.json").read_text())
    exported = [
        (name, rules, path)
        for name, files in site["packs"].items()
        for rules, path in files.items()
    ]
    assert {parse_rules(r).game for _, r, _ in exported} == {g.name for g in registry.GAMES}
    assert len(exported) >= len(FIVE_RULES) + 4
    rng = random.Random(7)
    for name, rules, path in exported:
        with open_pack(every_site / path) as pack:
            keys = [r[0] for r in pack.records()]
        if len(keys) > 3_000:
            keys = rng.sample(keys, 3_000)
        held_to_the_store(every_tab, every_store, name, rules, keys)


def test_a_position_the_pack_lacks_or_cannot_read_is_a_bad_request(every_tab: Tab) -> None:
    every_tab.open()
    for name, rules, text in (
        ("five", "ghost/3", "gz"),
        ("five", "ghost/3", "g1"),
        ("tictactoe", "tictactoe", "xx"),
        ("chopsticks", "chopsticks/5", "19-11"),
        ("connectfour", "connectfour/4x4", "x.../..../..../...."),
    ):
        (found,) = js_positions(every_tab, name, rules, [text])
        assert found["status"] == 400 and found["error"], (rules, text)
    asked = every_tab.page.evaluate(
        "() => ghostdbOffline('/api/nothing/position', {}).catch((e) => [e.status, e.message])"
    )
    assert asked[0] == 404 and "five" in asked[1]


def random_games(tab: Tab, rules: str, strategy: str, games: int, seed: int) -> list[list[Any]]:
    """``games`` games of enable1 in the page's JavaScript: player 0 plays a random legal
    move, player 1 is the copy's computer (`/move`) with ``strategy``; each game's
    computer moves as (position, move), its last position and its winner."""
    return tab.page.evaluate(
        """async ([rules, strategy, games, seed]) => {
          let s = seed;
          const next = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
          const found = [];
          for (let g = 0; g < games; g += 1) {
            let pos = await ghostdbOfflinePosition("enable1", rules, "");
            const replies = [];
            while (!pos.final && pos.plays.length) {
              let move;
              if (pos.to_move === 0) {
                move = pos.plays[Math.floor(next() * pos.plays.length)];
              } else {
                const reply = await ghostdbOffline("/api/enable1/move",
                  { rules, position: pos.fragment, strategy });
                move = reply.play;
                replies.push([pos.fragment, move.move]);
              }
              pos = await ghostdbOfflinePosition("enable1", rules, move.fragment);
            }
            found.push([replies, pos.fragment, pos.winner]);
          }
          return found;
        }""",
        [rules, strategy, games, seed],
    )


@pytest.mark.parametrize("strategy", ["optimal", "fastest"])
def test_the_copys_computer_plays_100_games_of_enable_perfectly(
    enable_tab: Tab, solved_enable1: Store, strategy: str
) -> None:
    """ENABLE Ghost/3 is a win for player 1: the copy's computer, as player 1, wins every
    game against random play, and each of its moves is one the store counts best: a
    winning move (optimal), the stored best move itself (fastest)."""
    enable_tab.open()
    rules = Rules(min_length=3)
    games = random_games(enable_tab, "ghost/3", strategy, 100, 11)
    assert len(games) == 100
    for replies, last, winner in games:
        assert winner == 1, last
        for fragment, move in replies:
            pos = solved_enable1.solution("enable1", rules).lookup(fragment)
            play = next(p for p in pos.plays if p.move == move)
            assert pos.outcome.value == "win" and play.wins, (fragment, move)
            if strategy == "fastest":
                assert move == pos.best_move, (fragment, move)
    assert len({last for _, last, _ in games}) > 5  # random play reached many words


@pytest.mark.parametrize(
    "hash_",
    [
        "#name=five&rules=super/3&players=human,computer",
        "#name=tictactoe&players=human,computer",
        "#name=connectfour&players=human,computer",
    ],
)
def test_whole_games_by_clicks_offline(every_tab: Tab, hash_: str) -> None:
    """A game to its end through the page: a random legal click each turn, the computer's
    replies from the copy; the computer never loses to random play where it can avoid it."""
    every_tab.open(hash_)
    rng = random.Random(5)
    moves = 0
    while not every_tab.over() and moves < 60:
        keys = every_tab.page.locator(
            "#keys .key:not(.dead):not([disabled]), .board button:not([disabled])"
        )
        keys.nth(rng.randrange(keys.count())).click()
        every_tab.wait_moves(moves + 2)
        moves = len(every_tab.record())
    assert every_tab.record()
    assert "player 0 (you) wins" not in every_tab.page.locator("#result").inner_text()


def test_chopsticks_by_clicks_offline_to_a_decision_or_a_repetition(every_tab: Tab) -> None:
    every_tab.open("#name=chopsticks&rules=chopsticks/5&players=human,computer&values=1")
    for _ in range(40):
        if every_tab.over():
            break
        moves = len(every_tab.record())
        play_chopsticks_move(every_tab, best_move(every_tab))
        every_tab.wait_moves(moves + 2)
    result = every_tab.page.locator("#result").inner_text()
    assert "drawn by repetition" in result or "wins" in result


def test_the_explorer_looks_up_and_the_line_is_walked_offline(enable_tab: Tab) -> None:
    enable_tab.open("#tab=explore&name=enable1&rules=ghost/3&position=gho")
    enable_tab.page.wait_for_selector("#ex-out table")
    text = enable_tab.page.locator("#ex-out").inner_text()
    assert "gho: player 1 to move wins; best move s" in text
    enable_tab.page.locator(".tab[data-tab=play]").click()
    enable_tab.page.locator("#show-line").click()
    enable_tab.page.wait_for_selector("#analysis table")
    assert "principal line" in enable_tab.page.locator("#analysis").inner_text()
    for hidden in ("#show-plan", ".tab[data-tab=tables]"):
        assert not enable_tab.page.locator(hidden).is_visible()


def test_the_copy_passes_axe_core(every_tab: Tab) -> None:
    every_tab.open("#name=five&rules=ghost/3&players=human,computer&values=1&moves=t")
    every_tab.page.wait_for_timeout(300)
    assert no_serious_violations(every_tab.page) == []


def test_opened_from_disk_it_says_to_serve_it(browser: Any, every_site: Path) -> None:
    page = browser.new_page()
    try:
        page.goto((every_site / "index.html").as_uri())
        page.wait_for_function("document.querySelector('#notice').textContent !== ''")
        assert "python3 -m http.server" in page.locator("#notice").inner_text()
    finally:
        page.close()


def test_every_registered_game_has_its_moves_in_javascript() -> None:
    assert missing_scripts() == []


# -- the command ----------------------------------------------------------------------------


def test_export_site_writes_the_folder_and_refuses_bad_requests(
    every_store: Store, tmp_path: Path
) -> None:
    db = Path(every_store.engine.url.database)
    out = tmp_path / "site"
    code, stdout, err = run(
        "export", "site", "chopsticks", "--rules", "chopsticks/4", "-o", str(out), db=db
    )
    assert code == 1 and err.count("\n") == 1 and "chopsticks/5" in err and not out.exists()
    code, stdout, err = run("export", "site", "nothing", "-o", str(out), db=db)
    assert code == 1 and err.count("\n") == 1 and not out.exists()
    code, stdout, err = run(
        "export", "site", "tictactoe", "--rules", "bogus/3", "-o", str(out), db=db
    )
    assert code == 1 and err.count("\n") == 1 and not out.exists()
    code, stdout, err = run(
        "export",
        "site",
        "five",
        "chopsticks",
        "--rules",
        "ghost/3",
        "--rules",
        "chopsticks/5/rollover",
        "-o",
        str(out),
        db=db,
    )
    assert code == 0, err
    site = json.loads((out / "site.json").read_text())
    assert site["packs"].keys() == {"five", "chopsticks"}
    assert list(site["packs"]["five"]) == ["ghost/3"]
    assert list(site["packs"]["chopsticks"]) == [ChopsticksRules(5, rollover=True).key]
    assert "http.server" in stdout
    code, _, err = run("export", "site", "five", "-o", str(out), db=db)
    assert code == 1 and "not an empty folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # nothing half made
