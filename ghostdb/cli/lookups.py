"""`ghostdb lookup`, `openings`, `strategy`, `line`, `decisive`: questions to one solution.

`lookup` is the command that must start fast: it imports `ghostdb.text.positions` and
nothing it does not render.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from ghostdb.cli.group import app, emit, fail, keep_common_words, kept_answer, store_for
from ghostdb.cli.options import DbOption, Json, Name, RuleOptions, rules_of, with_rule_options
from ghostdb.cli.start import shown


@app.command()
@with_rule_options
def lookup(
    name: Name,
    fragment: Annotated[
        str,
        typer.Argument(
            help="Position to look up: a fragment, hands, a board [default: the start]."
        ),
    ] = "",
    *,
    rule_options: RuleOptions,
    against: Annotated[
        str | None,
        typer.Option(
            metavar="common:N",
            help="Also each move's value against a player who knows only the N most "
            "common words (word games, two players).",
        ),
    ] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Who wins from a position, the best move, the game length, and every move."""
    from ghostdb.text import positions
    from ghostdb.text.common import to_json

    chosen = rules_of(name, rule_options)
    if against is not None:
        keep_common_words(db, name, chosen, [against])
    with store_for(db) as store:
        solution = store.solution(name, chosen)
        pos = solution.lookup(fragment)
        found = None if against is None else solution.against(pos, against)
    if found is None:
        emit(shown(pos, chosen, json))
    elif json:
        emit(to_json({**pos.as_dict(), "against": found}))
    else:
        emit(positions.position(pos, chosen))
        emit(positions.against(found))


@app.command()
@with_rule_options
def openings(
    name: Name,
    *,
    rule_options: RuleOptions,
    words: Annotated[
        bool, typer.Option("--words", help="Show the words each player's winning plan needs.")
    ] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Each first move and which player it wins for."""
    from ghostdb.text import plans, positions
    from ghostdb.text.common import to_json

    chosen = rules_of(name, rule_options)
    if words:  # (as kept: the plans' trees are not built, only their words are shown)
        items = kept_answer(db, lambda store: store.solution(name, chosen).opening_plan_dicts())
        emit(to_json(items) if json else plans.opening_plans_of(items, chosen, name))
        return
    with store_for(db) as store:
        pos = store.solution(name, chosen).openings()
    emit(to_json(pos.as_dict()) if json else positions.openings(pos, chosen))


class PlanFormat(StrEnum):
    words = "words"
    tree = "tree"
    json = "json"
    dot = "dot"


@app.command()
@with_rule_options
def strategy(
    name: Name,
    *,
    player: Annotated[
        int | None,
        typer.Option(
            "--player", "-p", min=0, max=1, help="Strategist [default: who wins from there]."
        ),
    ] = None,
    start: Annotated[
        str, typer.Option("--from", help="Fragment to start from [default: the start].")
    ] = "",
    rule_options: RuleOptions,
    fmt: Annotated[
        PlanFormat, typer.Option("--format", "-f", help="words, tree, json or dot (Graphviz).")
    ] = PlanFormat.words,
    json: Annotated[
        bool, typer.Option("--json", help="Print JSON for scripts (--format json).")
    ] = False,
    db: DbOption = None,
) -> None:
    """A player's best plan: the fewest words to memorise to never lose (or, where the
    player cannot win, the plan that leaves the opponent the most ways to go wrong)."""
    from ghostdb.text import plans
    from ghostdb.text.common import to_json

    if json:
        if fmt not in (PlanFormat.words, PlanFormat.json):
            fail(f"--json and --format {fmt.value} are two formats: give one")
        fmt = PlanFormat.json
    chosen = rules_of(name, rule_options)
    plan = kept_answer(db, lambda store: store.solution(name, chosen).strategy(player, start))
    if fmt is PlanFormat.words:
        emit(plans.strategy_words(plan))
    elif fmt is PlanFormat.tree:
        emit(plan.summary())
        emit(plans.tree(plan.tree, chosen))
    elif fmt is PlanFormat.json:
        emit(to_json(plan.as_dict()))
    else:
        emit(plans.strategy_dot(plan))


@app.command()
@with_rule_options
def line(
    name: Name,
    fragment: Annotated[
        str, typer.Argument(help="Position to start from [default: the start].")
    ] = "",
    *,
    rule_options: RuleOptions,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """The principal lines: the winner ends the game as soon as possible, the loser makes
    it last as long as possible.  In Ghost every tie is followed; in other games the best
    move, until the game ends or a position comes again (a draw)."""
    from ghostdb.text import plans
    from ghostdb.text.common import to_json

    chosen = rules_of(name, rule_options)
    with store_for(db) as store:
        found = store.solution(name, chosen).line(fragment)
    emit(to_json(found.as_dict()) if json else plans.principal_lines(found))


@app.command()
@with_rule_options
def decisive(
    name: Name,
    *,
    rule_options: RuleOptions,
    position: Annotated[
        str, typer.Option("--position", help="Position to ask about [default: the start].")
    ] = "",
    pool: Annotated[
        str | None,
        typer.Option(
            "--pool",
            metavar="OTHER",
            help="Another stored dictionary: which of its words, added alone, change the outcome.",
        ),
    ] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Which words decide the game: each word whose deletion alone (or, with --pool, whose
    addition alone) changes the outcome at the position, and the fewest edits that do;
    worked out on the first request and kept in the database."""
    from ghostdb.text.common import to_json
    from ghostdb.text.reports import decisive_words

    chosen = rules_of(name, rule_options)
    found = kept_answer(db, lambda store: store.solution(name, chosen).decisive(position, pool))
    emit(to_json(found.as_dict()) if json else decisive_words(found, chosen))
