"""The two hot routes: a stored position with every move's value, and the computer's
reply (the fast lane, `ghostdb.web.fastlane`, answers their plain requests first)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ghostdb.play.seats import computer_seats
from ghostdb.web.answers import Answers
from ghostdb.web.models import (
    MoveReply,
    PositionBody,
)
from ghostdb.web.parameters import STRATEGY_PATTERN, Fragment, Name, RuleOptions
from ghostdb.web.responses import ERRORS, as_json


def play_routes(answers: Answers) -> APIRouter:
    """The two hot routes (the fast lane answers their plain requests first)."""
    routes = APIRouter()

    @routes.get(
        "/api/{name}/position", response_model=PositionBody, responses=ERRORS, tags=["play"]
    )
    async def position(name: Name, options: RuleOptions, fragment: Fragment) -> Response:
        """A stored position: its outcome for the player to move, game length, best move,
        and every legal move **best first** with its own value, length and category (for
        the mover: win, loss, tie or draw). The same as ``ghostdb lookup NAME FRAGMENT
        --json``."""
        return as_json(await answers.position(name, fragment, options))

    @routes.get("/api/{name}/move", response_model=MoveReply, responses=ERRORS, tags=["play"])
    async def move(
        name: Name,
        options: RuleOptions,
        fragment: Fragment,
        strategy: Annotated[
            str,
            Query(
                pattern=STRATEGY_PATTERN,
                description=f"The computer's strategy (see `ghostdb play`): {computer_seats()} "
                "(a player who knows only the N most common words).",
            ),
        ] = "optimal",
        skill: Annotated[
            float,
            Query(
                ge=0,
                le=1,
                allow_inf_nan=False,
                description="The chance of playing the strategy's move rather than a random "
                "legal one.",
            ),
        ] = 1.0,
        seed: Annotated[
            int | None, Query(ge=0, le=2**63 - 1, description="Make the choice repeatable.")
        ] = None,
    ) -> Response:
        """The computer's reply at a position: one lookup, then the strategy's choice."""
        return as_json(await answers.move(name, fragment, options, strategy, skill, seed))

    return routes
