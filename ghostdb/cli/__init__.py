"""The `ghostdb` command line: parse, call the library, render.  No SQL, no game logic.

`app` (made in `ghostdb.cli.group`) is the entry point.  Each command module registers
its commands on it when imported, so the modules are imported below in the order
``ghostdb --help`` lists the commands.  Every start imports them all: a command imports
its renderer, and anything else heavy, when it runs.
"""

from ghostdb.cli.group import app

# isort: off
from ghostdb.cli import dictionaries, solving, world, lookups, packs, exports  # noqa: F401
from ghostdb.cli import reports, playing, serve, schema, join  # noqa: F401
# isort: on

__all__ = ["app"]
