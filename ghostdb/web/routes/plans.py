"""Play judged and walked: each move against a common player, kept puzzles, a played
game analysed, the principal lines, a strategy, the openings' plans.  A walk from a
position is capped at `WALK_LIMIT` positions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ghostdb.games.base import RuleSet
from ghostdb.play.engine import split_moves
from ghostdb.store import Store
from ghostdb.web.answers import Answers, dumps
from ghostdb.web.parameters import MAX_MOVES_TEXT, MAX_TEXT, Fragment, Name, RuleOptions
from ghostdb.web.responses import ERRORS, NOT_WORKED_OUT, as_json

WALK_LIMIT = 250
"""The most positions a line or plan walks for one request (a few milliseconds alone; a
walk of 2,000 held the server's threads for a second under 16 clients): a bigger one
answers 400 naming the command that prints it whole."""


def plans_routes(answers: Answers) -> APIRouter:
    """The routes that judge and walk play: against a common player, puzzles, a game
    analysed, lines, a strategy, the openings."""
    routes = APIRouter()
    _add_judged(routes, answers)
    _add_walked(routes, answers)
    return routes


def _add_judged(routes: APIRouter, answers: Answers) -> None:
    """Play judged: each move against a common player, a kept puzzle, a game analysed."""
    store, run, chosen = answers.store, answers.run, answers.rules

    @routes.get("/api/{name}/against", responses=ERRORS, tags=["plans"])
    async def against(
        name: Name,
        options: RuleOptions,
        fragment: Fragment,
        player: Annotated[
            str,
            Query(
                pattern=r"^common:[1-9][0-9]{0,6}$",
                description="The opponent: common:N, who knows only the N most common words.",
                examples=["common:2000"],
            ),
        ],
    ) -> Response:
        """Each move's value for its mover against ``player`` moving next, beside its
        value against perfect play (``ghostdb lookup --against``); a search over the real
        game, capped (400 past it)."""
        solution = store.solution(name, chosen(name, options))
        pos = await run(solution.lookup, fragment, light=True)
        return as_json(await run(solution.against, pos, player))

    @routes.get("/api/{name}/puzzle", responses=NOT_WORKED_OUT, tags=["plans"])
    async def puzzle(
        name: Name,
        options: RuleOptions,
        difficulty: Annotated[
            Literal["easy", "medium", "hard"] | None,
            Query(description="easy (a win in 3 moves at most), medium or hard."),
        ] = None,
        seed: Annotated[
            int | None, Query(ge=0, le=2**63 - 1, description="The same puzzle again.")
        ] = None,
    ) -> Response:
        """A kept puzzle: a position where exactly one move wins, with the answer, the
        other moves and (word games) the word the winning line ends on
        (``ghostdb puzzle --json``)."""
        solution = store.solution(name, chosen(name, options))
        return as_json(await run(solution.puzzle, difficulty, seed, light=True))

    @routes.get("/api/{name}/analyse", responses=ERRORS, tags=["plans"])
    async def analyse(
        name: Name,
        options: RuleOptions,
        moves: Annotated[
            str,
            Query(
                max_length=MAX_MOVES_TEXT,
                description="The game's moves as `ghostdb play` prints them, "
                "space-separated (commas also separate; a + is %2B in a URL): a Ghost "
                "game as its letters or its fragments.",
                examples=["t r e n"],
            ),
        ] = "",
        start: Annotated[
            str,
            Query(alias="from", max_length=MAX_TEXT, description="Where the game started."),
        ] = "",
    ) -> Response:
        """A played game judged move by move (``ghostdb analyse --json``): each move's
        value before and after for its mover, the best moves instead, a verdict (best,
        good, mistake, blunder; for a word game the word behind a mistake), each player's
        accuracy and the move that decided the game.  400 naming the first bad move."""
        rules = chosen(name, options)
        typed = split_moves(moves)
        solution = store.solution(name, rules)
        found = await run(solution.analyse, typed, start, light=True)
        return as_json(found.as_dict())


def _add_walked(routes: APIRouter, answers: Answers) -> None:
    """Play walked: the principal lines, a strategy, the openings."""
    store, run, chosen = answers.store, answers.run, answers.rules

    @routes.get("/api/{name}/line", responses=ERRORS, tags=["plans"])
    async def line(name: Name, options: RuleOptions, fragment: Fragment) -> Response:
        """The principal lines from a position: the winner ends the game as soon as
        possible, the loser makes it last as long as possible (``ghostdb line --json``);
        400 when they pass more than 2,000 positions (the command prints them whole)."""
        rules = chosen(name, options)
        found = await run(read_line, store, name, rules, fragment, light=True)
        return as_json(found.as_dict())

    @routes.get("/api/{name}/strategy", responses=NOT_WORKED_OUT, tags=["plans"])
    async def strategy_(
        name: Name,
        options: RuleOptions,
        fragment: Fragment,
        player: Annotated[
            int | None, Query(ge=0, le=1, description="Strategist [who wins from there].")
        ] = None,
    ) -> Response:
        """A player's best plan from a position: the outcomes to memorise and the plan as
        a tree (``ghostdb strategy --format json``); from the start, as kept."""
        rules = chosen(name, options)
        # From a position: a walk, inline on SQLite like a line (see `Answers`).
        walk = bool(fragment)
        return await run(read_strategy, store, name, rules, player, fragment, light=walk)

    @routes.get("/api/{name}/openings", responses=NOT_WORKED_OUT, tags=["plans"])
    async def openings(
        name: Name,
        options: RuleOptions,
        words: Annotated[
            bool, Query(description="For each first move, the winner's plan outcomes.")
        ] = False,
    ) -> Response:
        """The first moves (``ghostdb openings --json``), or with ``words`` the outcomes
        each winner must know (``ghostdb openings --words --json``)."""
        rules = chosen(name, options)
        if words:
            body = await run(read_opening_plans, answers, name, rules)
            return Response(body, media_type="application/json")
        pos = await run(answers.lookup, name, "", rules)
        return as_json(pos.as_dict())


def read_strategy(
    store: Store, name: str, rules: RuleSet, player: int | None, position: str
) -> Response:
    """A plan: the start's sent as it is kept (NotWorkedOut when it is not), another
    walked up to `WALK_LIMIT` positions."""
    from ghostdb.store.answers import plans

    solution = store.solution(name, rules)
    if not position:
        solution.refresh()  # kept answers are read by id: the one published now
        text = plans.start_plan_text(solution, player)
        return Response(text.encode(), media_type="application/json")
    return as_json(solution.strategy(player, position, limit=WALK_LIMIT).as_dict())


def read_line(store: Store, name: str, rules: RuleSet, position: str) -> Any:
    """The principal lines, walked up to `WALK_LIMIT` positions."""
    return store.solution(name, rules).line(position, limit=WALK_LIMIT)


def read_opening_plans(answers: Answers, name: str, rules: RuleSet) -> bytes:
    """The openings' plans, read only from what is kept (NotWorkedOut when they are not),
    their JSON made once a solution (a SuperDuperGhost one's is half a megabyte)."""
    from ghostdb.store.answers import plans

    solution = answers.store.solution(name, rules)
    solution.refresh()  # kept answers are read (and held) by id: the one published now
    return answers.kept(
        ("openings", solution.id), lambda: dumps(plans.opening_plan_dicts(solution))
    )
