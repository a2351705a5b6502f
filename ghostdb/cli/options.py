"""The options many commands share, and the rule options made from the games' declarations.

A command that reads or makes a solution takes every rule option of every game: each
game uses its own and refuses the others' in one line (see
`ghostdb.games.base.Game.make_rules`).  The options are not written out per command:
`with_rule_options` makes them from `ghostdb.games.registry.all_options`, so a new game's
options appear on every such command with no change to the command line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from functools import cache, cached_property
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ghostdb.cli.group import emit, fail
from ghostdb.errors import GhostdbError
from ghostdb.games.registry import STANDALONE, all_options, rules_from_options

if TYPE_CHECKING:
    from ghostdb.games.base import Option, RuleSet

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="GHOSTDB_URL",
        show_envvar=True,
        help="Database: a SQLAlchemy URL or a SQLite file path [default: ./ghost.db].",
    ),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
Csv = Annotated[bool, typer.Option("--csv", help="Print the rows as CSV, a header line first.")]
Lines = Annotated[
    bool, typer.Option("--nl", help="Print the rows as newline-delimited JSON, an object a line.")
]
Name = Annotated[
    str,
    typer.Argument(
        help="A dictionary (see `ghostdb dictionaries`) or a game: "
        f"{', '.join(sorted(STANDALONE))}."
    ),
]
RuleOptions = dict[str, Any]
"""The rule options given to a command, by name (None: not given); see `with_rule_options`."""
RULE_OPTIONS = "rule_options"
"""The keyword-only parameter through which a command receives its `RuleOptions`."""
VS_OPTIONS = "vs_options"
"""The keyword-only parameter through which `compare` receives the second side's rule
options: every rule option again as ``--vs-…`` (``--vs-min-length``, ``--vs-width``)."""
VS_PREFIX = "vs_"


def with_rule_options(fn: Callable[..., None]) -> RuleCommand:
    """Decorate a command function to take every game's rule options (see `RuleCommand`)."""
    return RuleCommand(fn)


class RuleCommand:
    """A command function that takes every game's rule options.

    The function declares a keyword-only parameter ``rule_options: RuleOptions``; Typer
    sees in its place one option per rule option of every game, with the game's flag,
    short form, range, choices and help, and the function receives the options given as
    one dict, ready for `rules_of`.  A parameter of the function's own with a rule
    option's name (``play --players``, which also takes a list of seats) takes that
    option's place: the function supplies its value itself.  A second parameter
    ``vs_options: RuleOptions`` (`compare`) gets every rule option again for a second
    rule set, as ``--vs-FLAG`` (a bool one as ``--vs-FLAG/--vs-OPPOSITE``).

    The signature is made when Typer first reads it, which `LazyTyper` defers until the
    command is looked up: a start-up pays nothing for the commands it does not run.
    """

    def __init__(self, fn: Callable[..., None]) -> None:
        self.fn = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__module__ = fn.__module__
        self.__doc__ = fn.__doc__
        self.__annotations__: dict[str, Any] = {}  # the signature carries the real ones

    @cached_property
    def options(self) -> dict[str, Option]:
        """The rule options this command offers (those it does not declare itself)."""
        own = inspect.signature(self.fn).parameters
        return {name: o for name, o in all_options().items() if name not in own}

    @cached_property
    def __signature__(self) -> inspect.Signature:
        """The function's signature with ``rule_options`` replaced by one parameter per
        rule option."""
        own = inspect.signature(self.fn, eval_str=True)
        parameters: list[inspect.Parameter] = []
        for parameter in own.parameters.values():
            if parameter.name == RULE_OPTIONS:
                parameters.extend(_parameter(o) for o in self.options.values())
            elif parameter.name == VS_OPTIONS:
                parameters.extend(_vs_parameter(o) for o in all_options().values())
            else:
                parameters.append(parameter)
        return own.replace(parameters=parameters)

    @cached_property
    def takes_vs(self) -> bool:
        return VS_OPTIONS in inspect.signature(self.fn).parameters

    def __call__(self, **given: Any) -> None:
        options = {name: _value(o, given.pop(name)) for name, o in self.options.items()}
        if self.takes_vs:
            given[VS_OPTIONS] = {
                name: _vs_value(o, given.pop(VS_PREFIX + name)) for name, o in all_options().items()
            }
        self.fn(**given, rule_options=options)


