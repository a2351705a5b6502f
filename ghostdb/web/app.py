"""The ASGI app: a read-only JSON API over a `Store`, and the page that plays through it.

Every route makes one library call and returns what the library's `as_dict()` gives, so
the API answers exactly what ``ghostdb … --json`` prints.  Nothing here writes but the
rooms (`ghostdb.web.rooms`).  Where calls run is `ghostdb.web.answers`'s business; the
hot lookups also take a fast lane (`ghostdb.web.fastlane`) that wraps the FastAPI app
and answers them before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from ghostdb import __version__
from ghostdb.errors import GhostdbError
from ghostdb.store import Store
from ghostdb.web.answers import Answers, error_body
from ghostdb.web.conventions import Conventions
from ghostdb.web.examples import with_stored_examples
from ghostdb.web.fastlane import FastLane
from ghostdb.web.page import add_page
from ghostdb.web.responses import as_json, error, validation_message
from ghostdb.web.rooms import add_rooms
from ghostdb.web.rooms.page import page_router
from ghostdb.web.routes.catalogue import catalogue_routes
from ghostdb.web.routes.decisive import decisive_routes
from ghostdb.web.routes.plans import plans_routes
from ghostdb.web.routes.play import play_routes


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
    for router in (catalogue_routes, play_routes, plans_routes, decisive_routes):
        app.include_router(router(answers))
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
