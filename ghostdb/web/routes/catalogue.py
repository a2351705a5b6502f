"""What is stored and how it compares: the games, the published solutions, a name's
report, two solutions side by side."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from ghostdb.web import library
from ghostdb.web.answers import Answers, dumps
from ghostdb.web.models import (
    Catalogue,
)
from ghostdb.web.parameters import MAX_TEXT, NAME_PATTERN, Name, RuleOptions, vs_options
from ghostdb.web.responses import NOT_WORKED_OUT, as_json


def catalogue_routes(answers: Answers) -> APIRouter:
    """The routes that list what is stored and compare it: the page starts from these."""
    routes = APIRouter()
    store, run, chosen = answers.store, answers.run, answers.rules

    @routes.get("/api/games", tags=["solutions"])
    async def games() -> Response:
        """Every game as it declares itself (title, rule options with their ranges, how
        the page draws it, how to play) and what of it is solved."""
        return as_json(await run(store.games))

    @routes.get("/api/solutions", response_model=Catalogue, tags=["solutions"])
    async def solutions() -> Response:
        """Every stored dictionary or game with its published rule sets: each one's key
        (give it as ``rules``) and description, and a dictionary's alphabet."""
        return as_json({"solutions": await run(library.catalogue, store)})

    @routes.get("/api/{name}/report", responses=NOT_WORKED_OUT, tags=["solutions"])
    async def report(name: Name) -> Response:
        """One row per published rule set: who wins, positions by outcome and level, and
        both players' best plans (``ghostdb report --json``), as kept when each was
        published."""
        body = await run(read_report, answers, name)
        return Response(body, media_type="application/json")

    @routes.get("/api/compare", responses=NOT_WORKED_OUT, tags=["solutions"])
    async def compare(
        a: Annotated[str, Query(max_length=MAX_TEXT, pattern=NAME_PATTERN, examples=["enable1"])],
        options: RuleOptions,
        vs: Annotated[dict[str, Any], Depends(vs_options)],
        b: Annotated[str | None, Query(max_length=MAX_TEXT, pattern=NAME_PATTERN)] = None,
        examples: Annotated[int, Query(ge=0, le=MAX_TEXT)] = 10,
    ) -> Response:
        """Two published solutions side by side and where they disagree: ``a`` under the
        rule options, ``b`` (default ``a``) under the ``vs_`` ones (default the same)
        (``ghostdb compare --json``), as kept once the command line worked it out."""
        left = chosen(a, options)
        given = {k: v for k, v in vs.items() if v is not None}
        if given.get("rules", "").lower() in library.CHOICES or "rules" not in given:
            given = {**options, **given}  # b's options default to a's, as on the command line
        right = chosen(b or a, given)
        found = await run(store.compare, a, b, left, right, examples=examples, compute=False)
        return as_json(found.as_dict())

    return routes


def read_report(answers: Answers, name: str) -> bytes:
    """The report, read only from what is kept (NotWorkedOut when a row is not), its
    JSON made once for the solutions published."""
    from ghostdb.store.answers import summaries

    solutions = answers.store.published(name)
    key = ("report", name, tuple(s.id for s in solutions))
    return answers.kept(
        key,
        lambda: dumps({"dictionary": name, "solutions": summaries.report_dicts(solutions)}),
    )
