"""`ghostdb serve`: the web page and the JSON API."""

from __future__ import annotations

import re
from typing import Annotated

import typer

from ghostdb.cli.group import app, fail, store_for
from ghostdb.cli.options import DbOption

ORIGIN = re.compile(
    r"^(\*|https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:]+\](:[0-9]{1,5})?)$"
)


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[
        str, typer.Option(help="Address to listen on; anything but localhost is warned about.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    cors: Annotated[
        list[str] | None,
        typer.Option(
            "--cors",
            metavar="ORIGIN",
            help="Let pages of this origin read the API (e.g. https://example.org; * for "
            "any; repeat for more) [default: none].",
        ),
    ] = None,
    address_caps: Annotated[
        bool,
        typer.Option(
            help="Cap the rooms and sockets of one client address (off behind a proxy, "
            "where every client has the proxy's address; the caps in all still hold)."
        ),
    ] = True,
) -> None:
    """Serve the JSON API, the web page and the rooms (which are all it writes); Ctrl-C
    stops."""
    try:
        from ghostdb import web  # FastAPI and uvicorn: only this command pays for them
    except ModuleNotFoundError as exc:
        fail(f"the web server needs {exc.name}, which this install lacks: pip install ghostdb")
    for origin in cors or ():
        if not ORIGIN.match(origin):
            fail(
                f"--cors {origin}: an origin is * or scheme://host[:port], e.g. https://example.org"
            )
    with store_for(db) as store:
        check_can_listen(host, port)
        web.serve(store, host, port, cors or (), address_caps=address_caps)


def check_can_listen(host: str, port: int) -> None:
    """Fail in one line, before anything is printed, where the server could not listen
    (the port is taken, the address is not this machine's), rather than after uvicorn
    has started and logged the error its own way."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        fail(f"cannot listen on {host}: {exc.strerror}: give --host an address of this machine")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            shown = f"[{host}]" if ":" in host else host
            fail(
                f"cannot listen on {shown}:{port}: {exc.strerror or exc}: stop what uses the "
                "port or give another with --port"
            )
