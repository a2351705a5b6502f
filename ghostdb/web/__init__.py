"""``ghostdb serve``: the JSON API and the web page.

Only the ``serve`` command imports this package, so FastAPI and uvicorn cost the other
commands nothing at start-up.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ghostdb.store import Store
from ghostdb.web.app import create_app
from ghostdb.web.protocol import http_protocol

if TYPE_CHECKING:
    import uvicorn

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")

__all__ = ["create_app", "serve", "server_config"]


def server_config(
    store: Store,
    host: str = "127.0.0.1",
    port: int = 8000,
    cors: Sequence[str] = (),
    *,
    address_caps: bool = True,
) -> uvicorn.Config:
    """uvicorn's settings for serving ``store`` (the browser tests serve with these too)."""
    import uvicorn

    return uvicorn.Config(
        create_app(store, cors, address_caps=address_caps),
        # A room's frames are at most 4 KiB (`ghostdb.web.rooms.limits.MAX_FRAME`): a
        # bigger one is refused by the protocol, and one past this is never read whole.
        ws_max_size=64 * 1024,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,  # a line per request would halve the lookups a second
        http=http_protocol(),  # one write a response
        timeout_graceful_shutdown=5,
    )


def serve(
    store: Store,
    host: str = "127.0.0.1",
    port: int = 8000,
    cors: Sequence[str] = (),
    *,
    address_caps: bool = True,
) -> None:
    """Serve ``store`` until Ctrl-C (or SIGTERM); the caller closes the store."""
    import uvicorn

    if host not in LOCAL_HOSTS:
        print(
            f"warning: serving on {host}: anyone who can reach this machine can read the store",
            file=sys.stderr,
        )
    shown = f"[{host}]" if ":" in host else host
    print(f"ghostdb: serving on http://{shown}:{port}/ (API docs at /docs; Ctrl-C stops)")
    store.warm()  # the first requests read from memory, not one disk page at a time
    config = server_config(store, host, port, cors, address_caps=address_caps)
    config.load()  # imports the protocol and loop modules now, before the freeze
    # The ~85,000 objects of start-up (FastAPI, Pydantic, the routes) live as long as the
    # server.  Frozen, the collector never walks them again; unfrozen, each full collection
    # (rare, but at a moment nothing chooses) stops the event loop for 10-50 ms with every
    # connection waiting.
    gc.collect()
    gc.freeze()
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn shuts down, then passes Ctrl-C on
        uvicorn.Server(config).run()
