"""The command group: lazy commands, one way to end every failure, and opening the store.

Every command module registers its commands on `app` here; `ghostdb.cli` imports them
in the order ``ghostdb --help`` lists them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_command_name, get_group_from_info
from typer.models import CommandInfo

from ghostdb.cli import COMMANDS
from ghostdb.errors import GhostdbError, Interrupted
from ghostdb.store import Store, open_store
from ghostdb.store.sql.faults import describe

# The database the running command opened, to name it in error messages.
_opened: ContextVar[str | None] = ContextVar("ghostdb_opened", default=None)
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class LazyTyper(typer.Typer):
    """A Typer app whose commands are made into click commands only when looked up
    (click's lazy-group pattern), by its group's `LazyCommands`, and whose command
    modules are imported only then (`modules`).

    Typer makes a click command by reading the function's signature and evaluating its
    type hints, about half a millisecond a command; a command's module imports what its
    commands need.  A run needs one command, ``--help`` all of them.  Sub-apps
    (``add_typer``) are made by Typer as usual, when their module is imported.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lazy_commands: dict[str, CommandInfo] = {}
        """The commands registered, by name in the order they were defined."""
        self.modules: dict[str, str] = {}
        """The module of each command and sub-app, by name in the order ``--help`` lists
        them: imported, registering its commands, when one of them is first looked up."""

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[F], F]:
        register = super().command(name, **kwargs)

        def defer(fn: F) -> F:
            register(fn)
            info = self.registered_commands.pop()  # else Typer makes it at every start
            self.lazy_commands[info.name or get_command_name(fn.__name__)] = info
            return fn

        return defer

    def names(self) -> list[str]:
        """Every command and sub-app, in the order ``--help`` lists them, imported or not."""
        registered = [*self.lazy_commands, *(g.name for g in self.registered_groups if g.name)]
        return [*self.modules, *(n for n in registered if n not in self.modules)]

    def make_command(self, name: str) -> Any:
        """The click command (or group) ``name``, its module imported first if need be;
        KeyError if there is none."""
        if name in self.modules and name not in self.lazy_commands:
            __import__(self.modules[name])  # (`-X importtime` sees no importlib.import_module)
        if name in self.lazy_commands:
            return get_command_from_info(
                self.lazy_commands[name],
                pretty_exceptions_short=self.pretty_exceptions_short,
                rich_markup_mode=self.rich_markup_mode,
            )
        group = next((g for g in self.registered_groups if g.name == name), None)
        if group is None:
            raise KeyError(name)
        return get_group_from_info(
            group,
            pretty_exceptions_short=self.pretty_exceptions_short,
            suggest_commands=self.suggest_commands,
            rich_markup_mode=self.rich_markup_mode,
        )


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name: the ones made already (sub-groups, commands looked
    up before) and the rest of ``app``'s, made when first looked up.  Listing the names
    makes and imports nothing."""

    def __init__(self, app: LazyTyper, made: MutableMapping[str, Any]) -> None:
        self._app = app
        self._made = dict(made)
        self._names = [*app.names(), *(n for n in made if n not in app.names())]

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


GLOBAL_OPTIONS = {"--db": True, "--json": False}
"""Options many commands take, each with whether it takes a value: given before the
command, as in ``ghostdb --db team.db --json lookup enable1 gh``, they are read as if
given after it (the README says they go either side)."""


def quiet_libraries() -> None:
    """Keep the libraries' own log lines off the terminal: when a PostgreSQL server goes
    away mid-write, psycopg logs ``error ignored terminating <psycopg.Copy [BAD]>`` as it
    lets go of the broken copy, and Python prints an unhandled warning on stderr; the
    command has said what went wrong in its one line already."""
    import logging

    logging.getLogger("psycopg").addHandler(logging.NullHandler())


def hoisted(args: list[str]) -> list[str]:
    """``args`` with the `GLOBAL_OPTIONS` given before the command moved after it (before
    a ``--``, if there is one), where the command reads them."""
    moved: list[str] = []
    while args and args[0].partition("=")[0] in GLOBAL_OPTIONS:
        takes_value = GLOBAL_OPTIONS[args[0].partition("=")[0]] and "=" not in args[0]
        moved += args[: 1 + takes_value]
        del args[: 1 + takes_value]
    if not moved or not args:
        return moved + args
    end = args.index("--") if "--" in args else len(args)
    return args[:end] + moved + args[end:]


class GhostdbGroup(TyperGroup):
    """The command group, made to end every failure the same way.

    A failure is one line on stderr starting ``error:`` and exit status 1: usage
    mistakes, the database's and the system's errors (see `ghostdb.store.sql.faults.describe`) and
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
        args = hoisted(list(sys.argv[1:] if args is None else args))
        quiet_libraries()
        if args and args[0].partition("=")[0] in GLOBAL_OPTIONS:  # no command after them
            given = args[0].partition("=")[0]
            typer.echo(
                f"error: {given} is given, but no command: put one after it, e.g. "
                f"`ghostdb {given}{' FILE' if GLOBAL_OPTIONS[given] else ''} lookup NAME` "
                "(`ghostdb --help` lists them)",
                err=True,
            )
            sys.exit(1)
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


