"""The one list of games, and the questions every caller asks of it.

A stored name is a dictionary (played as the word game, Ghost) or a stand-alone game's
own name: the two share one namespace.  Adding a game is its modules under
``ghostdb.games`` (its rule sets, its moves) and one line in `LISTED`; the command line,
the web API, the page and the store find it here.

`LISTED` holds what every command needs of each game whatever it plays (the rule-set
type and the options: the parser offers every game's), and names the module of the
game's moves, imported when the game is first asked for (`game_named`, `played_as`):
`ghostdb lookup` imports the one game it looks up.  `GAMES` is the games themselves,
each imported when first read.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from enum import Enum
from functools import cache
from typing import Any, NamedTuple, overload

from ghostdb.errors import BadMove
from ghostdb.games import chopsticks_rules, connectfour_rules, tictactoe_rules
from ghostdb.games.base import Game, Option, RuleSet, Spelling
from ghostdb.games.ghost import rules as ghost_rules


class Listed(NamedTuple):
    """A game as the registry knows it without importing its moves (a named tuple: a
    dataclass costs every start half a millisecond)."""

    rules_type: Any
    """The rule-set type, whose ``game`` is the game's name."""
    options: tuple[Option, ...]
    """Its rule options, as the `Game` declares them (`Game.options`)."""
    game: str
    """Where the `Game` subclass is, ``module:class``: imported when first asked for."""
    word_game: bool = False

    @property
    def name(self) -> str:
        return str(self.rules_type.game)


LISTED = (
    Listed(ghost_rules.Rules, ghost_rules.OPTIONS, "ghostdb.games.ghost:GhostGame", True),
    Listed(
        chopsticks_rules.ChopsticksRules,
        chopsticks_rules.OPTIONS,
        "ghostdb.games.chopsticks:Chopsticks",
    ),
    Listed(tictactoe_rules.TicTacToeRules, (), "ghostdb.games.tictactoe:TicTacToe"),
    Listed(
        connectfour_rules.ConnectFourRules,
        connectfour_rules.OPTIONS,
        "ghostdb.games.connectfour:ConnectFour",
    ),
)
"""Every game, the word game first (the page opens on it)."""

_BY_NAME = {entry.name: entry for entry in LISTED}
RULE_TYPES = tuple(entry.rules_type for entry in LISTED)
"""Every game's rule-set type."""
STANDALONE = frozenset(entry.name for entry in LISTED if not entry.word_game)
"""The names of the games played without a dictionary (reserved as dictionary names)."""
_WORD_GAME = next(entry.name for entry in LISTED if entry.word_game)


@cache
def _imported(name: str) -> type[Game]:
    """The game listed as ``name``, its module imported; RuntimeError when the game
    declares other rules than `LISTED` says (a mistake in this file or the game's)."""
    entry = _BY_NAME[name]
    module, _, attribute = entry.game.partition(":")
    __import__(module)  # (`python -X importtime` does not see importlib.import_module)
    game: type[Game] = getattr(sys.modules[module], attribute)
    declared = (game.name, game.rules_type, game.options, game.word_game)
    if declared != (entry.name, entry.rules_type, entry.options, entry.word_game):
        raise RuntimeError(f"{entry.game} declares {declared}, not what LISTED says: {entry}")
    return game


class Games(Sequence[type[Game]]):
    """Every game of `LISTED`, in its order, each imported when first read."""

    def __len__(self) -> int:
        return len(LISTED)

    @overload
    def __getitem__(self, index: int) -> type[Game]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[type[Game], ...]: ...

    def __getitem__(self, index: int | slice) -> type[Game] | tuple[type[Game], ...]:
        if isinstance(index, slice):
            return tuple(_imported(entry.name) for entry in LISTED[index])
        return _imported(LISTED[index].name)


GAMES: Sequence[type[Game]] = Games()
"""Every game, the word game first."""
WORD_GAME: type[Game] = _imported(_WORD_GAME)
"""The game played over a stored dictionary (its module is imported with its rules,
above, so naming it here imports nothing more)."""


def game_named(game: str) -> type[Game]:
    """The game called ``game``; raise BadMove listing the games."""
    if game not in _BY_NAME:
        raise BadMove(f"{game!r} is not a game: the games are {', '.join(_BY_NAME)}")
    return _imported(game)


def played_as(name: str) -> type[Game]:
    """The game a stored name is played as: a stand-alone game's own, else the word game
    over the dictionary of that name."""
    return _imported(name if name in STANDALONE else _WORD_GAME)


def all_options() -> dict[str, Option]:
    """Every rule option of every game, by name, in registry order (an option two games
    shared would be declared alike by both)."""
    found: dict[str, Option] = {}
    for entry in LISTED:
        for option in entry.options:
            found.setdefault(option.name, option)
    return found


