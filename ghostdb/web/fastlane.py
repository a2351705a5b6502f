"""A fast lane for the two hot routes, ``/api/{name}/position`` and ``/api/{name}/move``.

FastAPI validates each query parameter in Python, about 20 µs a parameter: for a lookup
of 30 µs that is most of the cost.  This ASGI wrapper answers the plain requests of the
page and of scripts itself — every parameter known, given once, and in a form that
parses one way only — and hands everything else to FastAPI, whose validation and error
messages stay the reference.  Its answers are the routes' own (the same `Answers`
calls); tests check that both give the same bytes.  It wraps the FastAPI app from
outside, so what it answers never enters Starlette's middleware stack; what it does not
catch (a bug, not a bad request) reaches uvicorn, which answers 500 as Starlette would.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from ghostdb.errors import GhostdbError
from ghostdb.games.base import Option
from ghostdb.play.seats import STRATEGIES
from ghostdb.web.answers import Answers, dumps, error_body
from ghostdb.web.library import MAX_RULES, PARAMETERS, int_range

HOT_PATH = re.compile(r"^/api/([A-Za-z0-9][A-Za-z0-9._-]{0,99})/(position|move)$")
SMALL_INT = re.compile(r"^[1-9][0-9]{0,2}$")
SEED = re.compile(r"^(0|[1-9][0-9]{0,17})$")
SKILL = re.compile(r"^[01](\.[0-9]{1,6})?$")
BOOLS = {"true": True, "false": False}
MAX_TEXT = 100

# Each parameter: how the lane reads it (the same limits as the routes declare), giving
# None to hand the request to FastAPI.


def _text(limit: int) -> Any:
    return lambda v: v if len(v) <= limit else None


def _int(low: int, high: int) -> Any:
    """An integer in FastAPI's declared range, written plainly."""
    return lambda v: int(v) if SMALL_INT.match(v) and low <= int(v) <= high else None


def _reader(option: Option) -> Any:
    """How the lane reads a rule option: as the route's dependency declares it."""
    if option.type is bool:
        return BOOLS.get
    if option.type is int:
        return _int(*int_range(option))
    return _text(MAX_RULES)


RULE_PARAMS: dict[str, Any] = {
    "rules": _text(MAX_RULES),
    **{name: _reader(option) for name, option in PARAMETERS.items()},
}
"""Every rule parameter of the routes, made from the games' declared options."""
MOVE_PARAMS: dict[str, Any] = {
    "strategy": lambda v: v if v in STRATEGIES else None,
    "skill": lambda v: float(v) if SKILL.match(v) and float(v) <= 1 else None,
    "seed": lambda v: int(v) if SEED.match(v) else None,
}


def read_query(raw: bytes, route: str) -> dict[str, Any] | None:
    """The parameters of a plain request, or None if FastAPI should judge it."""
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)  # as Starlette reads
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            return None
        if key in ("position", "fragment"):  # fragment: Ghost's word, an alias
            if len(value) > MAX_TEXT or "position" in found:
                return None
            found["position"] = value
            continue
        read = RULE_PARAMS.get(key) or (MOVE_PARAMS.get(key) if route == "move" else None)
        if read is None:
            return None
        parsed = read(value)
        if parsed is None:
            return None
        found[key] = parsed
    return found


class FastLane:
    """ASGI: answer plain hot requests directly, pass the rest (and lifespan) to ``app``."""

    def __init__(self, app: Any, answers: Answers) -> None:
        self.app = app
        self.answers = answers

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            match = HOT_PATH.match(scope["path"])
            if match is not None:
                params = read_query(scope["query_string"], match[2])
                if params is not None:
                    await self._answer(match[1], match[2], params, send)
                    return
        await self.app(scope, receive, send)

    async def _answer(self, name: str, route: str, params: dict[str, Any], send: Any) -> None:
        fragment = params.pop("position", "")
        move = {k: params.pop(k) for k in ("strategy", "skill", "seed") if k in params}
        options = {k: params.get(k) for k in RULE_PARAMS}
        status = 200
        try:
            if route == "position":
                data = await self.answers.position(name, fragment, options)
            else:
                data = await self.answers.move(
                    name,
                    fragment,
                    options,
                    move.get("strategy", "optimal"),
                    move.get("skill", 1.0),
                    move.get("seed"),
                )
        except (GhostdbError, *self.answers.database_errors) as exc:
            status, data = error_body(exc)
        body = dumps(data)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-length", str(len(body)).encode()),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
