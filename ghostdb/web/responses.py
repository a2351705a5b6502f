"""How the API answers: JSON straight from the library's dicts, every error as
``{"error": one line}``, and the error responses the schema documents."""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response

from ghostdb.web.answers import dumps
from ghostdb.web.models import (
    ErrorBody,
)

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
