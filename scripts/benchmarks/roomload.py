"""The rooms' load client (run in a child of the benchmark, see `rooms`): many rooms of
three people, each person a socket of their own, speaking the rooms' protocol.

Every socket checks that it receives each event once and in order (the versions step
by one); the seat to move in each room sends a move a second (a random letter: rounds go
on as bluffs until somebody concedes), and every socket of the room notes when that
move comes back, so the round trip is the time from the move sent to each receipt.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

LETTERS = "aeghinorst"
"""The letters of wordlists/five.txt, the rooms' dictionary (any other is refused)."""
LONGEST = 8
"""A round's position is conceded at this length (the letters are mostly bluffs)."""


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


@dataclass
class Room:
    """One room as its sockets see it: whose turn, the position, the round's order."""

    id: str
    tokens: list[str]
    turn: int | None = None
    answering: bool = False
    order: list[int] = field(default_factory=list)
    position: str = ""
    over: bool = False
    sockets: list[Any] = field(default_factory=list)

    def read(self, state: dict[str, Any]) -> None:
        rnd = state.get("round") or {}
        self.turn, self.order = rnd.get("turn"), list(rnd.get("seats") or [])
        self.position, self.answering = rnd.get("position") or "", rnd.get("phase") == "answer"
        self.over = state.get("status") == "over"

    def follow(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "round":
            self.order, self.turn = list(event["seats"]), event["starter"]
            self.position, self.answering = event["position"], False
        elif kind == "moved":
            self.position = event["position"]
            self.turn = self.order[(self.order.index(event["seat"]) + 1) % len(self.order)]
        elif kind == "challenged":
            self.turn, self.answering = event["target"], True
        elif kind == "match_over":
            self.over = True


@dataclass
class Load:
    bases: list[str]
    rooms: int
    seconds: float
    sent: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Each room's move in flight: its seat, and when it was sent."""
    receipts: list[float] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    disordered: int = 0
    moves: int = 0
    refused: int = 0
    made: list[Room] = field(default_factory=list)

    async def run(self) -> dict[str, Any]:
        self.made = await asyncio.to_thread(self.make_rooms)
        tasks = []
        for room in self.made:
            for seat in range(3):
                tasks.append(asyncio.create_task(self.listen(room, seat)))
            await asyncio.sleep(0.002)  # sockets opened a few at a time, as people come
        while sum(len(r.sockets) for r in self.made) < 3 * len(self.made):
            await asyncio.sleep(0.05)
        drivers = [
            asyncio.create_task(self.drive(r, i / len(self.made))) for i, r in enumerate(self.made)
        ]
        await asyncio.sleep(self.seconds + 1.0)
        for task in [*drivers, *tasks]:
            task.cancel()
        await asyncio.gather(*drivers, *tasks, return_exceptions=True)
        times = sorted(self.receipts) or [0.0]
        return {
            "rooms": [r.id for r in self.made],
            "moves": self.moves,
            "receipts": len(self.receipts),
            "p50": times[len(times) // 2],
            "p99": times[max(0, int(len(times) * 0.99) - 1)],
            "lost": self.lost,
            "doubled": self.doubled,
            "disordered": self.disordered,
            "refused": self.refused,
        }

    def make_rooms(self) -> list[Room]:
        made = []
        for _ in range(self.rooms):
            base = self.bases[0]
            new = post(
                f"{base}/api/rooms",
                {"name": "five", "seats": ["human"] * 3, "clock": None, "player": "p0"},
            )
            tokens = [new["token"]]
            for k in (1, 2):
                tokens.append(
                    post(f"{base}/api/rooms/{new['room']}/join", {"name": f"p{k}"})["token"]
                )
            made.append(Room(new["room"], tokens))
        return made

    async def listen(self, room: Room, seat: int) -> None:
        from websockets.asyncio.client import connect

        base = self.bases[seat % len(self.bases)].replace("http", "ws", 1)
        async with connect(f"{base}/api/rooms/{room.id}/socket", max_queue=None) as ws:
            await ws.send(json.dumps({"op": "hello", "token": room.tokens[seat], "since": 0}))
            welcome = json.loads(await ws.recv())
            last = welcome["v"]
            if seat == 0:
                room.read(welcome["state"])
            room.sockets.append((seat, ws))
            async for raw in ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "error":
                    self.refused += 1
                if kind in ("ack", "error", "presence", "welcome"):
                    continue
                v = message["v"]
                if v <= last:
                    self.doubled += 1
                    continue
                if v > last + 1:
                    self.lost += v - last - 1
                last = v
                flight = self.sent.get(room.id)
                if kind == "moved" and flight and flight[0] == message["seat"]:
                    self.receipts.append(time.perf_counter() - flight[1])
                if seat == 0:
                    room.follow(message)

    async def drive(self, room: Room, offset: float) -> None:
        rng = random.Random(room.id)
        await asyncio.sleep(offset)
        count = 0
        while not room.over:
            started = time.perf_counter()
            socket = dict(room.sockets).get(room.turn) if room.turn is not None else None
            if socket is not None:
                count += 1
                ref = f"m{count}"
                if room.answering or len(room.position) >= LONGEST:
                    message = {"op": "concede", "id": ref}
                else:
                    message = {"op": "move", "move": rng.choice(LETTERS), "id": ref}
                    self.sent[room.id] = (room.turn, time.perf_counter())
                    self.moves += 1
                await socket.send(json.dumps(message))
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - started)))


async def answered(base: str, rooms: list[str]) -> int:
    """How many of ``rooms`` answer a spectator's hello with a welcome, retrying each
    until the server is back."""
    from websockets.asyncio.client import connect

    async def one(room: str) -> bool:
        url = f"{base.replace('http', 'ws', 1)}/api/rooms/{room}/socket"
        for _ in range(200):
            try:
                async with connect(url) as ws:
                    await ws.send(json.dumps({"op": "hello", "since": 0}))
                    return json.loads(await ws.recv()).get("type") == "welcome"
            except OSError:
                await asyncio.sleep(0.05)
        return False

    found = 0
    for start in range(0, len(rooms), 40):  # a spectator's socket a room, 40 at a time
        found += sum(await asyncio.gather(*(one(r) for r in rooms[start : start + 40])))
    return found
