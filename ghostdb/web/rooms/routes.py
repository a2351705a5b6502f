"""The rooms' HTTP routes: make a room, join it, look at it, download its record, ask
for a rematch.  The play itself goes over the room's WebSocket
(`ghostdb.web.rooms.socket`); these answer once.

Every answer is JSON; every error ``{"error": one line}`` with a 4xx (503: the
database), never a 500.  A POST whose ``Origin`` is neither the server's own nor one of
``--cors`` is refused (403), as the socket's handshake is.  Rooms are the only thing the
server writes: its store is read-only, and `ghostdb.store.rooms.log.RoomLog` has an engine
of its own for them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, FastAPI, Path, Request
from fastapi.responses import Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from ghostdb.errors import GhostdbError
from ghostdb.play.rooms.referee import MAX_SEATS, Refused
from ghostdb.play.seats import STRATEGIES
from ghostdb.web.answers import dumps
from ghostdb.web.models import ErrorBody, Open
from ghostdb.web.rooms.hub import Hub
from ghostdb.web.rooms.limits import MAX_TOKEN, NAME_LENGTH, clean_name
from ghostdb.web.rooms.room import Room
from ghostdb.web.rooms.socket import origin_allowed

log = logging.getLogger("ghostdb.rooms")
T = TypeVar("T")

DATABASE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError,)
"""What the app answers 503 itself (with the driver's own errors, which lookups raise)."""

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
SEAT_PATTERN = f"^(human|{'|'.join(STRATEGIES)}|common:[1-9][0-9]{{0,6}})$"
ROOM_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
STATUS = {
    "room_full": 409,
    "over": 409,
    "not_over": 409,
    "stale": 409,
    "bad_token": 403,
    "too_many_rooms": 429,
    "unavailable": 503,
}
"""The HTTP status of each refusal (any other: 400)."""


def _error(description: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": description}


ERRORS: dict[int | str, dict[str, Any]] = {
    400: _error("A room that cannot be played: the library's one-line message."),
    403: _error("A foreign Origin, or a token that holds no seat of the room."),
    404: _error("No such room, dictionary or game, or an unsolved rule set."),
    409: _error("Every seat is taken, the match is over (or not over, for a rematch)."),
    422: _error("A field out of range or of the wrong type."),
    429: _error("Too many rooms open from this address, or in all."),
    503: _error("The database did not answer."),
}

# -- bodies ---------------------------------------------------------------------------------

PlayerName = Annotated[
    str,
    Field(min_length=1, max_length=NAME_LENGTH, examples=["Ann"]),
    AfterValidator(clean_name),
]
SeatKind = Annotated[str, Field(pattern=SEAT_PATTERN, max_length=20)]


class NewRoom(BaseModel):
    """A room to make."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        max_length=100,
        pattern=NAME_PATTERN,
        description="A stored dictionary or game (see /api/solutions).",
        examples=["enable1"],
    )
    rules: str | None = Field(
        None,
        max_length=40,
        description="A rule set it was solved under, as /api/solutions lists them "
        "(ghost/3), or a choice (super); absent: the game's default.",
        examples=["ghost/3"],
    )
    seats: list[SeatKind] = Field(
        min_length=2,
        max_length=MAX_SEATS,
        description="Each seat in turn order: human (a person) or a computer: "
        f"{', '.join(STRATEGIES)}, common:N (who knows the N most common words).",
        examples=[["human", "human", "optimal"]],
    )
    lives: Literal[1, 3, 5] = Field(5, description="Letters to lose: 5 spell GHOST, 3 PIG, 1 G.")
    clock: Literal[30, 60, 300] | None = Field(
        60, description="Seconds a turn may take (null: no clock)."
    )
    player: PlayerName | None = Field(
        None,
        description="The creator's display name: they take the first person's seat "
        "(absent: they make the room for others).",
    )


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: PlayerName = Field(description="The display name the room shows.")


class Rematch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(
        min_length=1, max_length=MAX_TOKEN, description="Your seat's token in the old room."
    )


class Created(BaseModel):
    room: str = Field(description="The room's id: its page is /rooms/{room}.")
    seat: int | None = Field(description="The creator's seat (null: none).")
    token: str | None = Field(
        description="The seat's secret: send it in the socket's hello; shown once."
    )
    v: int = Field(description="The room's version.")
    url: str


class Seated(BaseModel):
    room: str
    seat: int
    token: str = Field(description="The seat's secret: send it in the socket's hello.")
    v: int


class RoomView(Open):
    room: str
    v: int
    name: str
    rules: str
    game: str
    status: Literal["waiting", "playing", "over"]
    seats: list[dict[str, Any]]
    round: dict[str, Any] | None
    deadline: float | None
    rounds: list[dict[str, Any]]
    winners: list[int] | None
    rematch: str | None
    online: list[int] = Field(description="The seats with a socket open.")


class Record(Open):
    room: str
    name: str
    rules: str
    game: str
    status: Literal["waiting", "playing", "over"]
    seats: list[dict[str, Any]]
    winners: list[int] | None
    rounds: list[dict[str, Any]] = Field(description="Every round_over event, verdicts included.")
    events: list[dict[str, Any]] = Field(description="The room's whole log, in order.")


RoomId = Annotated[str, Path(max_length=32, pattern=ROOM_PATTERN, description="The room's id.")]


# -- the routes -----------------------------------------------------------------------------


def add_room_routes(app: FastAPI, hub: Hub, cors: Sequence[str] = ()) -> None:
    """The rooms' HTTP routes on ``app`` (``cors``: other origins that may POST)."""
    allowed = tuple(origin.lower() for origin in cors)

    async def same_origin(request: Request) -> None:
        if not origin_allowed(request.headers, allowed):
            raise HTTPException(403, "this page's origin may not play here")

    router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses=ERRORS)
    posting = [Depends(same_origin)]

    @router.post("", status_code=201, response_model=Created, dependencies=posting)
    async def create_room(body: NewRoom, request: Request) -> Response:
        """Make a room over a stored solution, with 2 to 8 seats: people and computers.
        The creator takes the first person's seat; others join with the room's link."""
        address = request.client.host if request.client else "unknown"
        made = await _answer(
            hub.create(
                body.name, body.rules, body.seats, lives=body.lives, clock=body.clock,
                player=body.player, address=address,
            )
        )  # fmt: skip
        return _json(made, 201)

    @router.post("/{room_id}/join", response_model=Seated, dependencies=posting)
    async def join_room(room_id: RoomId, body: JoinRoom) -> Response:
        """Take the first free seat of a room: its number and token (409 when every seat
        is taken or the match is over: watch it instead)."""
        room = await _room(hub, room_id)
        return _json(await _answer(hub.join(room, body.name)))

    @router.get("/{room_id}", response_model=RoomView)
    async def view_room(room_id: RoomId) -> Response:
        """The room as a spectator sees it: its state (``welcome``'s ``state``) and who
        is online.  Never cached: it changes with every move."""
        room = await _room(hub, room_id)
        found = {**room.state.as_dict(), "online": room.online()}
        hub.forget_if_idle(room)
        return _json(found)

    @router.get("/{room_id}/record", response_model=Record)
    async def room_record(room_id: RoomId) -> Response:
        """The room's whole log of events and its finished rounds (verdicts included), as
        a JSON file to download."""
        room = await _room(hub, room_id)
        events = await _answer(asyncio.to_thread(hub.log.events, room.id))
        state = room.state
        record = {
            "room": room.id,
            "name": state.name,
            "rules": state.rules,
            "game": state.game,
            "status": state.status,
            "seats": state.as_dict()["seats"],
            "winners": None if state.winners is None else list(state.winners),
            "rounds": state.rounds,
            "events": events,
        }
        hub.forget_if_idle(room)
        disposition = f'attachment; filename="ghostdb-room-{room.id}.json"'
        return Response(
            dumps(record),
            media_type="application/json",
            headers={**NO_STORE, "Content-Disposition": disposition},
        )

    @router.post("/{room_id}/rematch", response_model=Seated, dependencies=posting)
    async def rematch(room_id: RoomId, body: Rematch) -> Response:
        """A seat in the finished match's rematch: the first to ask makes the room (the
        same solution, seats, lives and clock); each who asks gets their old seat there
        where it is free.  Asked again, the same answer."""
        room = await _room(hub, room_id)
        seat = await _answer(hub.seat_of(room, body.token))
        if seat is None:
            raise HTTPException(403, "that token holds no seat of this room")
        return _json(await _answer(hub.rematch(room, seat)))

    app.include_router(router)


async def _room(hub: Hub, room_id: str) -> Room:
    """The room; HTTPException 404 when there is none (503: the database)."""
    found = await _answer(hub.room(room_id))
    if found is None:
        raise HTTPException(404, f"no room {room_id!r}: make one with POST /api/rooms")
    return found


async def _answer(call: Awaitable[T]) -> T:
    """``await call``; a refusal becomes an HTTPException of its code's status, and an
    error that is neither the library's nor the database's (which the app answers) a
    503: the server answers no 500."""
    try:
        return await call
    except Refused as exc:
        raise HTTPException(STATUS.get(exc.code, 400), str(exc)) from None
    except (GhostdbError, *DATABASE_ERRORS):
        raise
    except Exception as exc:
        line = (str(exc).splitlines() or [type(exc).__name__])[0][:200]
        log.warning("a room's request failed: %s", line)
        raise HTTPException(503, f"the server could not do that now: {line}") from None


NO_STORE = {"Cache-Control": "no-store"}
"""Every answer of a room: its state changes with every move, and a seat's token is
for its holder alone."""


def _json(data: Any, status: int = 200) -> Response:
    return Response(
        dumps(data), status_code=status, media_type="application/json", headers=NO_STORE
    )


__all__ = ["add_room_routes"]
