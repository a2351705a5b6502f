"""The `ghostdb` command's entry: the plainest lookup answered before the command line's
framework is imported, everything else handed to it (`ghostdb.cli.group.app`).

``ghostdb lookup NAME [POSITION] [--json] [--db URL]`` is what scripts and people run
most, one process a question, and Typer and Click take a fifth of such a process's
start.  So that one form, under its game's default rules, is read here by hand: the
same library calls as the command (`ghostdb.cli.lookups.lookup`), the same renderer,
the same output.  Anything else — another option, ``--help``, an option before the
command — and any failure at all (a missing database, a position that is not one)
goes to the command line proper, which does the work again and says what went wrong
exactly as it always does: a failure costs the framework's start, never its message.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet
    from ghostdb.values import Position

PLAIN_OPTIONS = ("--json", "--db")
"""The options the plain lookup takes (``--db`` with a value)."""


def main() -> None:
    """Run the `ghostdb` command on ``sys.argv``."""
    if not plain_lookup(sys.argv[1:]):
        from ghostdb.cli.group import app

        app(prog_name="ghostdb")


def plain_lookup(args: Sequence[str]) -> bool:
    """Answer ``args`` if they are a plain lookup (see the module); whether they were."""
    found = parsed(args)
    if found is None:
        return False
    name, position, as_json, db = found
    try:
        text = answer(name, position, as_json, db)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception:  # the command line proper says what it is, in its own words
        return False
    try:
        write(text)
    except OSError as exc:  # stdout closed early (`| head`), or a full disk
        gone(exc, db)
    return True


def parsed(args: Sequence[str]) -> tuple[str, str, bool, str | None] | None:
    """(name, position, JSON?, database) of a plain lookup's arguments, else None."""
    if not args or args[0] != "lookup":
        return None
    positional: list[str] = []
    as_json, db = False, None
    rest = list(args[1:])
    while rest:
        arg = rest.pop(0)
        if arg == "--json" and not as_json:
            as_json = True
        elif arg == "--db" and db is None and rest and not rest[0].startswith("-"):
            db = rest.pop(0)
        elif arg.startswith("--db=") and db is None and len(arg) > len("--db="):
            db = arg.partition("=")[2]
        elif arg.startswith("-") or len(positional) == 2:
            return None  # another option, --help, a third argument: the command line's
        else:
            positional.append(arg)
    if not positional:
        return None
    return positional[0], positional[1] if len(positional) > 1 else "", as_json, db


def answer(name: str, position: str, as_json: bool, db: str | None) -> str:
    """The lookup's output, as `ghostdb.cli.lookups.lookup` makes it."""
    from ghostdb.store import open_store

    with open_store(db, readonly=True) as store:
        solution = store.solution(name)
        pos = solution.lookup(position)
    return shown(pos, solution.rules, as_json)


def shown(pos: Position, rules: RuleSet, as_json: bool) -> str:
    """A looked-up position as `ghostdb lookup` prints it: JSON, or the table."""
    from ghostdb.text import positions
    from ghostdb.text.common import to_json

    return to_json(pos.as_dict()) if as_json else positions.position(pos, rules)


def write(text: str) -> None:
    """Print as the command line's `emit` does: colours on a terminal only, and never
    where NO_COLOR is set."""
    from ghostdb.text.common import for_stream

    sys.stdout.write(for_stream(sys.stdout, text) + "\n")
    sys.stdout.flush()


def gone(exc: OSError, db: str | None) -> NoReturn:
    """The output could not be written: one line, as the command line says it."""
    from ghostdb.store.sql.db import resolve_url
    from ghostdb.store.sql.faults import describe

    with contextlib.suppress(OSError):  # nothing more goes to a closed stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    print(f"error: {' '.join(describe(exc, resolve_url(db)).split())}", file=sys.stderr)
    sys.exit(1)


__all__ = ["main", "parsed", "plain_lookup", "shown"]
