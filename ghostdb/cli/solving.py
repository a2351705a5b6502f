"""`ghostdb solve`, `solutions` and `verify`: making solutions and checking them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ghostdb.cli.group import app, emit, fail, store_for
from ghostdb.cli.options import (
    Csv,
    DbOption,
    Json,
    Lines,
    Name,
    RuleOptions,
    emit_rows,
    given,
    rules_of,
    with_rule_options,
)
from ghostdb.errors import Interrupted
from ghostdb.games.registry import all_rule_sets, played_as, standard_sets_help

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet
    from ghostdb.pack.verify import PackVerdict
    from ghostdb.store import Store


@app.command()
@with_rule_options
def solve(
    name: Name,
    *,
    rule_options: RuleOptions,
    every: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Solve every standard rule set of the game (misère ones with --misere): "
            + standard_sets_help(),
        ),
    ] = False,
    force: Annotated[bool, typer.Option(help="Solve again even if already solved.")] = False,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=1, max=64, help="Worker processes for several rule sets."),
    ] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    json: Annotated[
        bool, typer.Option("--json", help="Print JSON for scripts: a row a rule set (no bar).")
    ] = False,
    db: DbOption = None,
) -> None:
    """Solve every position of a dictionary's Ghost (or of a game) and store the results."""
    rule_sets = _rule_sets(name, rule_options, every)
    # A game needs no ingested list, so solving one may create the database.
    game = played_as(name)
    noun = f"{game.position_noun}s"
    with store_for(db, create=not game.word_game, write=True) as store:
        if jobs > 1 and len(rule_sets) > 1:
            # closed on the way out (Ctrl-C between two ends): the workers are stopped
            results = closing(store.solve_many(name, rule_sets, jobs=jobs, force=force))
        else:
            results = closing(_one_by_one(store, name, rule_sets, force, quiet or json, every))
        try:
            with results as ended:
                rows = _said(name, noun, ended, json)
        except KeyboardInterrupt as exc:
            if isinstance(exc, Interrupted) or len(rule_sets) == 1:
                raise
            raise Interrupted(
                "interrupted: what was published is kept; the same command again solves the rest"
            ) from None
    if json:
        from ghostdb.text.common import to_json

        emit(to_json(rows))
    elif every:
        emit(f"`ghostdb report {name}` shows them side by side")


def _said(name: str, noun: str, ended: Any, json: bool) -> list[dict[str, Any]]:
    """A line for each solve as it ends (``json``: its row, returned)."""
    rows = []
    for chosen, result in ended:
        if json:
            rows.append(_solved_row(name, chosen, result))
        elif result.skipped:
            emit(
                f"{name} is already solved for {chosen.describe()}: nothing to do "
                "(--force solves it again)"
            )
        else:
            emit(
                f"solved {name} for {chosen.describe()}: {result.fragment_count:,} "
                f"{noun}, {result.reachable_count:,} reachable, {result.seconds:.2f} s"
            )
    return rows


def _solved_row(name: str, rules: RuleSet, result: Any) -> dict[str, Any]:
    """One solve as ``solve --json`` prints it."""
    return {
        "name": name,
        "rules": rules.key,
        "description": rules.describe(),
        "skipped": result.skipped,
        "positions": result.fragment_count,
        "reachable": result.reachable_count,
        "words": result.word_count,
        "seconds": round(result.seconds, 3),
    }


def _rule_sets(name: str, options: RuleOptions, every: bool) -> list[RuleSet]:
    """The rule set the options choose, or with ``--all`` the game's standard ones (which
    take ``--misere`` alone: it chooses the misère ones)."""
    if not every:
        return [rules_of(name, options)]
    misere = options.get("misere")
    if any(option != "misere" for option in given(options)):
        fail("--all solves every standard rule set: leave out the other rule options")
    rules_of(name, {"misere": misere})  # refuses --misere for games without it
    return all_rule_sets(name, bool(misere))


def _one_by_one(
    store: Store, name: str, rule_sets: list[RuleSet], force: bool, quiet: bool, every: bool
) -> Iterator[tuple[RuleSet, Any]]:
    """Solve in this process, with a progress bar each."""
    for chosen in rule_sets:
        with _progress(quiet, chosen.key if every else "") as progress:
            yield chosen, store.solve(name, chosen, force=force, progress=progress)


