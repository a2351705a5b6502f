"""The `ghostdb` command line: parse, call the library, render.  No SQL, no game logic."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_command_name
from typer.models import CommandInfo

from ghostdb.errors import GhostdbError, Interrupted
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import all_rule_sets, played_as, rules_from_options
from ghostdb.store import Store, open_store
from ghostdb.store.faults import describe
from ghostdb.text import render

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet

# The database the running command opened, to name it in error messages.
_opened: ContextVar[str | None] = ContextVar("ghostdb_opened", default=None)
F = TypeVar("F", bound=Callable[..., Any])


class LazyTyper(typer.Typer):
    """A Typer app whose commands are made into click commands only when looked up
    (click's lazy-group pattern), by its group's `LazyCommands`.

    Typer makes a click command by reading the function's signature and evaluating its
    type hints, about half a millisecond a command: a run needs one of them, ``--help``
    all of them.  Sub-apps (``add_typer``) are made by Typer as usual.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lazy_commands: dict[str, CommandInfo] = {}
        """The commands, by name in the order they were defined."""

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[F], F]:
        register = super().command(name, **kwargs)

        def defer(fn: F) -> F:
            register(fn)
            info = self.registered_commands.pop()  # else Typer makes it at every start
            self.lazy_commands[info.name or get_command_name(fn.__name__)] = info
            return fn

        return defer

    def make_command(self, name: str) -> Any:
        """The click command ``name``; KeyError if there is none."""
        return get_command_from_info(
            self.lazy_commands[name],
            pretty_exceptions_short=self.pretty_exceptions_short,
            rich_markup_mode=self.rich_markup_mode,
        )


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name: the ones made already (sub-groups, commands looked
    up before) and the rest of ``app``'s, made when first looked up.  Listing the names
    makes nothing."""

    def __init__(self, app: LazyTyper, made: MutableMapping[str, Any]) -> None:
        self._app = app
        self._made = dict(made)
        self._names = [*app.lazy_commands, *(n for n in made if n not in app.lazy_commands)]

    def __getitem__(self, name: str) -> Any:
        command = self._made.get(name)
        if command is None:
            if name not in self._names:
                raise KeyError(name)
            command = self._made[name] = self._app.make_command(name)
        return command

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._names:
            self._names.append(name)
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self._names:
            raise KeyError(name)
        self._names.remove(name)
        self._made.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)


class GhostdbGroup(TyperGroup):
    """The command group, made to end every failure the same way.

    A failure is one line on stderr starting ``error:`` and exit status 1: usage
    mistakes, the database's and the system's errors (see `ghostdb.store.faults.describe`) and
    anything unexpected, never a traceback.  Ctrl-C is a line starting ``interrupted`` and
    exit status 130 (Typer would exit silently).

    Its commands are `app`'s, each made when looked up (see `LazyTyper`).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = LazyCommands(app, self.commands)

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.Abort:  # end of input at a prompt
            typer.echo("error: no input: nothing was done", err=True)
            sys.exit(1)
        except Exception as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare `ghostdb`: the help
                exc.show()  # type: ignore[attr-defined]
                sys.exit(exc.exit_code)  # type: ignore[attr-defined]
            if not hasattr(exc, "format_message"):
                raise
            # A usage mistake (unknown option, bad value, missing argument).
            context = getattr(exc, "ctx", None)
            where = f"ghostdb {context.command_path.partition(' ')[2]}".strip() if context else ""
            hint = f" (`{where or 'ghostdb'} --help` shows the usage)"
            typer.echo(f"error: {exc.format_message()}{hint}", err=True)  # type: ignore[attr-defined]
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        _opened.set(None)
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort):
            raise
        except Exception as exc:
            if hasattr(exc, "format_message"):  # usage mistakes: see `main`
                raise
            if os.environ.get("GHOSTDB_DEBUG"):  # the traceback, for a bug report
                raise
            fail(describe(exc, _opened.get()))
        except MemoryError as exc:
            fail(describe(exc))
        except KeyboardInterrupt as exc:
            stop(exc)


