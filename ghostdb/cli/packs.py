"""`ghostdb pack` and `ghostdb probe`: a solution in a file of its own, and questions
asked of that file without a database."""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ghostdb.cli.group import app, emit, fail, store_for
from ghostdb.cli.options import DbOption, Json, Name, RuleOptions, rules_of, with_rule_options


@app.command()
@with_rule_options
def pack(
    name: Name,
    *,
    rule_options: RuleOptions,
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="FILE", help="The pack file to write."),
    ],
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
    db: DbOption = None,
) -> None:
    """Write a solution to one checksummed pack file (about a byte a position, keys
    included) that `ghostdb probe` reads without a database."""
    chosen = rules_of(name, rule_options)
    if output.is_dir():
        fail(f"{str(output)!r} is a folder: give the pack's file name, e.g. {name}.ghostpack")
    if output.exists() and not force:
        fail(f"{str(output)!r} exists: give --force to replace it, or -o another file")
    if not output.parent.is_dir():
        fail(f"no folder {str(output.parent)!r} for the pack: create it first")
    with store_for(db) as store:
        try:
            positions, size = store.pack(name, chosen, output)
        except OSError as exc:  # the pack's file: the database's errors come wrapped
            reason = "no space left" if exc.errno == errno.ENOSPC else exc.strerror or exc
            fail(f"cannot write {output}: {reason}: give -o a file in a folder you can write to")
    emit(
        f"packed {name} for {chosen.describe()}: {positions:,} positions in {size:,} bytes "
        f"({size / max(1, positions):.2f} a position) to {output}"
    )


@app.command()
def probe(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A pack (`ghostdb pack`).")],
    positions: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[POSITION]...",
            help="Positions to look up [default: one a line from standard input].",
            show_default=False,
        ),
    ] = None,
    json: Json = False,
) -> None:
    """Look positions up in a pack, as `ghostdb lookup` does in a store: no database.
    With no POSITION, one a line from standard input, an answer a line (NDJSON with
    --json), for scripts; an empty line is the start."""
    from ghostdb.errors import BadFragment, DeadFragment

    stream = positions is None
    failed = 0
    with open_or_fail(file) as opened:
        for position in _lines() if stream else positions:
            try:
                pos = opened.probe(position)
            except (BadFragment, DeadFragment) as exc:
                if not stream and len(positions) == 1:
                    fail(str(exc))
                failed += 1
                _say({"position": position, "error": str(exc)}, str(exc), json, stream)
                continue
            _say(pos.as_dict(), pos, json, stream, opened.rules)
    if failed:
        raise typer.Exit(1)


def _say(data: dict[str, Any], shown: Any, json: bool, stream: bool, rules: Any = None) -> None:
    """One answer: text, a JSON document, or (reading a stream) a line of NDJSON."""
    from ghostdb.text import positions as render
    from ghostdb.text.common import to_json, to_lines

    if json:
        emit(to_lines([data]) if stream else to_json(data))
    else:
        emit(shown if isinstance(shown, str) else render.position(shown, rules))


def open_or_fail(file: Path | str) -> Any:
    """The pack at ``file``, or a one-line failure saying why not."""
    from ghostdb.pack import PackError, open_pack

    try:
        return open_pack(file)
    except FileNotFoundError:
        fail(f"no pack at {str(file)!r}: give the path of a file `ghostdb pack` wrote")
    except IsADirectoryError:
        fail(f"{str(file)!r} is a folder, not a pack")
    except PackError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read {str(file)!r}: {exc.strerror or exc}")


def _lines() -> Any:
    for line in sys.stdin:
        yield line.rstrip("\n").rstrip("\r").strip()
