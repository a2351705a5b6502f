"""Decisive words and why two dictionaries differ: answers the command line worked out
and kept, only read here."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import Response

from ghostdb.errors import BadMove
from ghostdb.games.base import RuleSet
from ghostdb.store import Store
from ghostdb.web.answers import Answers
from ghostdb.web.models import (
    DecisiveBody,
    WhyBody,
)
from ghostdb.web.parameters import Fragment, Name, RuleOptions, other_name
from ghostdb.web.responses import NOT_WORKED_OUT, as_json


def decisive_routes(answers: Answers) -> APIRouter:
    """Decisive words and why two dictionaries differ: answers the command line worked out
    and kept, only read here (``compute=False``): working one out writes, and the server
    never writes, so an answer nobody has asked for yet is a 404 naming the command."""
    routes = APIRouter()
    store, run, chosen = answers.store, answers.run, answers.rules

    @routes.get(
        "/api/{name}/decisive",
        response_model=DecisiveBody,
        responses=NOT_WORKED_OUT,
        tags=["decisive words"],
    )
    async def decisive(
        name: Name,
        options: RuleOptions,
        fragment: Fragment,
        pool: Annotated[
            str | None,
            other_name("Another stored dictionary: which of its words, added alone, change it."),
        ] = None,
    ) -> Response:
        """Which words decide the game at a position (under the rule sets /api/solutions
        marks ``decisive``): each word whose deletion alone (with ``pool``, whose addition
        alone) changes the outcome, and the fewest edits that do, each with the move it
        changes (``ghostdb decisive --json``)."""
        rules = chosen(name, options)
        found = await run(read_decisive, store, name, rules, fragment, pool)
        return as_json(found)

    @routes.get(
        "/api/why", response_model=WhyBody, responses=NOT_WORKED_OUT, tags=["decisive words"]
    )
    async def why(
        a: Annotated[str, other_name("The dictionary whose outcome is explained.")],
        b: Annotated[str, other_name("The dictionary it is compared with.")],
        options: RuleOptions,
    ) -> Response:
        """Why two dictionaries' outcomes at the start differ under one rule set: the
        fewest of their differing words that give ``a`` the outcome ``b`` has (``ghostdb
        compare A B --why --json``, its ``why``)."""
        if a == b:
            raise BadMove(f"why compares two dictionaries: give b other than {a}")
        rules = chosen(a, options)
        found = await run(store.why, a, b, rules, compute=False)
        return as_json(found.as_dict())

    return routes


def read_decisive(
    store: Store, name: str, rules: RuleSet, position: str, pool: str | None
) -> dict[str, Any]:
    """A kept answer of decisive words, read only (NotWorkedOut when there is none)."""
    return store.solution(name, rules).decisive(position, pool, compute=False).as_dict()
