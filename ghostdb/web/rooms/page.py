"""A room's link, ``/rooms/{id}``: the page itself, exactly as ``/`` serves it (the same
HTML, the same policy headers), which opens the room named in its path
(``static/rooms.js``).  The id is only checked for its shape here: the page asks
``GET /api/rooms/{id}`` and says when there is no such room.  Nothing secret travels in
this URL: a seat's token stays in the browser's ``sessionStorage``.

The page is found among the app's own routes rather than imported: ``ghostdb.web.app``
imports the rooms, and the modules of ``ghostdb.web`` import no cycle.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

page_router = APIRouter(include_in_schema=False)
"""``GET /rooms/{room_id}``: include it in the app that serves the page at ``/``."""


@page_router.get("/rooms/{room_id}")
async def room_page(
    request: Request,
    room_id: Annotated[str, Path(max_length=32, pattern=r"^[A-Za-z0-9_-]{1,32}$")],
) -> Response:
    """The page ``/`` answers, for the room ``room_id`` to open."""
    for route in request.app.routes:
        if isinstance(route, APIRoute) and route.path == "/" and "GET" in route.methods:
            page: Response = await route.endpoint()
            return page
    raise HTTPException(404, "this server has no page")


__all__ = ["page_router"]
