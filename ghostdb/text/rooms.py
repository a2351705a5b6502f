"""A room's events as lines for a terminal (`ghostdb join`), from the protocol's JSON.

Pure: it reads the messages a room's socket sends (see the manual's protocol page) and
the names of the seats; it knows nothing of sockets or of the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ghostdb.games.base import Game

Message = dict[str, Any]


def seat_names(seats: Sequence[Message], me: int | None = None) -> list[str]:
    """How each seat is named: the person's name (``you`` for ``me``), or the computer."""
    names = []
    for s in seats:
        if s["seat"] == me:
            names.append("you")
        elif s.get("name"):
            names.append(str(s["name"]))
        elif s["player"] != "human":
            names.append(f"computer ({s['player']})")
        else:
            names.append(f"seat {s['seat']} (free)")
    return names


def standing(seats: Sequence[Message], names: Sequence[str], letters: str, lives: int) -> str:
    """Every seat's letters, e.g. ``you: GH · Bob: – · computer (optimal): GHOST (out)``."""
    parts = []
    for s, name in zip(seats, names, strict=True):
        spelled = letters[: s["letters"]] or "–"
        parts.append(f"{name}: {spelled}" + (" (out)" if s["letters"] >= lives else ""))
    return " · ".join(parts)


def board(
    game: Game | None,
    position: str,
    names: Sequence[str],
    order: Sequence[int],
    turn: int | None,
) -> list[str]:
    """A board game's ``position`` drawn as the console draws it (`Game.picture`), its
    players named in the round's turn ``order`` (the starter moved first), ``turn`` the
    seat to move; nothing for a word game (its event's line says the fragment), or for a
    position the game cannot draw."""
    if (
        game is None
        or game.word_game
        or len(order) < 2
        or not all(0 <= s < len(names) for s in order)
    ):
        return []
    to_move = list(order).index(turn) if turn in order else 0
    try:
        return game.picture(position, [names[s] for s in order], to_move)
    except (ValueError, KeyError, IndexError, TypeError):
        return []


def describe(message: Message, names: Sequence[str], *, drawn: bool = False) -> list[str]:
    """The lines a message of the room's socket prints (none for those that say nothing
    a player needs: acknowledgements, presence); ``drawn``: a move's position is drawn
    after it (`board`), so its line does not spell it out too."""
    kind = message.get("type")

    def who(key: str = "seat") -> str:
        seat = message.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if kind == "joined":
        return [f"{message['name']} joined (seat {message['seat']})"]
    if kind == "started":
        return ["every seat is taken: the match begins"]
    if kind == "round":
        return [f"round {message['round']}: {who('starter')} to start"]
    if kind == "moved":
        auto = " (the computer, for an absent player)" if message.get("auto") else ""
        said = "" if drawn else f": {message['text']}"
        return [f"{who()} played {message['move']}{auto}{said}"]
    if kind == "challenged":
        return [f"{who()} challenged {who('target')}: a word, or a concession"]
    if kind == "answered":
        return [f"{who()} named {message['word']!r}"]
    if kind == "conceded":
        return [f"{who()} conceded"]
    if kind == "timed_out":
        return [f"{who()} ran out of time"]
    if kind == "round_over":
        return [message["text"], *verdict_lines(message.get("verdicts") or [], names)]
    if kind == "match_over":
        return [message["text"]]
    if kind == "rematch":
        return [f"a rematch is open: room {message['room']}"]
    if kind == "error":
        return [f"refused ({message.get('code')}): {message.get('message')}"]
    return []


def verdict_lines(verdicts: Sequence[Message], names: Sequence[str]) -> list[str]:
    """The round's verdicts, a line each that says something: bluffs, mistakes and
    blunders with the winning moves missed, and how a challenge stood."""
    lines = []
    for v in verdicts:
        if "ending" in v:
            if v.get("ending") == "challenge":
                right = "right" if v.get("right") else "wrong"
                example = f" ({v['example']!r} would have answered it)" if v.get("example") else ""
                lines.append(f"  the challenge of {v.get('position')!r} was {right}{example}")
            continue
        seat = v.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        whose = "your" if name == "you" else f"{name}'s"
        if v.get("bluff"):
            lines.append(f"  {whose} {v['move']} was a bluff: no word can become {v['position']!r}")
        elif v.get("verdict") in ("mistake", "blunder"):
            missed = v.get("missed") or []
            hint = f"; {', '.join(missed)} would have won" if missed else ""
            lines.append(f"  {whose} {v['move']} was a {v['verdict']}{hint}")
    return lines
