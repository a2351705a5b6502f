"""The served OpenAPI schema's examples of names: those of the store being served.

The routes declare the manual's names as examples (``enable1``, ``twl06``), which the
manual's reference shows.  A server over another store (the README's ``web2``) would
offer them on its ``/docs`` page, whose forms send a path's example when its field is
left empty: every form would answer 404.  So the schema the server serves names what it
holds instead: its dictionaries, biggest first, then its games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

from ghostdb.store import Store

FIRST_NAME = ("name", "a")
"""Parameters that name a stored dictionary or game (the first of a pair)."""
SECOND_NAME = ("b", "pool")
"""Parameters that name a second one: another dictionary, to compare or draw words from."""


def with_stored_examples(app: FastAPI, store: Store) -> None:
    """Have ``app`` serve its OpenAPI schema with the names ``store`` holds as the name
    parameters' examples (worked out with the schema, on its first request)."""
    made: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            restate(made(), stored_names(store))  # FastAPI keeps the schema it made
        return made()

    app.openapi = openapi  # type: ignore[method-assign]


def stored_names(store: Store) -> list[str]:
    """The published names: dictionaries with the most words first, then the games."""
    entries = [e for e in store.catalogue() if e["rules"]]
    words = sorted((e for e in entries if e["words"] is not None), key=lambda e: -e["words"])
    return [e["name"] for e in (*words, *(e for e in entries if e["words"] is None))]


def restate(schema: dict[str, Any], names: list[str]) -> None:
    """Put ``names`` in ``schema`` as the examples of every name parameter and of a new
    room's name; with no name stored, the declared examples stay."""
    if not names:
        return
    second = names[1:2] or names[:1]
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] in FIRST_NAME:
                    parameter.setdefault("schema", {})["examples"] = names[:3]
                elif parameter["name"] in SECOND_NAME:
                    parameter.setdefault("schema", {})["examples"] = second
    room = schema.get("components", {}).get("schemas", {}).get("NewRoom", {})
    if "name" in room.get("properties", {}):
        room["properties"]["name"]["examples"] = names[:1]