def rules_from_options(name: str, *, spelling: Spelling = "flag", **options: Any) -> RuleSet:
    """The rule set of ``name``'s game from options by name (None: not given); messages
    name the options as ``spelling`` says (see `Game.make_rules`)."""
    return played_as(name).make_rules(spelling=spelling, **options)


@cache
def default_rules(name: str) -> RuleSet:
    """The rule set of ``name``'s game with every option at its default."""
    return played_as(name).make_rules()


def parse_rules(key: str) -> RuleSet:
    """The rule set of a stored key such as ``ghost/3``, ``chopsticks/5`` or ``tictactoe``."""
    head = key.split("/", 1)[0]  # most games' keys start with their name: that one first
    for entry in sorted(LISTED, key=lambda entry: entry.name != head):
        game = _imported(entry.name)
        if game.owns_key(key):
            return game.rules_type.from_key(key)
    raise BadMove(
        f"{key!r} is not a rule set: write e.g. ghost/3, super/4/misere, chopsticks/5 or tictactoe"
    )


def game_of(rules: RuleSet, alphabet: str = "") -> Game:
    """The game object for a rule set (the word game needs the dictionary's alphabet)."""
    game = game_named(rules.game)
    if game.word_game:
        return game(rules, alphabet)  # type: ignore[call-arg]
    return game(rules)


def rules_given(name: str, rules: RuleSet | str | None) -> RuleSet:
    """The rule set ``rules`` means for ``name``'s game, as a caller gives it: a rule set;
    its label, as every surface prints it (``superduper/3``, ``ghost/3/misere``); a
    choice of the game's (a Ghost variant, ``superduper``, the other options at their
    defaults, as the API's ``rules=`` takes it); or None, the default rules.  BadMove (one
    line) for text that names no rule set or rules of another game, TypeError for a value
    that is none of these."""
    if rules is None:
        return default_rules(name)
    game = played_as(name)
    if isinstance(rules, Enum):  # a variant itself, Variant.SUPERDUPER
        rules = rules.value
    if isinstance(rules, str):
        text = rules.strip().lower()
        choice = next((o for o in game.options if text in o.choices), None)
        if choice is not None:
            return game.make_rules(spelling="keyword", **{choice.name: text})
        rules = parse_rules(text)
    elif not isinstance(rules, RULE_TYPES):
        example = default_rules(name).key
        raise TypeError(
            f"rules are a rule set, such as {game.rules_type.__name__}(), or its label, "
            f"such as {example!r}, not {rules!r}"
        )
    check_rules(name, rules)
    return rules


def check_rules(name: str, rules: RuleSet) -> None:
    """Refuse rules of another game than the one ``name`` is played as."""
    game = played_as(name)
    if rules.game != game.name:
        if game.word_game:
            raise BadMove(
                f"{name} is a dictionary, played as {game.title}: give {game.title} rules, "
                f"not {rules.key}"
            )
        raise BadMove(f"{name} is played under its own rules, not {rules.key}")


def all_rule_sets(name: str, misere: bool = False) -> list[RuleSet]:
    """The rule sets ``solve --all`` solves for ``name``'s game."""
    return played_as(name).standard_rule_sets(misere)


def standard_sets_help() -> str:
    """What ``solve --all`` solves, game by game: "ghost: ghost/3, ghost/4, ...; ..."."""
    return (
        "; ".join(
            f"{game.name}: {', '.join(r.key for r in game.standard_rule_sets())}" for game in GAMES
        )
        + "."
    )


def describe_games(published: Iterable[Any] = ()) -> list[dict[str, Any]]:
    """Every game with its declaration: name, title, rule options, capabilities, how the
    page draws it and how to play; and, from ``published`` solution rows (``game``,
    ``name``, ``rules``), what of it is solved."""
    rows = list(published)
    return [
        {
            "game": game.name,
            "title": game.title,
            "played_over": "a dictionary" if game.word_game else None,
            "word_game": game.word_game,
            "max_players": game.max_players,
            "rule_options": [o.flag for o in game.options],
            "options": [o.as_dict() for o in game.options],
            "board": game.board,
            "marks": list(game.marks),
            "in_a_row": game.in_a_row,
            "how_to_play": game.how_to_play,
            "explained": {  # each solved rule set's how to play, in words
                key: game_of(parse_rules(key)).explain()
                for key in sorted({r.rules for r in rows if r.game == game.name})
            },
            "solved": sorted({r.rules for r in rows if r.game == game.name}),
            "names": sorted({r.name for r in rows if r.game == game.name}),
        }
        for game in GAMES
    ]
