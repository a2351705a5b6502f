"""The offline copy of the game site (``ghostdb export site``): the page, its drawings and
the packs of the chosen solutions in one folder, which any static host serves (or
``python3 -m http.server`` in it) with no ghostdb and no database behind it.

The page is the server's own (`ghostdb.web.static`), with three scripts more, loaded
before it: ``pack.js`` reads the pack format (`ghostdb.pack.format`) in plain JavaScript,
``games.js`` holds each exported game's moves (``ghostdb/games/scripts``, one file a
game, the twins of the games' ``candidates``), and ``offline.js`` answers the page's
questions (``position``, ``move``, ``line``, the catalogue) from them.  ``site.json`` is
the catalogue: the exported solutions and how each game declares itself.  Lookups and
play are offline; reports, comparisons, plans and decisive words need the server, and
the copy does not offer them.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ghostdb.errors import NotSolved
from ghostdb.games.base import RuleSet
from ghostdb.games.registry import GAMES, parse_rules
from ghostdb.store import Store
from ghostdb.web.library import catalogue
from ghostdb.web.page import PAGE_HEADERS, page_html
from ghostdb.web.routes.plans import WALK_LIMIT

PAGE_FILES = ("app.js", "render.js", "panels.js", "roomviews.js", "rooms.js", "app.css")
"""The page's own files (index.html aside), copied as the server sends them."""
OFFLINE_SCRIPTS = ("pack.js", "games.js", "offline.js")
"""Loaded before ``app.js``, in this order (deferred scripts run in document order)."""
SITE_FORMAT = 1


@dataclass(frozen=True)
class Exported:
    """One solution in the copy: its pack's path in the folder, positions and bytes."""

    name: str
    rules: str
    path: str
    positions: int
    size: int


def chosen_solutions(store: Store, names: list[str], keys: list[str]) -> list[tuple[str, RuleSet]]:
    """The published solutions to export: every stored name when ``names`` is empty; of
    each, the rule sets ``keys`` name that belong to its game, else every one published.
    NotSolved (one line) for a name with nothing published or a key nobody has."""
    entries = {e["name"]: e for e in store.catalogue()}
    for key in keys:
        parse_rules(key)  # BadMove (one line) for a key of no game
    chosen: list[tuple[str, RuleSet]] = []
    for name in names or [n for n, e in entries.items() if e["rules"]]:
        entry = entries.get(name)
        if entry is None or not entry["rules"]:
            raise NotSolved(f"{name} has no published solution: run `ghostdb solve {name}` first")
        published = list(entry["rules"])
        own = [k for k in keys if parse_rules(k).game == parse_rules(published[0]).game]
        for key in own:
            if key not in published:
                raise NotSolved(
                    f"{name} has no published {key}: it has {', '.join(published)}; "
                    f"run `ghostdb solve {name}` with those rules first"
                )
        chosen += [(name, parse_rules(key)) for key in own or published]
    return chosen


