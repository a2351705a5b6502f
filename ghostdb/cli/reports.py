"""`ghostdb compare`, `report` and `survey`: solutions side by side."""

from __future__ import annotations

from typing import Annotated

import typer

from ghostdb.cli.group import app, emit, fail, kept_answer
from ghostdb.cli.options import (
    Csv,
    DbOption,
    Json,
    Lines,
    Name,
    RuleOptions,
    emit_rows,
    rules_of,
    with_rule_options,
)


@app.command()
@with_rule_options
def compare(
    a: Annotated[str, typer.Argument(help="First dictionary.")],
    b: Annotated[str | None, typer.Argument(help="Second dictionary [default: the first].")] = None,
    *,
    rule_options: RuleOptions,
    vs_options: RuleOptions,
    examples: Annotated[int, typer.Option(min=0, help="Examples of each difference.")] = 10,
    why: Annotated[
        bool,
        typer.Option(
            "--why",
            help="Two dictionaries, one rule set: the fewest word differences that account "
            "for a different outcome at the start.",
        ),
    ] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Two solutions side by side (two dictionaries, or one under two rule sets: the
    --vs-… options), and where they disagree."""
    from ghostdb.text.common import to_json
    from ghostdb.text.reports import comparison

    left = rules_of(a, rule_options)
    # The second side: the same options but those its own --vs-* options replace.
    theirs = {name: value for name, value in vs_options.items() if value is not None}
    right = rules_of(b or a, {**rule_options, **theirs})
    if why and (b is None or theirs):
        fail("--why compares two dictionaries under one rule set: give B, and no --vs-… option")
    found = kept_answer(db, lambda store: store.compare(a, b, left, right, examples=examples))
    reasons = None
    if why and b is not None:
        reasons = kept_answer(db, lambda store: store.why(a, b, left))
    if json:
        data = found.as_dict()
        if reasons is not None:
            data["why"] = reasons.as_dict()
        emit(to_json(data))
        return
    emit(comparison(found))
    if reasons is not None:
        from ghostdb.text.reports import why_differ

        emit(why_differ(reasons))


@app.command()
def report(
    name: Name, json: Json = False, csv: Csv = False, nl: Lines = False, db: DbOption = None
) -> None:
    """One row per solved rule set: who wins, positions by outcome, (Ghost) both plans."""
    from ghostdb.text import reports

    rows = kept_answer(db, lambda store: store.report(name))
    items = [r.as_dict() for r in rows]
    whole = {"dictionary": name, "solutions": items}
    emit_rows(items, lambda: reports.report(rows, name), json=json, csv=csv, nl=nl, whole=whole)


@app.command()
def survey(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print a Markdown table (for a README).")
    ] = False,
    json: Json = False,
    csv: Csv = False,
    nl: Lines = False,
    db: DbOption = None,
) -> None:
    """Who wins Ghost in each stored dictionary: one row per solved two-player rule set,
    sorted by language, dictionary and rules."""
    from ghostdb.text import reports

    if markdown and (json or csv or nl):
        other = "--json" if json else "--csv" if csv else "--nl"
        fail(f"--markdown and {other} are two formats: give one")
    rows = kept_answer(db, lambda store: store.survey())
    items = [r.as_dict() for r in rows]
    emit_rows(items, lambda: reports.survey(rows, markdown=markdown), json=json, csv=csv, nl=nl)