def _parameter(option: Option) -> inspect.Parameter:
    """The command-line option of a rule option, as a parameter Typer reads.

    A bool option is a flag that turns its default around (``--no-transfers``); the
    others default to None (not given), so their help states the game's default.
    """
    decls = (option.flag, *((option.short,) if option.short else ()))
    if option.type is bool:
        annotation: Any = Annotated[bool, typer.Option(*decls, help=option.help)]
        return inspect.Parameter(
            option.name, inspect.Parameter.KEYWORD_ONLY, default=False, annotation=annotation
        )
    help_text = f"{option.help.removesuffix('.')} [default: {option.default}]."
    if option.choices:
        info = typer.Option(*decls, case_sensitive=False, help=help_text)
        annotation = Annotated[choices_of(option) | None, info]
    else:
        info = typer.Option(*decls, min=option.low, max=option.high, help=help_text)
        annotation = Annotated[option.type | None, info]
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )


def _vs_parameter(option: Option) -> inspect.Parameter:
    """The second side's command-line option of a rule option (see `RuleCommand`)."""
    flag = "--vs-" + option.flag.removeprefix("--")
    game, _, what = option.help.removesuffix(".").rpartition(": ")
    what = f"{what[0].lower()}{what[1:]}" if game else what  # "Ghost: shortest word ..."
    help_text = f"Second side: {what} [default: the first side's]."
    if option.type is bool:
        opposite = "--vs-" + option.opposite_flag.removeprefix("--")
        info = typer.Option(f"{flag}/{opposite}", help=help_text)
        annotation: Any = Annotated[bool | None, info]
    elif option.choices:
        info = typer.Option(flag, case_sensitive=False, help=help_text)
        annotation = Annotated[choices_of(option) | None, info]
    else:
        info = typer.Option(flag, min=option.low, max=option.high, help=help_text)
        annotation = Annotated[option.type | None, info]
    return inspect.Parameter(
        VS_PREFIX + option.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )


def _vs_value(option: Option, value: Any) -> Any:
    """A parsed second-side option as the registry takes it: a bool flag given sets the
    value its flag names (``--vs-no-transfers``: False), its opposite the default."""
    if option.type is bool and value is not None:
        return (not option.default) if value else option.default
    return getattr(value, "value", value)


@cache
def choices_of(option: Option) -> type[StrEnum]:
    """The values of a str option as an enum, which Typer offers as a choice."""
    return StrEnum(option.name.title(), {choice: choice for choice in option.choices})


def _value(option: Option, value: Any) -> Any:
    """A parsed option as the registry takes it: None where it was not given."""
    if option.type is bool:
        return (not option.default) if value else None
    return getattr(value, "value", value)  # a choice: its text


def given(options: Mapping[str, Any]) -> list[str]:
    """The names of the rule options given."""
    return [name for name, value in options.items() if value is not None]


def rules_of(name: str, options: Mapping[str, Any]) -> RuleSet:
    """The rule set the options choose for ``name``'s game; one line if one does not apply."""
    try:
        return rules_from_options(name, **options)
    except GhostdbError as exc:
        fail(str(exc))


def emit_rows(
    rows: Sequence[dict[str, Any]],
    text: Callable[[], str],
    *,
    json: bool = False,
    csv: bool = False,
    nl: bool = False,
    whole: Any = None,
) -> None:
    """Print a listing in the format asked: text (``text()``), ``--json`` (``whole``, by
    default the rows), ``--csv`` or ``--nl`` (the rows); one line if two are asked."""
    from ghostdb.text.common import to_csv, to_json, to_lines

    asked = [flag for flag, on in (("--json", json), ("--csv", csv), ("--nl", nl)) if on]
    if len(asked) > 1:
        fail(f"{' and '.join(asked)} are two formats: give one")
    if json:
        emit(to_json(rows if whole is None else whole))
    elif csv:
        emit(to_csv(rows))
    elif nl:
        emit(to_lines(rows))
    else:
        emit(text())