def export_site(
    store: Store, folder: Path, chosen: list[tuple[str, RuleSet]], *, replace: bool = False
) -> list[Exported]:
    """Write the offline copy of ``chosen`` to ``folder`` (which must not exist, or be
    empty), whole or not at all: it is built beside it and renamed into place.  With
    ``replace``, ``folder`` may be an earlier copy (it holds a ``site.json``), which the
    new one replaces whole; any other folder that holds something is still refused, for
    a mistyped ``-o`` must not delete a folder of someone's files."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        if not replace:
            raise FileExistsError(f"{str(folder)!r} exists and is not an empty folder")
        if not is_site(folder):
            raise FileExistsError(f"{str(folder)!r} is not an offline site (it has no site.json)")
    partial = folder.with_name(f".{folder.name}.partial-{os.getpid()}")
    old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    try:
        exported = _build(store, partial, chosen)
        if folder.exists() and not any(folder.iterdir()):
            folder.rmdir()
        elif folder.exists():  # an earlier copy, moved aside until the new one is in place
            folder.rename(old)
        partial.rename(folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        if old.exists() and not folder.exists():
            old.rename(folder)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return exported


def is_site(folder: Path) -> bool:
    """Whether ``folder`` holds an offline copy `export_site` wrote."""
    return (folder / "site.json").is_file() and (folder / "index.html").is_file()


def _build(store: Store, into: Path, chosen: list[tuple[str, RuleSet]]) -> list[Exported]:
    static = resources.files("ghostdb.web") / "static"
    for file in (*PAGE_FILES, "pack.js", "offline.js"):
        (into / file).write_bytes((static / file).read_bytes())
    (into / "boards").mkdir()
    for board in (static / "boards").iterdir():  # each board drawing, as the page loads it
        (into / "boards" / board.name).write_bytes(board.read_bytes())
    (into / "index.html").write_text(_page(page_html("index.html")), "utf-8")
    exported = []
    for name, rules in chosen:
        relative = f"packs/{name}/{rules.key.replace('/', '_')}.ghostpack"
        path = into / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        positions, size = store.pack(name, rules, path)
        exported.append(Exported(name, rules.key, relative, positions, size))
    games = sorted({parse_rules(e.rules).game for e in exported})
    (into / "games.js").write_text(game_scripts(games), "utf-8")
    site = site_catalogue(store, exported)
    (into / "site.json").write_text(json.dumps(site, ensure_ascii=False, indent=1), "utf-8")
    return exported


def game_scripts(games: list[str]) -> str:
    """The moves of ``games`` in JavaScript, one registered file after another."""
    scripts = resources.files("ghostdb.games") / "scripts"
    return "\n".join((scripts / f"{game}.js").read_text("utf-8") for game in games)


def has_script(game: str) -> bool:
    """Whether a game's moves are written for the offline copy."""
    return (resources.files("ghostdb.games") / "scripts" / f"{game}.js").is_file()


def missing_scripts() -> list[str]:
    """The registered games whose moves the offline copy cannot make (none, tests say)."""
    return [g.name for g in GAMES if not has_script(g.name)]


def _page(html: str) -> str:
    """The server's page, reading its files from its own folder and loading the offline
    scripts before its own."""
    scripts = "".join(f'<script src="{s}" defer></script>\n' for s in OFFLINE_SCRIPTS)
    own = '<script src="app.js" defer></script>\n'
    # The server's policy, as a static host may send none: nothing loads from elsewhere
    # (frame-ancestors has no effect in a meta tag).
    policy = "; ".join(
        part
        for part in PAGE_HEADERS["Content-Security-Policy"].split("; ")
        if not part.startswith("frame-ancestors")
    )
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
    for old, new in (
        ('<meta charset="utf-8">\n', '<meta charset="utf-8">\n' + meta),
        ('<script src="/static/app.js" defer></script>\n', scripts + own),
    ):
        if old not in html:  # the page changed: this copy would load the wrong files
            raise RuntimeError(f"the page has no {old.strip()!r} to point at the copy")
        html = html.replace(old, new)
    return html.replace('="/static/', '="')  # the page's files, beside it


def site_catalogue(store: Store, exported: list[Exported]) -> dict[str, Any]:
    """``site.json``: what ``/api/solutions`` and ``/api/games`` would answer, for the
    exported rule sets only, and each one's pack."""
    keep: dict[str, dict[str, str]] = {}
    for e in exported:
        keep.setdefault(e.name, {})[e.rules] = e.path
    solutions = []
    for entry in catalogue(store):
        files = keep.get(entry["name"])
        if files is None:
            continue
        rule_sets = [
            {**r, "decisive": False}  # decisive words need the server
            for r in entry["rule_sets"]
            if r["rules"] in files
        ]
        solutions.append({**entry, "rules": list(files), "rule_sets": rule_sets})
    return {
        "format": SITE_FORMAT,
        "walk_limit": WALK_LIMIT,
        "solutions": solutions,
        "games": store.games(),
        "packs": keep,
    }
