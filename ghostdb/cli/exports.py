"""`ghostdb export parquet` and `export site`: published solutions as Parquet files, and
the game site as static files.  Like `pack`, they refuse to write over what is there
unless given --force."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ghostdb.cli.group import emit, fail, store_for, sub_app
from ghostdb.cli.options import DbOption, Name, RuleOptions, rules_of, with_rule_options
from ghostdb.games.registry import parse_rules

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet

export_app = sub_app("export", "Write published solutions out in other forms.")


@export_app.command("parquet")
@with_rule_options
def parquet(
    name: Name,
    *,
    rule_options: RuleOptions,
    every: Annotated[bool, typer.Option("--all", help="Every published rule set of NAME.")] = False,
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="DIR", help="The folder to write to (made)."),
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Replace Parquet files written there before.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Write a solution's positions as Parquet, DIR/NAME/RULES.parquet (one row a
    position), for DuckDB, Polars or pandas; needs pyarrow (pip install
    'ghostdb[parquet]')."""
    try:
        import pyarrow  # noqa: F401
    except ModuleNotFoundError:
        fail(
            "the Parquet export needs pyarrow, which this install lacks: "
            "pip install 'ghostdb[parquet]'"
        )
    if output.exists() and not output.is_dir():
        fail(f"{str(output)!r} is a file: give a folder for the Parquet files")
    if not output.parent.is_dir():
        fail(f"no folder {str(output.parent)!r}: create it first")
    made = not output.exists()
    try:
        with store_for(db) as store:
            chosen = (
                [parse_rules(r.rules) for r in store.solutions(name) if r.status == "complete"]
                if every
                else [rules_of(name, rule_options)]
            )
            if not chosen:
                fail(f"{name} has no published solution: run `ghostdb solve {name}` first")
            if not force:
                _refuse_written(output, name, chosen)
            output.mkdir(exist_ok=True)
            for rules in chosen:
                path, rows = store.export_parquet(name, rules, output)
                emit(f"{name} {rules.key}: {rows:,} positions to {path}")
    finally:
        if made and output.is_dir() and not any(output.iterdir()):
            output.rmdir()  # a failed export leaves nothing behind


def _refuse_written(output: Path, name: str, chosen: list[RuleSet]) -> None:
    """One line if a Parquet file the export would write is there already (a command
    replaces what it finds only when given --force, as `pack` and `export site` do)."""
    from ghostdb.store.exports.parquet import file_name

    for rules in chosen:
        target = output / name / file_name(rules.key)
        if target.exists():
            fail(f"{str(target)!r} exists: give --force to replace it, or -o another folder")


@export_app.command("site")
def site(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[NAME]...",
            help="Dictionaries and games to include [default: every published one].",
            show_default=False,
        ),
    ] = None,
    *,
    keys: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar="KEY",
            help="A rule set to include, as `ghostdb solutions` lists it (ghost/3, "
            "chopsticks/5); repeat for more. A NAME whose game none names gets every "
            "published rule set.",
        ),
    ] = None,
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="DIR", help="The folder to make (new or empty)."),
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Replace DIR if it holds a site exported before.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Write the game site as static files that play from packs with no server: serve
    DIR from any static host, or run `python3 -m http.server` in it."""
    import errno

    from ghostdb.web.site import chosen_solutions, export_site, is_site

    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        if not force:
            fail(
                f"{str(output)!r} exists and is not an empty folder: give --force to replace "
                "a site exported there before, or -o a new folder"
            )
        if not output.is_dir() or not is_site(output):
            fail(
                f"{str(output)!r} is not a site `ghostdb export site` wrote (no site.json): "
                "--force replaces only those; give -o a new folder"
            )
    if not output.parent.is_dir():
        fail(f"no folder {str(output.parent)!r}: create it first")
    with store_for(db) as store:
        chosen = chosen_solutions(store, names or [], keys or [])
        try:
            exported = export_site(store, output, chosen, replace=force)
        except OSError as exc:
            reason = "no space left" if exc.errno == errno.ENOSPC else exc.strerror or exc
            fail(f"cannot write {output}: {reason}: give -o a folder you can write to")
    total = sum(f.stat().st_size for f in output.rglob("*") if f.is_file())
    for e in exported:
        emit(f"{e.name} {e.rules}: {e.positions:,} positions in {e.size:,} bytes")
    emit(
        f"wrote the offline site to {output} ({total:,} bytes); serve it with "
        f"`python3 -m http.server -d {output}` and open http://localhost:8000/"
    )
