"""`ghostdb ingest`, `dictionaries` and `games`: what there is to solve."""

from __future__ import annotations

import gc
from typing import Annotated

import typer

from ghostdb.cli.group import app, emit, remember, store_for
from ghostdb.cli.options import Csv, DbOption, Json, Lines, emit_rows


@app.command()
def ingest(
    path: Annotated[
        str, typer.Argument(help="Word-list file (one or more words a line), or builtin:web2.")
    ],
    name: Annotated[str | None, typer.Option(help="Dictionary name [default: file stem].")] = None,
    keep_capitalised: Annotated[
        bool,
        typer.Option(
            "--keep-capitalised",
            help="Keep the capitalised words of a mixed-case list, in lower case (German "
            "nouns; otherwise names and acronyms).",
        ),
    ] = False,
    fold_accents: Annotated[
        bool,
        typer.Option(help="Reduce letters to their base letter (é→e, å→a; ß, æ, ø stay)."),
    ] = False,
    language: Annotated[
        str, typer.Option(help="Language tag to record with the dictionary, e.g. de.")
    ] = "",
    replace: Annotated[
        bool, typer.Option(help="Replace a dictionary of that name (drops its solutions).")
    ] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Read, normalise and store a word list."""
    from ghostdb import wordlists
    from ghostdb.store.answers.dictionaries import check_name
    from ghostdb.text.reports import ingest_report

    # The list is read and the name checked before the database is opened: a command
    # that fails creates no database file.
    word_list = wordlists.load(
        path, keep_capitalised=keep_capitalised, fold_accents=fold_accents, language=language
    )
    name = name or wordlists.default_name(path)
    check_name(name)
    # Storing makes objects enough for the cycle collector to run, and it would walk the
    # millions of new words (0.2 s for Polish): it leaves what exists now alone till then.
    gc.freeze()
    try:
        with store_for(db, create=True) as store:
            result = store.ingest_words(word_list, name=name, replace=replace)
    finally:
        gc.unfreeze()
    for warning in result.report.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if json:
        from ghostdb.text.common import to_json

        data = {
            "action": result.action,
            "message": result.message,
            "dictionary": result.dictionary.__dict__,
            "report": result.report.as_dict(),
        }
        emit(to_json(data))
        return
    emit(result.message)
    if result.action != "unchanged":
        emit(ingest_report(result.report))


@app.command("dictionaries")
def list_dictionaries(
    db: DbOption = None, json: Json = False, csv: Csv = False, nl: Lines = False
) -> None:
    """List the stored dictionaries."""
    from ghostdb.text import reports

    with store_for(db) as store:
        items = store.dictionaries()
    rows = [i.__dict__ for i in items]
    emit_rows(rows, lambda: reports.dictionaries(items), json=json, csv=csv, nl=nl)


@app.command("games")
def list_games(
    db: DbOption = None, json: Json = False, csv: Csv = False, nl: Lines = False
) -> None:
    """List the games, their rule options and what is solved (with no database yet:
    the games, nothing solved)."""
    from ghostdb.games.registry import describe_games
    from ghostdb.store.sql.db import sqlite_path
    from ghostdb.text import reports

    path = sqlite_path(remember(db))
    if path is not None and not path.exists():
        items = describe_games()
    else:
        with store_for(db) as store:
            items = store.games()
    emit_rows(items, lambda: reports.games(items), json=json, csv=csv, nl=nl)