# Typer makes a group (not a lone command) of an app with a sub-app: `db_app` below.
app = LazyTyper(
    cls=GhostdbGroup,
    help="A persistent solution store for the word game Ghost and other finite games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,  # rich markup would eat every "[default: …]" in the help texts
)
db_app = typer.Typer(
    help="Inspect and upgrade the database schema.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(db_app, name="db")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="GHOSTDB_URL",
        show_envvar=True,
        help="Database: a SQLAlchemy URL or a SQLite file path [default: ./ghost.db].",
    ),
]
# Rule options: every command that reads or makes a solution takes all of them; each game
# uses its own and refuses the others' (see ghostdb.games.rules_from_options).
MinLength = Annotated[
    int | None,
    typer.Option(
        "--min-length", "-m", min=1, help="Ghost: shortest word that ends the game [default: 3]."
    ),
]
RulesOption = Annotated[
    Variant | None,
    typer.Option("--rules", "-r", case_sensitive=False, help="Ghost variant [default: ghost]."),
]
Misere = Annotated[bool, typer.Option("--misere", help="Ghost: completing a word wins.")]
Players = Annotated[
    int | None,
    typer.Option("--players", min=2, max=8, help="Ghost: seats, moving in turn [default: 2]."),
]
Fingers = Annotated[
    int | None,
    typer.Option(min=2, max=9, help="Chopsticks: a hand dies at this many fingers [default: 5]."),
]
Rollover = Annotated[
    bool, typer.Option("--rollover", help="Chopsticks: a hand keeps the remainder, dying at 0.")
]
NoTransfers = Annotated[
    bool, typer.Option("--no-transfers", help="Chopsticks: taps only, no transfers.")
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
Name = Annotated[
    str,
    typer.Argument(
        help="A dictionary (see `ghostdb dictionaries`) or a game: chopsticks, tictactoe."
    ),
]


def fail(message: str) -> NoReturn:
    """End the command: one line on stderr, exit status 1."""
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(1)


def stop(exc: KeyboardInterrupt) -> NoReturn:
    """End the command after Ctrl-C: one line on stderr, exit status 130."""
    message = str(exc) if isinstance(exc, Interrupted) and str(exc) else "interrupted"
    typer.echo(message, err=True)
    raise typer.Exit(130)


def _remember(db: str | None) -> str:
    """The URL of ``db``, kept where `GhostdbGroup` finds it to name it in messages."""
    from ghostdb.store.db import resolve_url

    url = resolve_url(db)
    _opened.set(url)
    return url


@contextmanager
def store_for(db: str | None, *, create: bool = False, write: bool = False) -> Iterator[Store]:
    """Open the store for a command and turn every failure into one line.

    Only ``write`` commands may create (``create``) or upgrade the schema; the others
    open the database read-only and change nothing in it.
    """
    url = _remember(db)
    try:
        with open_store(db, create=create, readonly=not (create or write)) as store:
            yield store
    except (typer.Exit, typer.Abort):
        raise
    except KeyboardInterrupt as exc:
        stop(exc)
    except (Exception, MemoryError) as exc:
        if os.environ.get("GHOSTDB_DEBUG") and not isinstance(exc, GhostdbError):
            raise
        fail(describe(exc, url))


def rules_of(
    name: str,
    variant: Variant | None = None,
    min_length: int | None = None,
    misere: bool = False,
    fingers: int | None = None,
    rollover: bool = False,
    no_transfers: bool = False,
    players: int | None = None,
) -> RuleSet:
    """The rule set the options choose for ``name``'s game; one line if one does not apply."""
    try:
        return rules_from_options(
            name,
            variant=variant,
            min_length=min_length,
            misere=misere or None,
            fingers=fingers,
            rollover=rollover or None,
            transfers=False if no_transfers else None,
            players=None if players == 2 else players,
        )
    except GhostdbError as exc:
        fail(str(exc))


def emit(text: str) -> None:
    typer.echo(text)


# -- dictionaries ------------------------------------------------------------------------------


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
            "--keep-proper-nouns",
            help="Keep the capitalised words of a mixed-case list, in lower case (German "
            "nouns; otherwise names and acronyms).  --keep-proper-nouns is its older name.",
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
    db: DbOption = None,
) -> None:
    """Read, normalise and store a word list."""
    with store_for(db, create=True) as store:
        result = store.ingest(
            path,
            name=name,
            keep_capitalised=keep_capitalised,
            fold_accents=fold_accents,
            language=language,
            replace=replace,
        )
    emit(result.message)
    if result.action != "unchanged":
        emit(render.ingest_report(result.report))
    for warning in result.report.warnings:
        typer.echo(f"warning: {warning}", err=True)


@app.command("dictionaries")
def list_dictionaries(db: DbOption = None, json: Json = False) -> None:
    """List the stored dictionaries."""
    with store_for(db) as store:
        items = store.dictionaries()
    if json:
        emit(render.to_json([i.__dict__ for i in items]))
    else:
        emit(render.dictionaries(items))


# -- solving -----------------------------------------------------------------------------------