@contextmanager
def _progress(quiet: bool, title: str = "") -> Iterator[Callable[[str, int, int], None] | None]:
    """A rich progress bar on a terminal (stderr); nothing in a pipe or with --quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    labels = {
        "build": "building positions",
        "solve": "solving positions",
        "write": "writing rows",
        "publish": "publishing",
        "keep": "keeping answers",
    }
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, Any] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                label = labels.get(stage, stage)
                tasks[stage] = bar.add_task(f"{title}: {label}" if title else label, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield update


@app.command("solutions")
def list_solutions(
    name: Annotated[str | None, typer.Argument(help="Only this dictionary.")] = None,
    db: DbOption = None,
    json: Json = False,
    csv: Csv = False,
    nl: Lines = False,
) -> None:
    """List solve jobs: published, failed and superseded, with counts and timings."""
    from ghostdb.text import reports

    with store_for(db) as store:
        items = store.solutions(name)
    rows = [i.__dict__ for i in items]
    emit_rows(rows, lambda: reports.solutions(items), json=json, csv=csv, nl=nl)


@app.command()
@with_rule_options
def verify(
    name: Annotated[
        str | None,
        typer.Argument(
            help="A dictionary or a game [default: every published solution in the store]."
        ),
    ] = None,
    *,
    rule_options: RuleOptions,
    every: Annotated[bool, typer.Option("--all", help="Every published rule set of NAME.")] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Check stored solutions: the dictionary against its recorded hash, the positions
    against the rules, and every stored value against the positions one move on.  Given
    a pack file (`ghostdb pack`), check it whole, and with --db against the store.
    Exit status 1 if anything disagrees."""
    from ghostdb.text.common import to_json
    from ghostdb.text.verdicts import verdicts as render_verdicts

    if name is not None and _is_pack(name):
        _verify_pack(name, db, json)
        return
    chosen = None
    if name is None and (every or given(rule_options)):
        fail("rule options and --all need a NAME: without one, verify checks everything")
    if name is not None and not every:
        chosen = rules_of(name, rule_options)
    elif every and any(option != "misere" for option in given(rule_options)):
        fail("--all checks every rule set of NAME: leave out the other rule options")
    with store_for(db) as store:
        verdicts = store.verify(name, chosen, every=every)
    if json:
        solutions = [v.as_dict() for v in verdicts]
        emit(to_json({"ok": all(v.ok for v in verdicts), "solutions": solutions}))
    else:
        emit(render_verdicts(verdicts))
    bad = [v for v in verdicts if not v.ok]
    if bad:
        problems = sum(v.problems for v in bad)
        fail(
            f"{problems:,} inconsistent {'row' if problems == 1 else 'rows'} in {len(bad)} of "
            f"{len(verdicts)} solutions: do not trust them; solve them again with --force"
            + (
                " after ingesting the word list again"
                if any("dictionary" in v.findings for v in bad)
                else ""
            )
        )


def _is_pack(name: str) -> bool:
    """Whether ``name`` means a pack file: a file that is one, or a path (a separator, or
    the .ghostpack ending: a stored name never has them) to a file, which then fails as
    a damaged pack rather than as an unknown name."""
    from pathlib import Path

    from ghostdb.pack.format import MAGIC

    path = Path(name)
    if not path.is_file():
        return False
    if "/" in name or name.endswith(".ghostpack"):
        return True
    try:
        with open(path, "rb") as file:
            return file.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def _pack_values(verdict: PackVerdict, with_store: bool) -> str:
    """What `verify FILE` checked of a whole pack's values: the positions not final
    against their moves, and the final ones (which have none) only against the store:
    '486,198 positions agree' alone left the other 210,621 unaccounted for."""
    if verdict.moves_checked:
        checked = (
            f"{verdict.checked:,} positions agree with their moves; the other "
            f"{verdict.final:,} are final, valued by the rules"
        )
    else:
        checked = "with more than two players the values are not checked against the moves"
    if with_store:
        return f"{checked}; and every position agrees with the store"
    return f"{checked} (give --db to compare every position with the store)"


def _verify_pack(name: str, db: str | None, json: bool) -> None:
    """`verify FILE`: the pack whole; with --db, against the stored solution."""
    from ghostdb.cli.packs import open_or_fail
    from ghostdb.pack.verify import verify_pack
    from ghostdb.text.common import to_json

    with open_or_fail(name) as pack:
        verdict = verify_pack(pack)
        problems = [f"{k}: {e}" for k, es in verdict.problems.items() for e in es]
        if verdict.ok and db is not None:
            with store_for(db) as store:
                problems += [f"store: {p}" for p in store.check_pack(pack)]
        summary = {
            "file": name,
            "name": pack.name,
            "rules": pack.rules.key,
            "positions": verdict.positions,
            "checked_from_moves": verdict.checked,
            "final": verdict.final,
            "compared_with_store": db is not None and verdict.ok,
            "ok": not problems,
            "problems": problems,
        }
    if json:
        emit(to_json(summary))
    else:
        for problem in problems:
            emit(problem)
        if not problems:
            emit(
                f"{name}: {pack.name} {pack.rules.key}, {verdict.positions:,} positions: every "
                f"block whole; {_pack_values(verdict, summary['compared_with_store'])}"
            )
    if problems:
        fail(f"{name}: {len(problems)} problem(s) found (above): do not trust it; pack it again")
