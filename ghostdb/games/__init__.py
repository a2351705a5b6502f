"""The games ghostdb stores, and their rule sets.

Ghost (with its variants) is played over a dictionary, so a Ghost solution belongs to a
stored word list; the other games stand alone and are named by their game name.  Game
names and dictionary names share one namespace.  Adding a game: one module defining its
rules type and `Game` subclass, registered in `STANDALONE` below.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ghostdb.errors import BadMove
from ghostdb.games.base import Game, PositionGraph
from ghostdb.games.chopsticks import Chopsticks, ChopsticksRules
from ghostdb.games.ghost import GhostGame
from ghostdb.games.tictactoe import TicTacToe, TicTacToeRules
from ghostdb.rules import Rules, Variant, standard_rule_sets

RuleSet = Rules | ChopsticksRules | TicTacToeRules

STANDALONE: dict[str, type[Game]] = {"chopsticks": Chopsticks, "tictactoe": TicTacToe}
"""Games played without a dictionary, by name."""

RULE_TYPES: dict[str, Any] = {
    "ghost": Rules,
    "chopsticks": ChopsticksRules,
    "tictactoe": TicTacToeRules,
}

# The rule options of each game, as the command line spells them.
OPTIONS = {
    "ghost": ("--rules", "--min-length", "--misere", "--players"),
    "chopsticks": ("--fingers", "--rollover", "--no-transfers"),
    "tictactoe": (),
}
_OPTION_OF = {
    "variant": "--rules",
    "min_length": "--min-length",
    "misere": "--misere",
    "players": "--players",
    "fingers": "--fingers",
    "rollover": "--rollover",
    "transfers": "--no-transfers",
}


def game_of(rules: RuleSet, alphabet: str = "") -> Game:
    """The game object for a rule set (Ghost needs the dictionary's alphabet)."""
    if isinstance(rules, Rules):
        return GhostGame(rules, alphabet)
    return STANDALONE[rules.game](rules)


def parse_rules(key: str) -> RuleSet:
    """The rule set of a stored key such as ``ghost/3``, ``chopsticks/5`` or ``tictactoe``."""
    head = key.split("/", 1)[0]
    if head in STANDALONE:
        return RULE_TYPES[head].from_key(key)
    return Rules.from_key(key)


def rules_from_options(game: str, **options: Any) -> RuleSet:
    """A game's rule set from command-line style options; None means "not given".

    An option of another game is refused with one line naming this game's options.
    """
    given = {k: v for k, v in options.items() if v is not None}
    allowed = {
        "ghost": {"variant", "min_length", "misere", "players"},
        "chopsticks": {"fingers", "rollover", "transfers"},
        "tictactoe": set(),
    }[game]
    stray = [k for k in given if k not in allowed]
    if stray:
        own = ", ".join(OPTIONS[game]) or "none"
        raise BadMove(
            f"{_OPTION_OF.get(stray[0], stray[0])} is not a rule option of {game}: "
            f"its rule options are {own}"
        )
    if game == "ghost":
        variant = given.get("variant", Variant.GHOST)
        return Rules(
            Variant(variant),
            int(given.get("min_length", 3)),
            bool(given.get("misere", False)),
            int(given.get("players", 2)),
        )
    return RULE_TYPES[game](**given)


def game_name(name: str) -> str:
    """The game a stored name is played as: a stand-alone game's own name, else Ghost
    over the dictionary of that name."""
    return name if name in STANDALONE else "ghost"


@cache
def default_rules(name: str) -> RuleSet:
    return rules_from_options(game_name(name))


def check_rules(name: str, rules: RuleSet) -> None:
    """Refuse rules of another game than the one ``name`` is played as."""
    game = game_name(name)
    if rules.game != game:
        if game == "ghost":
            raise BadMove(
                f"{name} is a dictionary, played as Ghost: give Ghost rules, not {rules.key}"
            )
        raise BadMove(f"{name} is played under its own rules, not {rules.key}")


def all_rule_sets(game: str, misere: bool = False) -> list[RuleSet]:
    """The rule sets of ``solve --all``."""
    if game == "ghost":
        return list(standard_rule_sets(misere))
    if game == "chopsticks":
        return [
            ChopsticksRules(5, rollover, transfers)
            for rollover in (False, True)
            for transfers in (True, False)
        ]
    return [TicTacToeRules()]


__all__ = [
    "STANDALONE",
    "Chopsticks",
    "ChopsticksRules",
    "Game",
    "GhostGame",
    "PositionGraph",
    "RuleSet",
    "TicTacToe",
    "TicTacToeRules",
    "all_rule_sets",
    "check_rules",
    "default_rules",
    "game_name",
    "game_of",
    "parse_rules",
    "rules_from_options",
]
