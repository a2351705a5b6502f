"""The ASGI app: a read-only JSON API over a `Store`, and the page that plays through it.

Every route makes one library call and returns what the library's `as_dict()` gives, so
the API answers exactly what ``ghostdb … --json`` prints.  Nothing here writes but the
rooms (`ghostdb.web.rooms`).  Where calls run is `ghostdb.web.answers`'s business; the
hot lookups also take a fast lane (`ghostdb.web.fastlane`) that wraps the FastAPI app
and answers them before it.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from ghostdb import __version__
from ghostdb.errors import BadMove, GhostdbError
from ghostdb.games.base import Option, RuleSet
from ghostdb.play.engine import split_moves
from ghostdb.play.seats import STRATEGIES, computer_seats
from ghostdb.play.vocabulary import SEAT
from ghostdb.store import Store
from ghostdb.web import library
from ghostdb.web.answers import Answers, dumps, error_body
from ghostdb.web.conventions import Conventions
from ghostdb.web.examples import with_stored_examples
from ghostdb.web.fastlane import FastLane
from ghostdb.web.models import (
    Catalogue,
    DecisiveBody,
    ErrorBody,
    MoveReply,
    PositionBody,
    WhyBody,
)
from ghostdb.web.rooms import add_rooms
from ghostdb.web.rooms.page import page_router

MAX_TEXT = 100
MAX_MOVES_TEXT = 2_000
"""The longest ``moves`` of an analysis (200 moves of up to 9 characters)."""
WALK_LIMIT = 250
"""The most positions a line or plan walks for one request (a few milliseconds alone; a
walk of 2,000 held the server's threads for a second under 16 clients): a bigger one
answers 400 naming the command that prints it whole."""
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
PAGE_HEADERS = {
    # The page loads nothing from anywhere but this server.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorBody,
        "description": "Bad input, a position that does not exist included: the library's "
        "one-line message.",
    },
    404: {"model": ErrorBody, "description": "Unknown name, unsolved rule set."},
    422: {"model": ErrorBody, "description": "A parameter out of range or of the wrong type."},
}

NOT_WORKED_OUT: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    404: {
        "model": ErrorBody,
        "description": "Unknown name, unsolved rule set, or an answer nobody has worked out "
        "yet: the server only reads, and the message names the command that works it out.",
    },
}

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


# -- responses -----------------------------------------------------------------------------


def as_json(data: Any, status: int = 200) -> Response:
    """JSON straight from the library's dicts: no second validation on the hot path."""
    return Response(dumps(data), status_code=status, media_type="application/json")


def error(status: int, message: str) -> Response:
    return as_json({"error": message}, status)


def validation_message(exc: RequestValidationError) -> str:
    """One line naming the first bad parameter, e.g. ``min_length: Input should be…``."""
    problems = exc.errors()
    if not problems:
        return "bad request"
    first = problems[0]
    where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "request"
    return f"{where}: {first.get('msg', 'invalid')}".splitlines()[0]


# -- the app -------------------------------------------------------------------------------


BOARDS_HERE = "<!-- boards -->\n"
"""Where the page loads its board drawings: one script for each file of static/boards."""


def page_html(file: str) -> str:
    """A page of static/ as it is served: the page with a script for each board drawing
    (so that a new drawing is one new file, named nowhere else)."""
    static = resources.files("ghostdb.web") / "static"
    body = (static / file).read_text(encoding="utf-8")
    boards = sorted(b.name for b in (static / "boards").iterdir() if b.name.endswith(".js"))
    tags = "".join(f'<script src="/static/boards/{b}" defer></script>\n' for b in boards)
    return body.replace(BOARDS_HERE, tags)


def create_app(store: Store, cors: Sequence[str] = (), *, address_caps: bool = True) -> Conventions:
    """The API and the page over an open ``store`` (which the caller closes): the FastAPI
    app inside the fast lane, inside the HTTP conventions (caching validators, and CORS
    for the ``cors`` origins); rooms' caps by address unless ``address_caps`` is off."""
    answers = Answers(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()  # every unfinished room taken up from its log
        yield
        await hub.stop()
        answers.close()

    app = FastAPI(
        title="ghostdb",
        version=__version__,
        summary="Solved positions of Ghost and other finite games, read from stored rows.",
        description="Every answer is a lookup of rows a solve job stored. Errors are "
        '`{"error": "…"}` with the library\'s one-line message. The page is at `/`.',
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    add_error_handlers(app, answers)
    add_listing_routes(app, answers)
    add_play_routes(app, answers)
    add_plan_routes(app, answers)
    add_decisive_routes(app, answers)
    hub = add_rooms(app, store, cors, address_caps=address_caps)  # the only routes that write
    add_page(app)
    app.include_router(page_router)  # a room's link serves the page
    with_stored_examples(app, store)  # /docs offers the names served, not the manual's
    # Outside FastAPI rather than one of its middlewares: the hot requests then skip
    # Starlette's middleware stack too (about 7 µs of the 65 µs a lookup cost).
    return Conventions(FastLane(app, answers), answers, cors)


def add_error_handlers(app: FastAPI, answers: Answers) -> None:
    """Every error answers ``{"error": one line}`` with a 4xx (503: the database), never a
    traceback."""

    async def on_library_error(_request: Request, exc: Exception) -> Response:
        status, body = error_body(exc)
        return as_json(body, status)

    for kind in (GhostdbError, *answers.database_errors):
        app.add_exception_handler(kind, on_library_error)

    @app.exception_handler(RequestValidationError)
    async def on_bad_request(_request: Request, exc: RequestValidationError) -> Response:
        return error(422, validation_message(exc))

    @app.exception_handler(HTTPException)
    async def on_http_error(_request: Request, exc: HTTPException) -> Response:
        return error(exc.status_code, str(exc.detail))


def add_listing_routes(app: FastAPI, answers: Answers) -> None:
    """The routes that list what is stored and compare it: the page starts from these."""
    store, run, chosen = answers.store, answers.run, answers.rules

    @app.get("/api/games", tags=["solutions"])
    async def games() -> Response:
        """Every game as it declares itself (title, rule options with their ranges, how
        the page draws it, how to play) and what of it is solved."""
        return as_json(await run(store.games))

    @app.get("/api/solutions", response_model=Catalogue, tags=["solutions"])
    async def solutions() -> Response:
        """Every stored dictionary or game with its published rule sets: each one's key
        (give it as ``rules``) and description, and a dictionary's alphabet."""
        return as_json({"solutions": await run(library.catalogue, store)})

    @app.get("/api/{name}/report", responses=NOT_WORKED_OUT, tags=["solutions"])
    async def report(name: Name) -> Response:
        """One row per published rule set: who wins, positions by outcome and level, and
        both players' best plans (``ghostdb report --json``), as kept when each was
        published."""
        body = await run(read_report, answers, name)
        return Response(body, media_type="application/json")

    @app.get("/api/compare", responses=NOT_WORKED_OUT, tags=["solutions"])
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


def add_play_routes(app: FastAPI, answers: Answers) -> None:
    """The two hot routes (the fast lane answers their plain requests first)."""

    @app.get("/api/{name}/position", response_model=PositionBody, responses=ERRORS, tags=["play"])
    async def position(name: Name, options: RuleOptions, fragment: Fragment) -> Response:
        """A stored position: its outcome for the player to move, game length, best move,
        and every legal move **best first** with its own value, length and category (for
        the mover: win, loss, tie or draw). The same as ``ghostdb lookup NAME FRAGMENT
        --json``."""
        return as_json(await answers.position(name, fragment, options))

    @app.get("/api/{name}/move", response_model=MoveReply, responses=ERRORS, tags=["play"])
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


def add_plan_routes(app: FastAPI, answers: Answers) -> None:
    """The routes that walk plans: lines, a strategy, the openings."""
    store, run, chosen = answers.store, answers.run, answers.rules

    @app.get("/api/{name}/against", responses=ERRORS, tags=["plans"])
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

    @app.get("/api/{name}/puzzle", responses=NOT_WORKED_OUT, tags=["plans"])
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

    @app.get("/api/{name}/analyse", responses=ERRORS, tags=["plans"])
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

    @app.get("/api/{name}/line", responses=ERRORS, tags=["plans"])
    async def line(name: Name, options: RuleOptions, fragment: Fragment) -> Response:
        """The principal lines from a position: the winner ends the game as soon as
        possible, the loser makes it last as long as possible (``ghostdb line --json``);
        400 when they pass more than 2,000 positions (the command prints them whole)."""
        rules = chosen(name, options)
        found = await run(read_line, store, name, rules, fragment, light=True)
        return as_json(found.as_dict())

    @app.get("/api/{name}/strategy", responses=NOT_WORKED_OUT, tags=["plans"])
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

    @app.get("/api/{name}/openings", responses=NOT_WORKED_OUT, tags=["plans"])
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


def add_decisive_routes(app: FastAPI, answers: Answers) -> None:
    """Decisive words and why two dictionaries differ: answers the command line worked out
    and kept, only read here (``compute=False``): working one out writes, and the server
    never writes, so an answer nobody has asked for yet is a 404 naming the command."""
    store, run, chosen = answers.store, answers.run, answers.rules

    @app.get(
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

    @app.get("/api/why", response_model=WhyBody, responses=NOT_WORKED_OUT, tags=["decisive words"])
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


def read_strategy(
    store: Store, name: str, rules: RuleSet, player: int | None, position: str
) -> Response:
    """A plan: the start's sent as it is kept (NotWorkedOut when it is not), another
    walked up to `WALK_LIMIT` positions."""
    from ghostdb.store import reports

    solution = store.solution(name, rules)
    if not position:
        solution.refresh()  # kept answers are read by id: the one published now
        text = reports.start_plan_text(solution, player)
        return Response(text.encode(), media_type="application/json")
    return as_json(solution.strategy(player, position, limit=WALK_LIMIT).as_dict())


def read_report(answers: Answers, name: str) -> bytes:
    """The report, read only from what is kept (NotWorkedOut when a row is not), its
    JSON made once for the solutions published."""
    from ghostdb.store import reports

    solutions = answers.store.published(name)
    key = ("report", name, tuple(s.id for s in solutions))
    return answers.kept(
        key,
        lambda: dumps({"dictionary": name, "solutions": reports.report_dicts(solutions)}),
    )


def read_line(store: Store, name: str, rules: RuleSet, position: str) -> Any:
    """The principal lines, walked up to `WALK_LIMIT` positions."""
    return store.solution(name, rules).line(position, limit=WALK_LIMIT)


def read_opening_plans(answers: Answers, name: str, rules: RuleSet) -> bytes:
    """The openings' plans, read only from what is kept (NotWorkedOut when they are not),
    their JSON made once a solution (a SuperDuperGhost one's is half a megabyte)."""
    from ghostdb.store import reports

    solution = answers.store.solution(name, rules)
    solution.refresh()  # kept answers are read (and held) by id: the one published now
    return answers.kept(
        ("openings", solution.id), lambda: dumps(reports.opening_plan_dicts(solution))
    )


def read_decisive(
    store: Store, name: str, rules: RuleSet, position: str, pool: str | None
) -> dict[str, Any]:
    """A kept answer of decisive words, read only (NotWorkedOut when there is none)."""
    return store.solution(name, rules).decisive(position, pool, compute=False).as_dict()


def add_page(app: FastAPI) -> None:
    """The page and its static files, served with a policy that loads nothing from
    elsewhere."""
    static = resources.files("ghostdb.web") / "static"

    def page(file: str) -> Callable[[], Any]:
        body = page_html(file)

        async def serve_page() -> HTMLResponse:
            return HTMLResponse(body, headers=PAGE_HEADERS)

        return serve_page

    app.get("/", include_in_schema=False)(page("index.html"))
    app.get("/docs", include_in_schema=False)(page("docs.html"))
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
