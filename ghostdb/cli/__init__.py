"""The `ghostdb` command line: parse, call the library, render.  No SQL, no game logic.

`start.main` is the entry point: it answers the plainest lookup before the command line's
framework is imported, and hands everything else to `app` (made in `ghostdb.cli.group`:
this package imports nothing, so that the entry runs without Typer).  Each command module registers
its commands on it when imported; `COMMANDS` names the module of every command, in the
order ``ghostdb --help`` lists them, and a module is imported when one of its commands is
first looked up: a start imports the one command module it runs (``--help`` imports them
all), and a command imports its renderer, and anything else heavy, when it runs.

* `group`: the command group, its lazily made commands, the one way every failure ends,
  and opening the store; `options`: the options many commands share, and every game's
  rule options made from its declaration.
* The commands: `dictionaries` (``ingest``, ``dictionaries``, ``games``), `solving`
  (``solve``, ``solutions``, ``verify``), `world` (every Debian word list in one store),
  `lookups` (``lookup``, ``openings``, ``strategy``, ``line``, ``decisive``), `packs`
  (``pack``, ``probe``), `exports` (``export parquet``, ``export site``), `reports`
  (``compare``, ``report``, ``survey``), `playing` (``play``, ``puzzle``, ``analyse``,
  ``selfplay``), `serve` (the web page and the JSON API), `schema` (``db upgrade``, ``db
  current``) and `join` (a seat of a room, played from a terminal).
* `console`: the console game around a match, for ``play``: prompts, typed moves and
  what is announced after each.
"""

from __future__ import annotations

COMMANDS = {
    "ghostdb.cli.dictionaries": ("ingest", "dictionaries", "games"),
    "ghostdb.cli.solving": ("solve", "solutions", "verify"),
    "ghostdb.cli.world": ("world",),
    "ghostdb.cli.lookups": ("lookup", "openings", "strategy", "line", "decisive"),
    "ghostdb.cli.packs": ("pack", "probe"),
    "ghostdb.cli.reports": ("compare", "report", "survey"),
    "ghostdb.cli.playing": ("play", "puzzle", "analyse", "selfplay"),
    "ghostdb.cli.serve": ("serve",),
    "ghostdb.cli.join": ("join",),
    "ghostdb.cli.exports": ("export",),
    "ghostdb.cli.schema": ("db",),
}
"""Each command module and the commands (or sub-apps: ``export``, ``db``) it registers;
a test holds it to what the modules register."""


__all__ = ["COMMANDS"]
