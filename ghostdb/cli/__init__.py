"""The `ghostdb` command line: parse, call the library, render.  No SQL, no game logic.

`app` (made in `ghostdb.cli.group`) is the entry point.  Each command module registers
its commands on it when imported, so the modules are imported below in the order
``ghostdb --help`` lists the commands.  Every start imports them all: a command imports
its renderer, and anything else heavy, when it runs.

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

from ghostdb.cli.group import app

# isort: off
from ghostdb.cli import dictionaries, solving, world, lookups, packs, exports  # noqa: F401
from ghostdb.cli import reports, playing, serve, schema, join  # noqa: F401
# isort: on

__all__ = ["app"]