@app.command()
def solve(
    name: Name,
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    players: Players = None,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    every: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Solve every standard rule set: for Ghost, ghost, super and superduper with "
            "words of 3+ and of 4+ letters (misère with --misere); for Chopsticks, with and "
            "without rollover and transfers.",
        ),
    ] = False,
    force: Annotated[bool, typer.Option(help="Solve again even if already solved.")] = False,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", min=1, max=64, help="Worker processes for several rule sets."),
    ] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    db: DbOption = None,
) -> None:
    """Solve every position of a dictionary's Ghost (or of a game) and store the results."""
    if every and (
        min_length is not None
        or rules is not None
        or fingers
        or rollover
        or no_transfers
        or players
    ):
        fail("--all solves every standard rule set: leave out the other rule options")
    if every:
        rules_of(name, misere=misere)  # refuses --misere for games without it
        rule_sets = all_rule_sets(name, misere)
    else:
        rule_sets = [
            rules_of(name, rules, min_length, misere, fingers, rollover, no_transfers, players)
        ]
    # A game needs no ingested list, so solving one may create the database.
    game = played_as(name)
    noun = f"{game.position_noun}s"
    with store_for(db, create=not game.word_game, write=True) as store:
        if jobs > 1 and len(rule_sets) > 1:
            results = store.solve_many(name, rule_sets, jobs=jobs, force=force)
        else:
            results = _one_by_one(store, name, rule_sets, force, quiet, every)
        for chosen, result in results:
            if result.skipped:
                emit(
                    f"{name} is already solved for {chosen.describe()}: nothing to do "
                    "(--force solves it again)"
                )
            else:
                emit(
                    f"solved {name} for {chosen.describe()}: {result.fragment_count:,} "
                    f"{noun}, {result.reachable_count:,} reachable, {result.seconds:.2f} s"
                )
    if every:
        emit(f"`ghostdb report {name}` shows them side by side")


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
) -> None:
    """List solve jobs: published, failed and superseded, with counts and timings."""
    with store_for(db) as store:
        items = store.solutions(name)
    if json:
        emit(render.to_json([i.__dict__ for i in items]))
    else:
        emit(render.solutions(items))


@app.command("games")
def list_games(db: DbOption = None, json: Json = False) -> None:
    """List the games, their rule options and what is solved."""
    with store_for(db) as store:
        items = store.games()
    if json:
        emit(render.to_json(items))
    else:
        emit(render.games(items))


# -- lookups -----------------------------------------------------------------------------------


