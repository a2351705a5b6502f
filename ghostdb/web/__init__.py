"""``ghostdb serve``: the JSON API, the web page and the rooms (`serve`, here, runs them
on uvicorn); and the page's offline copy.

Only ``ghostdb serve`` and ``ghostdb export site`` import this package, so FastAPI and
uvicorn cost the other commands nothing at start-up.  From the outside in:

* `conventions`: HTTP around the whole app: validators (an ``ETag`` from the store's
  publication state) and caching of answers, and opt-in CORS.
* `fastlane`: the two hot routes (``position``, ``move``) answered before FastAPI, with
  the routes' own bytes.
* `app`: the FastAPI app (`create_app` wraps it in the two above), assembled from the
  routers of `routes`, one a resource — `catalogue` (the games, the solutions, reports,
  compare), `play`, `plans`, `decisive` — each route one library call; the shared
  `parameters` (validated and capped) and `responses` (JSON, errors as one line); and
  `page`, the page and its static files.
* `answers`: the library calls behind the routes, and where each runs (on the event loop,
  or in a small pool of threads of its own).
* `library`: what the routes need from the library beyond one call: the rule parameters,
  made from the games' declared options, and the catalogue the page starts from.
* `models`: the response schemas, for the OpenAPI description (and the schema-driven
  tests) only.
* `examples`: the served schema's example names, those of the store being served.
* `rooms`: matches played together over a WebSocket, with their HTTP routes and the
  room's link; the only thing the server writes.
* `protocol`: uvicorn's HTTP protocol with each response leaving in one write.
* `site`: the offline copy (``ghostdb export site``): the page, its drawings and the packs
  of the chosen solutions, answered in the browser with no server behind it.

Beside them, ``static/`` holds the page: its HTML, CSS and scripts, and the boards'
drawings.
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
