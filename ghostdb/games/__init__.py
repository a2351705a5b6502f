"""The games ghostdb stores, and their rule sets.

Ghost (with its variants) is played over a dictionary, so a Ghost solution belongs to a
stored word list; the other games stand alone and are named by their game name.  Game
names and dictionary names share one namespace.  Adding a game: one module defining its
rules type and `Game` subclass, registered in `STANDALONE` and `RULE_TYPES` below.

The modules of the stand-alone games are imported when one of them is first used: a
Ghost lookup needs neither.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from ghostdb.errors import BadMove
from ghostdb.games.base import Game, PositionGraph
from ghostdb.games.ghost import GhostGame
from ghostdb.rules import Rules, Variant, standard_rule_sets

if TYPE_CHECKING:
    from ghostdb.games.chopsticks import Chopsticks, ChopsticksRules
    from ghostdb.games.tictactoe import TicTacToe, TicTacToeRules

    RuleSet = Rules | ChopsticksRules | TicTacToeRules


class _Imported(Mapping[str, Any]):
    """Names mapped to ``(module, attribute)``, each imported when first looked up."""

    def __init__(self, places: dict[str, tuple[str, str]]) -> None:
        self._places = places

    def __getitem__(self, name: str) -> Any:
        module, attribute = self._places[name]
        return getattr(importlib.import_module(module), attribute)

    def __contains__(self, name: object) -> bool:  # without importing anything
        return name in self._places

    def __iter__(self) -> Iterator[str]:
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)


_CHOPSTICKS, _TICTACTOE = "ghostdb.games.chopsticks", "ghostdb.games.tictactoe"
STANDALONE: Mapping[str, type[Game]] = _Imported(
    {"chopsticks": (_CHOPSTICKS, "Chopsticks"), "tictactoe": (_TICTACTOE, "TicTacToe")}
)
"""Games played without a dictionary, by name."""

RULE_TYPES: Mapping[str, Any] = _Imported(
    {
        "ghost": ("ghostdb.rules", "Rules"),
        "chopsticks": (_CHOPSTICKS, "ChopsticksRules"),
        "tictactoe": (_TICTACTOE, "TicTacToeRules"),
    }
)
_CLASSES = _Imported(
    {
        "Chopsticks": (_CHOPSTICKS, "Chopsticks"),
        "ChopsticksRules": (_CHOPSTICKS, "ChopsticksRules"),
        "TicTacToe": (_TICTACTOE, "TicTacToe"),
        "TicTacToeRules": (_TICTACTOE, "TicTacToeRules"),
    }
)


def __getattr__(name: str) -> Any:
    """The stand-alone games' classes, and `RuleSet`, imported when first asked for."""
    if name in _CLASSES:
        return _CLASSES[name]
    if name == "RuleSet":
        return Rules | _CLASSES["ChopsticksRules"] | _CLASSES["TicTacToeRules"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
            RULE_TYPES["chopsticks"](5, rollover, transfers)
            for rollover in (False, True)
            for transfers in (True, False)
        ]
    return [RULE_TYPES["tictactoe"]()]


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
