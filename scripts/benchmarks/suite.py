"""The run as a whole: the areas `--only` chooses, every row of a full run in its order,
the registry of the tasks a child runs (`TASKS`, built from the area modules' own), and
the run from the header to the last table."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from . import (
    decisive,
    enable,
    games,
    hooks,
    learning,
    lookups,
    packs,
    polish,
    postgres,
    reads,
    rooms,
    scaling,
    solving,
    verify,
    world,
)
from .runner import (
    BIG_LIST,
    PEER,
    Bench,
    Row,
    Task,
    compile_ghostdb,
    ghostdb,
    list_name,
    load,
    machine,
    measure,
    print_rows,
)

Options = argparse.Namespace
"""The parsed command line of scripts/bench.py."""


def registry(*modules: Mapping[str, Task]) -> dict[str, Task]:
    """The tasks of every area module in one table; a name twice is a mistake."""
    tasks: dict[str, Task] = {}
    for module in modules:
        for name, task in module.items():
            if name in tasks:
                raise ValueError(f"two child tasks named {name!r}")
            tasks[name] = task
    return tasks


TASKS = registry(
    solving.TASKS,
    lookups.TASKS,
    reads.TASKS,
    decisive.TASKS,
    packs.TASKS,
    polish.TASKS,
    learning.TASKS,
    world.TASKS,
    rooms.TASKS,
)
"""What ``bench.py --child TASK ARG...`` runs (`runner.child` starts it)."""

ONLY: dict[str, tuple[str, Callable[[Bench, Options], list[Row]]]] = {
    "packs": ("packs and the offline site", lambda bench, _: packs.enable_packs(bench)),
    "learning": ("analysis, puzzles, common players", lambda bench, _: learning.learning(bench)),
    "polish": ("Polish", lambda bench, options: polish.polish(bench, options.quick)),
    "rooms": ("rooms", lambda bench, options: rooms.rows(bench, options.postgres)),
    "startup": ("the lookup's start-up", lambda bench, _: lookups.startup(bench)),
    "verify": ("verify against the solve", lambda bench, _: verify.against_solve(bench)),
}
"""The areas of `--only` measured by one function: (the progress line, the rows)."""
AREAS = ("world", "world-postgres", *ONLY)
"""Every choice of `--only`."""


def everything(bench: Bench, options: Options) -> list[Row]:
    """Every row but the scaling table's (the world store's with --world)."""
    rows = measure("Ghost, side by side with the notebook", lambda: enable.enable_ghost(bench))
    if not options.quick:
        rows += measure("SuperDuperGhost, side by side", lambda: enable.enable_duper(bench))
    rows += measure("lookups", lambda: lookups.lookups(bench))
    rows += measure("games", lambda: games.games(bench))
    rows += measure("Connect Four", lambda: games.connect_four(bench, options.quick))
    if not options.quick:
        rows += measure("Insert, Anagram, 3 players", lambda: enable.variants(bench))
    if options.quick:
        rows.append(Row(f"SuperDuperGhost, {list_name(BIG_LIST)}", note="skipped (--quick)"))
    else:
        rows += measure("big list", lambda: scaling.big_list(bench))
    rows += measure("packs and the offline site", lambda: packs.enable_packs(bench))
    rows += measure("analysis, puzzles, common players", lambda: learning.learning(bench))
    rows += measure("Polish", lambda: polish.polish(bench, options.quick))
    rows += measure("plans, comparison, self-play", lambda: reads.reads(bench))
    rows += measure("verify", lambda: verify.verify(bench))
    if not options.quick:
        rows += measure("verify against the solve", lambda: verify.against_solve(bench))
    # After verify: a kept answer is re-checked by verify too (about a second more).
    rows += measure("decisive words", lambda: decisive.decisive(bench))
    if not options.quick:
        rows += measure("solve --all in worker processes", lambda: enable.parallel(bench))
    if options.postgres:
        rows += measure("PostgreSQL", lambda: postgres.postgres(bench, options.postgres))
    if options.world or options.all:
        rows += world.world_rows(bench, options.postgres)
    return rows


def only(bench: Bench, options: Options) -> list[Row]:
    """The rows of the one area ``options.only``."""
    if options.only == "world-postgres" and not options.postgres:
        sys.exit("error: --only world-postgres needs --postgres URL")
    if options.only in ONLY:
        title, rows = ONLY[options.only]
        return measure(title, lambda: rows(bench, options))
    return world.world_rows(bench, options.postgres, sqlite=options.only == "world")


def check(options: Options) -> None:
    """Exit with why, when what the run needs is missing."""
    for path, why in (
        (options.wordlist, "pass --wordlist PATH"),
        (Path(ghostdb()[0]), "install ghostdb in this Python's environment"),
        (PEER, "the notebook peer is to be beside the project"),
    ):
        if not path.exists():
            sys.exit(f"error: no {path}: {why}")


def main(options: Options) -> None:
    """Measure what ``options`` ask for, then print the rows beside their targets, the
    scaling table and the hooks' output."""
    check(options)
    compile_ghostdb()
    print(f"ghostdb benchmark, {time.strftime('%Y-%m-%d %H:%M')}: {machine()}")
    print(f"load average (1, 5, 15 min) at start: {load()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ghostdb-bench-") as tmp:
        bench = Bench(Path(tmp), options.wordlist.resolve(), options.lookups)
        rows = only(bench, options) if options.only else everything(bench, options)
        scaled = scaling.scaling(bench) if options.scale or options.all else None
    # Last: importing a hook may make this process big, and children inherit its peak.
    hook_rows, hook_text = hooks.hooks() if options.all else ([], "")
    print()
    print_rows(rows + hook_rows)
    failed = sum(r.passed is False for r in rows + hook_rows)
    print(f"\n{sum(r.passed is True for r in rows + hook_rows)} passed, {failed} failed")
    if scaled:
        scaling.print_scaling(*scaled)
        print(scaling.draw(scaled[0]))
    print(hook_text, end="")
    print(f"\nload average at end: {load()}")
