"""The API's query and path parameters, each validated and capped: a stored name, a
position (or its alias ``fragment``), the rule options every game declares (made from
the registry, so a new game's options are parameters with no code here), and compare's
second side as ``vs_`` options."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from fastapi import Depends, Path, Query

from ghostdb.errors import BadMove
from ghostdb.games.base import Option
from ghostdb.play.seats import STRATEGIES
from ghostdb.play.vocabulary import SEAT
from ghostdb.web import library

MAX_TEXT = 100
MAX_MOVES_TEXT = 2_000
"""The longest ``moves`` of an analysis (200 moves of up to 9 characters)."""
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
# -- parameters ----------------------------------------------------------------------------

Name = Annotated[
    str,
    Path(
        max_length=MAX_TEXT,
        pattern=NAME_PATTERN,
        description="A stored dictionary or game (see /api/solutions).",
        examples=["enable1", "chopsticks", "tictactoe"],
    ),
]

STRATEGY_PATTERN = f"^({'|'.join(STRATEGIES)}|{SEAT.pattern.strip('^$')})$"
"""A computer seat the API takes: a strategy of `ghostdb.play.engine`, or common:N."""


async def position_parameter(
    position: Annotated[
        str | None,
        Query(
            max_length=MAX_TEXT,
            description="The position in the game's notation: a Ghost fragment, Chopsticks "
            "hands, a board ('' or absent: the start).",
            examples=["gho", "11-11", "x...o...."],
        ),
    ] = None,
    fragment: Annotated[
        str | None,
        Query(max_length=MAX_TEXT, description="Ghost's word for `position`: an alias."),
    ] = None,
) -> str:
    """The position asked for, as ``position`` or its alias ``fragment``."""
    if position is not None and fragment is not None:
        raise BadMove("give the position once: as position or as its alias fragment")
    return position if position is not None else (fragment or "")


Fragment = Annotated[str, Depends(position_parameter)]


def other_name(description: str) -> Any:
    """A second stored name as a query parameter, checked as a path's name is."""
    return Query(
        max_length=MAX_TEXT, pattern=NAME_PATTERN, description=description, examples=["twl06"]
    )


RULES_PARAMETER = inspect.Parameter(
    "rules",
    inspect.Parameter.KEYWORD_ONLY,
    default=None,
    annotation=Annotated[
        str | None,
        Query(
            max_length=library.MAX_RULES,
            description=f"A choice ({', '.join(library.CHOICES)}) or a whole rule-set key as "
            "/api/solutions lists them (ghost/4, chopsticks/5, tictactoe).",
        ),
    ],
)


def option_parameter(name: str, option: Option) -> inspect.Parameter:
    """The query parameter of one declared rule option, with the option's range and help."""
    query: Any
    if option.type is int:
        low, high = library.int_range(option)
        query = Query(ge=low, le=high, description=option.help)
    elif option.type is bool:
        query = Query(description=option.help)
    else:
        query = Query(max_length=library.MAX_RULES, description=option.help)
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[option.type | None, query],
    )


async def rule_options(**given: Any) -> dict[str, Any]:
    """The rule parameters by name (None: not given); FastAPI reads which from the
    signature below, made from every game's declared options."""
    return given


rule_options.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [RULES_PARAMETER]
    + [option_parameter(name, option) for name, option in library.PARAMETERS.items()],
    return_annotation=dict[str, Any],
)

RuleOptions = Annotated[dict[str, Any], Depends(rule_options)]


async def vs_options(**given: Any) -> dict[str, Any]:
    """Compare's second side: every rule parameter again as ``vs_NAME``, by plain name."""
    return {name.removeprefix("vs_"): value for name, value in given.items()}


vs_options.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [
        parameter.replace(name=f"vs_{parameter.name}")
        for parameter in rule_options.__signature__.parameters.values()  # type: ignore[attr-defined]
    ],
    return_annotation=dict[str, Any],
)
