"""The page and its static files, served with a policy that loads nothing from
elsewhere; a board drawing is one file of static/boards, named nowhere else."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

PAGE_HEADERS = {
    # The page loads nothing from anywhere but this server.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}


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
