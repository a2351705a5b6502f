"""What the routes need from the library beyond one call: the API's rule parameters and
rule sets from them, and the catalogue the page starts from.

The rule parameters are made from the games' declared options
(`ghostdb.games.registry.all_options`), so a new game's options reach the routes, their
schema and the fast lane without an edit here.  A choice option (Ghost's variant) is
given as ``rules``, which also takes a whole stored key.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ghostdb.errors import BadMove, NotForThisGame
from ghostdb.games.base import Option, RuleSet
from ghostdb.games.registry import (
    all_options,
    check_rules,
    game_of,
    parse_rules,
    rules_from_options,
)
from ghostdb.store import Store

MAX_RULES = 40
"""The longest ``rules`` text: a stored key or a choice."""
MAX_NUMBER = 100
"""The cap on an int option that declares no bound of its own."""

OPTIONS: dict[str, Option] = all_options()
CHOICES: dict[str, Option] = {
    choice: option for option in OPTIONS.values() if option.choices for choice in option.choices
}
"""Each value ``rules`` may take as a choice (``super``), with the option it sets."""
PARAMETERS: dict[str, Option] = {
    name: option for name, option in OPTIONS.items() if not option.choices
}
"""The rule options that are query parameters of their own, by name."""


def int_range(option: Option) -> tuple[int, int]:
    """The range the API accepts for an int option: its declared bounds, else 0 to
    `MAX_NUMBER` (every input is capped)."""
    low = 0 if option.low is None else option.low
    high = MAX_NUMBER if option.high is None else option.high
    return low, high


def rules_for(store: Store, name: str, rules: str | None = None, **options: Any) -> RuleSet:
    """The rule set that request options choose for ``name``; BadMove (one line) for an
    option that does not apply.

    ``rules`` is a choice (a Ghost variant, ``super``) or a whole stored key (``ghost/4``,
    ``chopsticks/5``, ``tictactoe``), as `/api/solutions` lists them.  ``options`` are
    the `PARAMETERS` (None: not given).  As on the command line, a bool left at its
    default (``misere=false``, ``transfers=true``) counts as not given, so it is accepted
    for any game.
    """
    given = {
        key: value
        for key, value in options.items()
        if value is not None
        and not (PARAMETERS[key].type is bool and value == PARAMETERS[key].default)
    }
    # The messages name the command line's flags, as the API documents its parameters
    # beside them (a script's `Store.rules_for` names Python's keywords instead).
    if rules is None:
        return rules_from_options(name, spelling="flag", **given)
    choice = CHOICES.get(rules.lower())
    if choice is not None:
        return rules_from_options(name, spelling="flag", **given, **{choice.name: rules.lower()})
    if given:
        raise BadMove(
            f"rules={rules} already names a whole rule set: leave out {next(iter(given))}, "
            f"or give rules as one of {', '.join(CHOICES)}"
        )
    chosen = parse_rules(rules)
    check_rules(name, chosen)
    return chosen


@cache
def has_decisive_words(key: str) -> bool:
    """Whether the game declares decisive words for the rule set ``key`` (its own
    `check_decisive`), so the page offers the panel without naming any game or variant."""
    try:
        game_of(parse_rules(key)).check_decisive()
    except NotForThisGame:
        return False
    return True


def catalogue(store: Store) -> list[dict[str, Any]]:
    """`Store.catalogue`, with what the page needs to offer each entry: every rule set's
    description, whether it has decisive words and what a plan's outcome is (a word, a
    sequence), and, for a dictionary, its alphabet (the letters to show)."""
    alphabets = {d.name: d.alphabet for d in store.dictionaries()}
    found = []
    for entry in store.catalogue():
        rule_sets = [
            {
                "rules": key,
                "description": parse_rules(key).describe(),
                "decisive": has_decisive_words(key),
                "plan_unit": plan_unit(key),
            }
            for key in entry["rules"]
        ]
        found.append({**entry, "alphabet": alphabets.get(entry["name"]), "rule_sets": rule_sets})
    return found


def plan_unit(rules_key: str) -> str | None:
    """What one outcome of a plan is under a rule set (None: its game keeps no plans)."""
    game = game_of(parse_rules(rules_key))
    return game.plan_unit if game.keeps_plans else None
