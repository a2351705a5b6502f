"""Puzzles kept with a solution: positions where the player to move has exactly one
winning move (`ghostdb.solvers.puzzles` finds them over the solve's arrays, and the
solve job keeps them at publish, with its other answers), served one at a time.

A puzzle served is its position looked up now: the one winning move, the other moves,
the game length and, for a word game, the word the winning line ends on.  `verify`
checks every kept puzzle against its lookup: a win, exactly one winning move.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove, NotWorkedOut
from ghostdb.solvers.puzzles import DIFFICULTIES
from ghostdb.store.answers import kept

if TYPE_CHECKING:
    from ghostdb.store.answers.handle import Handle

PUZZLES = "puzzles"
"""The question the puzzles are kept under (`ghostdb.store.answers.kept`)."""
LINE_LIMIT = 100
CACHED = 32
"""Solutions whose kept puzzles a process holds parsed (a server answers from memory)."""
_CACHE: dict[tuple[str, int], dict[str, Any]] = {}


def kept_puzzles(solution: Handle) -> dict[str, Any]:
    """The kept body: ``count`` and ``puzzles`` (key, game length, other moves,
    difficulty); NotWorkedOut naming the command for a solution published before
    puzzles were kept, or of a game of more than two players."""
    key = (str(solution.engine.url), solution.id)
    cached = _CACHE.get(key)
    if cached is not None:  # a solution's id is never reused: its puzzles never change
        return cached
    with solution.engine.connect() as conn:
        body = kept.read(conn, kept.Key(solution.id, PUZZLES))
    if body is None:
        flags = solution.rules.flags()
        players = getattr(solution.rules, "players", 2)
        if players != 2:
            raise BadMove(f"puzzles are for two players, not {players}")
        raise NotWorkedOut(
            f"{solution.name} for {solution.rules.describe()} has no puzzles kept (it was "
            f"solved before they were): run `ghostdb solve {solution.name}{flags} --force`"
        )
    if len(_CACHE) >= CACHED:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = body
    return body


def puzzle(
    solution: Handle, difficulty: str | None = None, seed: int | None = None
) -> dict[str, Any]:
    """One kept puzzle (of ``difficulty``, if given), chosen at random (``seed``: the
    same one again), as the page and ``ghostdb puzzle --json`` give it."""
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise BadMove(f"{difficulty!r} is not a difficulty: use {', '.join(DIFFICULTIES)}")
    body = kept_puzzles(solution)
    chosen = [p for p in body["puzzles"] if difficulty is None or p[3] == difficulty]
    if not chosen:
        which = f" {difficulty}" if difficulty else ""
        raise NotWorkedOut(f"{solution.name} for {solution.rules.describe()} has no{which} puzzles")
    key, length, others, level = random.Random(seed).choice(chosen)
    pos = solution.lookup(key)
    answer = next(p for p in pos.plays if p.move == pos.best_move)
    return {
        "name": solution.name,
        "rules": solution.rules.key,
        "position": pos.fragment,
        "label": solution.game.label(pos.fragment),
        "to_move": pos.to_move,
        "difficulty": level,
        "game_length": length,
        "other_moves": others,
        "moves": [p.move for p in pos.plays],
        "answer": answer.move,
        "word": line_end(solution, answer) if solution.game.word_game else None,
        "kept": body["count"],
    }


def line_end(solution: Handle, play: Any) -> str | None:
    """The word the best line after ``play`` ends on."""
    for _ in range(LINE_LIMIT):
        if play.is_final:
            return play.fragment
        pos = solution.lookup(play.fragment)
        play = next((p for p in pos.plays if p.move == pos.best_move), None)
        if play is None:
            return None
    return None


def counts(solution: Handle) -> dict[str, int]:
    """How many puzzles of each difficulty are kept (all found, up to the cap)."""
    body = kept_puzzles(solution)
    found = dict.fromkeys(DIFFICULTIES, 0)
    for p in body["puzzles"]:
        found[p[3]] += 1
    return found