# Typer makes a group (not a lone command) of an app with a sub-app: `ghostdb db`.
app = LazyTyper(
    cls=GhostdbGroup,
    help="A persistent solution store for the word game Ghost and other finite games.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish)
    context_settings={"help_option_names": ["-h", "--help"]},  # every command inherits it
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,  # rich markup would eat every "[default: …]" in the help texts
)


# Every command's module, imported when one of its commands is looked up.
app.modules.update({name: module for module, names in COMMANDS.items() for name in names})


def _show_version(shown: bool) -> None:
    if shown:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("ghostdb")
        except PackageNotFoundError:  # run from a source tree that is not installed
            from ghostdb import __version__ as found
        typer.echo(f"ghostdb {found}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """A persistent solution store for the word game Ghost and other finite games."""


def sub_app(name: str, help_text: str) -> typer.Typer:
    """A group of commands under ``ghostdb NAME`` (`db`, `export`), added to `app`."""
    group = typer.Typer(help=help_text, no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(group, name=name)
    return group


def fail(message: str) -> NoReturn:
    """End the command: one line on stderr, exit status 1."""
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(1)


def stop(exc: KeyboardInterrupt) -> NoReturn:
    """End the command after Ctrl-C: one line on stderr, exit status 130."""
    message = str(exc) if isinstance(exc, Interrupted) and str(exc) else "interrupted"
    typer.echo(message, err=True)
    raise typer.Exit(130)


def remember(db: str | None) -> str:
    """The URL of ``db``, kept where `GhostdbGroup` finds it to name it in messages."""
    from ghostdb.store.sql.db import resolve_url

    url = resolve_url(db)
    _opened.set(url)
    return url


@contextmanager
def store_for(db: str | None, *, create: bool = False, write: bool = False) -> Iterator[Store]:
    """Open the store for a command and turn every failure into one line.

    Only ``write`` commands may create (``create``) or upgrade the schema; the others
    open the database read-only and change nothing in it.
    """
    url = remember(db)
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


def kept_answer(db: str | None, ask: Callable[[Store], T]) -> T:
    """``ask(store)``, for a question whose answer the store keeps (`ghostdb.store.answers.kept`,
    decisive words): read from the store opened read-only, as every read is; when the
    answer is not kept yet, worked out once with the store opened for writing, and kept."""
    from ghostdb.errors import NotWorkedOut

    with store_for(db) as store:
        try:
            return ask(store)
        except NotWorkedOut:
            pass
    with store_for(db, write=True) as store:
        return ask(store)


def keep_common_words(db: str | None, name: str, rules: Any, seats: Sequence[str]) -> None:
    """Before a game with ``common:N`` seats: the dictionary's words ranked by frequency
    once and kept (the store opened for writing only when they are not kept yet)."""
    from ghostdb.play.vocabulary import vocabulary_size

    if any(vocabulary_size(s) for s in seats):
        kept_answer(db, lambda store: store.solution(name, rules).rank_common_words(seats))


def emit(text: str) -> None:
    """Print a command's output on stdout: its colours on a terminal only, and never
    where NO_COLOR is set."""
    from ghostdb.text.common import for_stream

    typer.echo(for_stream(sys.stdout, text), color=None)
