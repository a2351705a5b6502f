"""`ghostdb serve`: the web page and the JSON API."""

from __future__ import annotations

from typing import Annotated

import typer

from ghostdb.cli.group import app, fail, store_for
from ghostdb.cli.options import DbOption


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[
        str, typer.Option(help="Address to listen on; anything but localhost is warned about.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
) -> None:
    """Serve the JSON API and the web page (read-only; needs ghostdb[web]); Ctrl-C stops."""
    try:
        from ghostdb import web  # FastAPI and uvicorn: only this command pays for them
    except ModuleNotFoundError as exc:
        fail(f"the web server needs {exc.name}: install ghostdb[web]")
    with store_for(db) as store:
        web.serve(store, host, port)