@app.command()
def lookup(
    name: Name,
    fragment: Annotated[
        str,
        typer.Argument(
            help="Position to look up: a fragment, hands, a board [default: the start]."
        ),
    ] = "",
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    players: Players = None,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Who wins from a position, the best move, the game length, and every move."""
    chosen = rules_of(name, rules, min_length, misere, fingers, rollover, no_transfers, players)
    with store_for(db) as store:
        pos = store.lookup(name, fragment, chosen)
    emit(render.to_json(pos.as_dict()) if json else render.position(pos, chosen))


@app.command()
def openings(
    name: Name,
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    players: Players = None,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    words: Annotated[
        bool, typer.Option("--words", help="Show the words each player's winning plan needs.")
    ] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Each first move and which player it wins for."""
    chosen = rules_of(name, rules, min_length, misere, fingers, rollover, no_transfers, players)
    with store_for(db) as store:
        if words:
            items = store.opening_plans(name, chosen)
        else:
            pos = store.openings(name, chosen)
    if words:
        if json:
            emit(render.to_json([render.opening_plan_dict(i) for i in items]))
        else:
            emit(render.opening_plans(items, chosen, name))
    else:
        emit(render.to_json(pos.as_dict()) if json else render.openings(pos, chosen))


class PlanFormat(StrEnum):
    words = "words"
    tree = "tree"
    json = "json"
    dot = "dot"


@app.command()
def strategy(
    name: Name,
    player: Annotated[
        int | None,
        typer.Option(
            "--player", "-p", min=0, max=1, help="Strategist [default: who wins from there]."
        ),
    ] = None,
    start: Annotated[
        str, typer.Option("--from", help="Fragment to start from [default: the start].")
    ] = "",
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    fmt: Annotated[
        PlanFormat, typer.Option("--format", "-f", help="words, tree, json or dot (Graphviz).")
    ] = PlanFormat.words,
    db: DbOption = None,
) -> None:
    """A player's best plan: the fewest words to memorise to never lose (or, where the
    player cannot win, the plan that leaves the opponent the most ways to go wrong)."""
    chosen = rules_of(name, rules, min_length, misere)
    with store_for(db) as store:
        plan = store.strategy(name, player, start, chosen)
    if fmt is PlanFormat.words:
        emit(render.strategy_words(plan))
    elif fmt is PlanFormat.tree:
        emit(plan.summary())
        emit(render.tree(plan.tree, chosen))
    elif fmt is PlanFormat.json:
        emit(render.to_json(plan.as_dict()))
    else:
        emit(render.strategy_dot(plan))


@app.command()
def line(
    name: Name,
    fragment: Annotated[
        str, typer.Argument(help="Position to start from [default: the start].")
    ] = "",
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    players: Players = None,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """The principal lines: the winner ends the game as soon as possible, the loser makes
    it last as long as possible.  In Ghost every tie is followed; in other games the best
    move, until the game ends or a position comes again (a draw)."""
    chosen = rules_of(name, rules, min_length, misere, fingers, rollover, no_transfers, players)
    with store_for(db) as store:
        found = store.line(name, fragment, chosen)
    emit(render.to_json(found.as_dict()) if json else render.principal_lines(found))


# -- comparisons -------------------------------------------------------------------------------


@app.command()
def compare(
    a: Annotated[str, typer.Argument(help="First dictionary.")],
    b: Annotated[str | None, typer.Argument(help="Second dictionary [default: the first].")] = None,
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    players: Players = None,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    vs_min_length: Annotated[
        int | None, typer.Option("--vs-min-length", min=1, help="Second side's minimum length.")
    ] = None,
    vs_rules: Annotated[
        Variant | None,
        typer.Option("--vs-rules", case_sensitive=False, help="Second side's variant."),
    ] = None,
    vs_players: Annotated[
        int | None, typer.Option("--vs-players", min=2, max=8, help="Second side's players.")
    ] = None,
    vs_misere: Annotated[
        bool | None, typer.Option("--vs-misere/--vs-normal", help="Second side's misère.")
    ] = None,
    examples: Annotated[int, typer.Option(min=0, help="Examples of each difference.")] = 10,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Two solutions side by side (two dictionaries, or one under two rule sets), and
    where they disagree."""
    left = rules_of(a, rules, min_length, misere, fingers, rollover, no_transfers, players)
    right = rules_of(
        b or a,
        rules if vs_rules is None else vs_rules,
        min_length if vs_min_length is None else vs_min_length,
        misere if vs_misere is None else vs_misere,
        fingers,
        rollover,
        no_transfers,
        players if vs_players is None else vs_players,
    )
    with store_for(db) as store:
        found = store.compare(a, b, left, right, examples=examples)
    emit(render.to_json(found.as_dict()) if json else render.comparison(found))


@app.command()
def report(name: Name, json: Json = False, db: DbOption = None) -> None:
    """One row per solved rule set: who wins, positions by outcome, (Ghost) both plans."""
    with store_for(db) as store:
        rows = store.report(name)
    if json:
        emit(render.to_json({"dictionary": name, "solutions": [r.as_dict() for r in rows]}))
    else:
        emit(render.report(rows, name))


@app.command()
def verify(
    name: Annotated[
        str | None,
        typer.Argument(
            help="A dictionary or a game [default: every published solution in the store]."
        ),
    ] = None,
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    players: Players = None,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    every: Annotated[bool, typer.Option("--all", help="Every published rule set of NAME.")] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Check stored solutions: the dictionary against its recorded hash, the positions
    against the rules, and every stored value against the positions one move on.
    Exit status 1 if anything disagrees."""
    chosen = None
    if name is None and (
        every or min_length or rules or misere or players or fingers or rollover or no_transfers
    ):
        fail("rule options and --all need a NAME: without one, verify checks everything")
    if name is not None and not every:
        chosen = rules_of(name, rules, min_length, misere, fingers, rollover, no_transfers, players)
    elif every and (min_length or rules or players or fingers or rollover or no_transfers):
        fail("--all checks every rule set of NAME: leave out the other rule options")
    with store_for(db) as store:
        verdicts = store.verify(name, chosen, every=every)
    if json:
        emit(
            render.to_json(
                {
                    "ok": all(v.ok for v in verdicts),
                    "solutions": [v.as_dict() for v in verdicts],
                }
            )
        )
    else:
        emit(render.verdicts(verdicts))
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


@app.command()
def survey(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print a Markdown table (for a README).")
    ] = False,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Who wins Ghost in each stored dictionary: one row per solved two-player rule set,
    sorted by language, dictionary and rules."""
    if markdown and json:
        fail("--markdown and --json are two formats: give one")
    with store_for(db) as store:
        rows = store.survey()
    if json:
        emit(render.to_json([r.as_dict() for r in rows]))
    else:
        emit(render.survey(rows, markdown=markdown))


# -- games -------------------------------------------------------------------------------------


@app.command()
def play(
    name: Name,
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    players: Annotated[
        str,
        typer.Option(
            help="One per seat, in turn order: human, computer (= optimal), optimal, "
            "fastest, rational or random."
        ),
    ] = "human,computer",
    seed: Annotated[int | None, typer.Option(help="Make every computer choice repeatable.")] = None,
    moves: Annotated[
        str | None,
        typer.Option(help="Replay these moves (comma-separated) and show the reply; no prompts."),
    ] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Play: humans at the keyboard against computer players that read the stored
    solution (one query per move).  With more than two seats, Ghost is played under the
    rules for that many players."""
    chosen = rules_of(
        name, rules, min_length, misere, fingers, rollover, no_transfers, _seats(players)
    )
    with store_for(db) as store:
        game = store.new_game(name, chosen, players, seed)
        if moves is None:
            if json:
                fail("--json is for scripts: give the moves with --moves")
            from ghostdb.play import console

            console.run(game)
            return
        for text in filter(None, (m.strip() for m in moves.split(","))):
            if game.result is not None:
                fail(f"the game ended at {game.result.fragment!r} before the move {text!r}")
            game.play(text)
        before = game.position
        data = game.as_dict()  # before the reply
        reply = None
        if game.result is None and game.seat() != "human":
            reply = game.computer_move()
    if json:
        data["position"] = None if game.history and before.is_word else before.as_dict()
        data["reply"] = (
            None if reply is None else {**reply.__dict__, "strategy": game.seat(reply.player)}
        )
        data["result"] = None if game.result is None else game.result.as_dict()
        emit(render.to_json(data))
    else:
        emit(render.replay(game, before, reply))


@app.command()
def selfplay(
    name: Name,
    min_length: MinLength = None,
    rules: RulesOption = None,
    misere: Misere = False,
    fingers: Fingers = None,
    rollover: Rollover = False,
    no_transfers: NoTransfers = False,
    players: Annotated[
        str, typer.Option(help="Computer players, one per seat: optimal, fastest, rational, random")
    ] = "optimal,optimal",
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    seed: Annotated[int | None, typer.Option(help="Make the games repeatable.")] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Computer against computer: who won, and the positions the games ended on."""
    chosen = rules_of(
        name, rules, min_length, misere, fingers, rollover, no_transfers, _seats(players)
    )
    with store_for(db) as store:
        report = store.selfplay(name, chosen, players, games, seed)
    emit(render.to_json(report.as_dict()) if json else render.selfplay(report))


def _seats(players: str) -> int | None:
    """How many seats a --players list names (the rule option for more than two)."""
    count = len([p for p in players.split(",") if p.strip()])
    return count if count > 2 else None


# -- schema ------------------------------------------------------------------------------------


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None) -> None:
    """Create the schema or upgrade it to the newest revision."""
    with store_for(db, create=True) as store:
        emit(f"schema at revision {store.schema_revision()}")


@db_app.command("current")
def db_current(db: DbOption = None) -> None:
    """Show the schema revision of the database (changes nothing)."""
    from ghostdb.store.db import inspect_schema

    _remember(db)
    schema = inspect_schema(db)
    notes = {
        "head": "(head)",
        "older": f"(older than this ghostdb's {schema.head}: run `ghostdb db upgrade`)",
        "newer": f"(newer than this ghostdb knows, {schema.head}: upgrade ghostdb to use it)",
        "empty": "(no ghostdb schema yet: `ghostdb db upgrade` or `ghostdb ingest` creates it)",
    }
    note = notes[schema.state]
    if schema.foreign:
        note = "(no ghostdb schema: it holds tables of something else)"
    emit(f"{schema.revision or 'empty'} {note}")


def main() -> None:  # pragma: no cover - console entry point
    app(prog_name="ghostdb")


# -- the web ----------------------------------------------------------------------------------


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[
        str, typer.Option(help="Address to listen on; anything but localhost is warned about.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
) -> None:
    """Serve the JSON API and the web page (read-only; needs ghostdb[web]); Ctrl-C stops."""
    try:
        from ghostdb import web  # FastAPI and uvicorn: only this command pays for them
    except ModuleNotFoundError as exc:
        fail(f"the web server needs {exc.name}: install ghostdb[web]")
    with store_for(db) as store:
        web.serve(store, host, port)
