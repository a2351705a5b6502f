"""What the routes need from the library beyond one call: rule sets from request options,
and the catalogue the page starts from."""

from __future__ import annotations

from typing import Any

from ghostdb.errors import BadMove
from ghostdb.games.base import RuleSet
from ghostdb.games.ghost.rules import Variant
from ghostdb.games.registry import check_rules, parse_rules
from ghostdb.store import Store

VARIANTS = {v.value for v in Variant}


def rules_for(
    store: Store,
    name: str,
    rules: str | None = None,
    min_length: int | None = None,
    misere: bool | None = None,
    players: int | None = None,
    fingers: int | None = None,
    rollover: bool | None = None,
    transfers: bool | None = None,
) -> RuleSet:
    """The rule set that request options choose for ``name``; BadMove (one line) for an
    option that does not apply.

    ``rules`` is a Ghost variant (``super``) or a whole stored key (``ghost/4``,
    ``chopsticks/5``, ``tictactoe``), as `/api/solutions` lists them.  As on the command
    line, a flag left at its default (``misere=false``, ``rollover=false``,
    ``transfers=true``) counts as not given, so it is accepted for any game.
    """
    if rules is not None and rules.lower() not in VARIANTS:
        numbers = (("min_length", min_length), ("players", players), ("fingers", fingers))
        given = [k for k, v in numbers if v is not None]
        given += [k for k, v in (("misere", misere), ("rollover", rollover)) if v]
        given += ["transfers"] if transfers is False else []
        if given:
            raise BadMove(
                f"rules={rules} already names a whole rule set: leave out {given[0]}, or "
                "give rules as a variant (ghost, super, superduper)"
            )
        chosen = parse_rules(rules)
        check_rules(name, chosen)
        return chosen
    return store.rules_for(
        name,
        variant=None if rules is None else rules.lower(),
        min_length=min_length,
        misere=misere or None,
        players=players,
        fingers=fingers,
        rollover=rollover or None,
        transfers=False if transfers is False else None,
    )


def catalogue(store: Store) -> list[dict[str, Any]]:
    """`Store.catalogue`, with what the page needs to offer each entry: every rule set's
    description and, for a dictionary, its alphabet (the letters to show)."""
    alphabets = {d.name: d.alphabet for d in store.dictionaries()}
    found = []
    for entry in store.catalogue():
        rule_sets = [
            {"rules": key, "description": parse_rules(key).describe()} for key in entry["rules"]
        ]
        found.append({**entry, "alphabet": alphabets.get(entry["name"]), "rule_sets": rule_sets})
    return found
