"""The web layer's only contact with the library: rule sets, the catalogue, positions.

The store is being generalised to several games (new outcomes, a new `Position.as_dict`,
`Store.rules_for` and `Store.catalogue`).  Each function here uses the library's own
version where it exists and otherwise builds the same thing from what the library has,
so switching over changes one line per function and no route or page.
"""

from __future__ import annotations

from typing import Any

from ghostdb.errors import BadMove
from ghostdb.rules import Rules, Variant
from ghostdb.store import Store
from ghostdb.values import Position

# The order of categories when moves are listed best first: what the mover gets.
CATEGORY_RANK = {"win": 0, "tie": 1, "draw": 2, "lose": 3}
CATEGORY_OF = {"loss": "win", "win": "lose", "tie": "tie", "draw": "draw"}
"""A play's category for the mover, from the outcome for the player to move after it."""


def rules_for(
    store: Store,
    name: str,
    rules: str | None = None,
    min_length: int | None = None,
    misere: bool | None = None,
    fingers: int | None = None,
    rollover: bool | None = None,
    transfers: bool | None = None,
) -> Rules:
    """The rule set that request options name for ``name``; BadMove for one that does
    not apply.  ``rules`` is a variant (``ghost``) or a whole key (``ghost/4``)."""
    own = getattr(store, "rules_for", None)
    if own is not None:  # the library's own, once it has one
        return own(
            name,
            rules=rules,
            min_length=min_length,
            misere=misere,
            fingers=fingers,
            rollover=rollover,
            transfers=transfers,
        )
    for option, value in (("fingers", fingers), ("rollover", rollover), ("transfers", transfers)):
        if value is not None:
            raise BadMove(f"{option} is a rule of Chopsticks, not of Ghost: leave it out")
    if rules is not None and "/" in rules:
        if min_length is not None or misere is not None:
            raise BadMove(
                f"{rules!r} already names the minimum length and misère: leave out "
                "min_length and misere, or give rules as a variant (ghost, super, superduper)"
            )
        return Rules.from_key(rules)
    try:
        variant = Variant((rules or "ghost").lower())
    except ValueError:
        raise BadMove(f"{rules!r} is not a rule variant: use ghost, super or superduper") from None
    return Rules(variant, 3 if min_length is None else min_length, bool(misere))


def rule_options(rules: Rules) -> dict[str, Any]:
    """The request options that select ``rules`` (the inverse of `rules_for`)."""
    return {"rules": rules.variant.value, "min_length": rules.min_length, "misere": rules.misere}


def catalogue(store: Store) -> list[dict[str, Any]]:
    """Every stored dictionary (or game) with its published rule sets."""
    own = getattr(store, "catalogue", None)
    if own is not None:
        return own()
    solved: dict[str, list[dict[str, Any]]] = {}
    for job in store.solutions():
        if job.status != "complete":
            continue
        rules = Rules.from_key(job.rules)
        solved.setdefault(job.dictionary, []).append(
            {
                "rules": job.rules,
                "description": rules.describe(),
                "options": rule_options(rules),
                "fragments": job.fragment_count,
                "reachable": job.reachable_count,
            }
        )
    return [
        {
            "name": d.name,
            "game": "ghost",
            "words": d.word_count,
            "alphabet": d.alphabet,
            "rule_sets": sorted(solved.get(d.name, []), key=lambda r: _rules_order(r["rules"])),
        }
        for d in store.dictionaries()
    ]


def _rules_order(key: str) -> tuple[int, int, bool]:
    rules = Rules.from_key(key)
    return (list(Variant).index(rules.variant), rules.min_length, rules.misere)


def position_dict(pos: Position) -> dict[str, Any]:
    """The position as the API and ``lookup --json`` show it (see `upgrade`)."""
    return upgrade(pos.as_dict())


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A position dict in the several-games shape: ``name``, ``game``, ``final``,
    ``ending``, ``drawing_moves`` and plays best first, each with its ``category``.

    A dict already in that shape is returned as it is, so once the library's own
    `Position.as_dict` speaks it this is the identity.
    """
    if "game" in data:
        return data
    fragment = data["fragment"]
    final = data["is_word"]
    plays = [
        {
            "move": p["move"],
            "fragment": p["fragment"],
            "outcome": p["outcome"],
            "category": CATEGORY_OF[p["outcome"]],
            "game_length": p["game_length"],
            "final": p["is_word"],
        }
        for p in data["plays"]
    ]
    return {
        "name": data["dictionary"],
        "game": "ghost",
        "rules": data["rules"],
        "fragment": fragment,
        "to_move": data["to_move"],
        "outcome": data["outcome"],
        "winner": data["winner"],
        "game_length": data["game_length"],
        "best_move": data["best_move"],
        "winning_moves": data["winning_moves"],
        "drawing_moves": 0,
        "final": final,
        "ending": f"{fragment!r} is a word" if final else None,
        "reachable": data["reachable"],
        "plays": best_first(plays, data["best_move"]),
    }


def best_first(plays: list[dict[str, Any]], best_move: str | None) -> list[dict[str, Any]]:
    """Plays ordered as a tablebase lists them: wins soonest first, then ties and draws,
    then losses that last longest; equal plays keep their move order, and the stored best
    move leads (it is the first of its kind in move order by definition)."""

    def key(p: dict[str, Any]) -> tuple[int, int, int]:
        category = p["category"]
        length = p["game_length"] if p["game_length"] is not None else 0
        soon = length if category == "win" else -length
        return (p["move"] != best_move, CATEGORY_RANK[category], soon)

    return sorted(plays, key=key)
