"""The library calls behind the routes, and where they run.

The Store keeps one raw DB-API connection per thread for lookups, and its caches
tolerate races (a lost race only repeats work), so it serves many requests at once.
Lookups take tens of microseconds on SQLite, less than a hand-off to a thread, so there
they run on the event loop.  So do walks (lines, and plans from a position: at most
`WALK_LIMIT` positions, 1-35 ms): they hold the interpreter lock throughout, and in a
thread they shared it with the loop, giving it up for every read and waiting to take it
back; under 16 clients a 10 ms walk took 160-250 ms there, and made every other answer
wait as long.  Everything else (reads of big kept answers, and every call on a server
database) runs in a small pool of threads of our own, which bounds the connections that
threads hold (pool threads plus the loop's own) well below the engine's pool of 15.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from ghostdb.errors import DatabaseError, DeadFragment, GhostdbError
from ghostdb.games.base import RuleSet
from ghostdb.play.engine import choose, parse_players
from ghostdb.store import Store
from ghostdb.values import Position
from ghostdb.web import library

T = TypeVar("T")

THREADS = 4


KEPT_CACHE = 256
"""How many answers made from kept rows the server holds ready (see `Answers.kept`)."""


class Answers:
    """One store, its thread pool, and the answers the hot routes share with the fast lane."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # Answers made from kept rows, by the ids of the solutions they came from: an id
        # is never reused, so an entry can never be stale, only unused.
        self._kept: OrderedDict[Any, Any] = OrderedDict()
        self._kept_lock = threading.Lock()
        self.executor = ThreadPoolExecutor(THREADS, thread_name_prefix="ghostdb-web")
        self.inline = store.engine.dialect.name == "sqlite"
        # Lookups run on the raw DB-API connection, so its errors arrive unwrapped.
        self.database_errors: tuple[type[Exception], ...] = (
            SQLAlchemyError,
            store.engine.dialect.dbapi.Error,
        )

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)

    async def run(self, fn: Callable[..., T], *args: Any, light: bool = False, **kw: Any) -> T:
        """``fn(*args, **kw)``: inline if ``light`` on SQLite, else in the pool."""
        if light and self.inline:
            return fn(*args, **kw)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args, **kw))

    def kept(self, key: Any, make: Callable[[], T]) -> T:
        """``make()``, remembered under ``key`` (which names the solution ids it reads),
        the `KEPT_CACHE` most recently used kept; a race only makes it twice."""
        with self._kept_lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        found = make()
        with self._kept_lock:
            self._kept[key] = found
            while len(self._kept) > KEPT_CACHE:
                self._kept.popitem(last=False)
        return found

    def rules(self, name: str, options: dict[str, Any]) -> RuleSet:
        return library.rules_for(self.store, name, **options)

    def lookup(self, name: str, fragment: str, rules: RuleSet) -> Position:
        return self.store.solution(name, rules).lookup(fragment)

    async def position(self, name: str, fragment: str, options: dict[str, Any]) -> dict[str, Any]:
        rules = self.rules(name, options)
        pos = await self.run(self.lookup, name, fragment, rules, light=True)
        return pos.as_dict()

    async def move(
        self,
        name: str,
        fragment: str,
        options: dict[str, Any],
        strategy: str,
        skill: float,
        seed: int | None,
    ) -> dict[str, Any]:
        """The computer's reply: with chance ``skill`` the strategy's move, else any legal
        move at random.  The draw is `ghostdb.play.engine.choose`'s own, in the same order on the
        same generator (so a seed gives what ``ghostdb play --seed`` would), made here so
        the reply can say which it was."""
        rules = self.rules(name, options)
        pos = await self.run(self.lookup, name, fragment, rules, light=True)
        players = getattr(rules, "players", 2)
        parse_players([strategy] * players)  # optimal and fastest are for two players
        rng = random.Random(seed)
        by = "strategy" if skill >= 1 or rng.random() < skill else "random"
        if by == "strategy" and (strategy == "trap" or strategy.startswith("common:")):
            # A trap walks lines and a common player is made once: off the event loop.
            solution = self.store.solution(name, rules)
            play = await self.run(solution.choose, pos, strategy, rng)
        else:
            play = choose(strategy if by == "strategy" else "random", pos, rng, players, rules)
        return {
            "name": name,
            "rules": pos.rules,
            "position": pos.fragment,
            "fragment": pos.fragment,
            "strategy": strategy,
            "skill": skill,
            "seed": seed,
            "by": by,
            "play": play.as_dict(),
        }


def dumps(data: Any) -> bytes:
    """The API's JSON encoding: compact UTF-8."""
    return json.dumps(data, ensure_ascii=False, default=str, separators=(",", ":")).encode()


def error_body(exc: Exception) -> tuple[int, dict[str, str]]:
    """The status and body for a library error (404 for a name or rule set that is not
    stored; 400 for a bad request, a position that does not exist included) or a
    database error (503)."""
    if not isinstance(exc, GhostdbError):
        reason = (str(getattr(exc, "orig", None) or exc).splitlines() or ["unknown"])[0]
        return 503, {"error": f"the database did not answer: {reason}"}
    if isinstance(exc, LookupError) and not isinstance(exc, DeadFragment):
        status = 404
    elif isinstance(exc, DatabaseError):
        status = 503
    else:
        status = 400
    return status, {"error": str(exc)}
