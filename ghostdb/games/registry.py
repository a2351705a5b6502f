"""The one list of games, and the questions every caller asks of it.

A stored name is a dictionary (played as the word game, Ghost) or a stand-alone game's
own name: the two share one namespace.  Adding a game is one module under
``ghostdb.games`` and one line in `GAMES`; the command line, the web API, the page and
the store find it here.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from functools import cache
from typing import Any

from ghostdb.errors import BadMove
from ghostdb.games.base import Game, Option, RuleSet, Spelling
from ghostdb.games.chopsticks import Chopsticks
from ghostdb.games.connectfour import ConnectFour
from ghostdb.games.ghost import GhostGame
from ghostdb.games.tictactoe import TicTacToe

GAMES: tuple[type[Game], ...] = (GhostGame, Chopsticks, TicTacToe, ConnectFour)
"""Every game, the word game first (the page opens on it)."""

_BY_NAME = {game.name: game for game in GAMES}
RULE_TYPES = tuple(game.rules_type for game in GAMES)
"""Every game's rule-set type."""
WORD_GAME: type[Game] = next(game for game in GAMES if game.word_game)
"""The game played over a stored dictionary."""
STANDALONE = frozenset(game.name for game in GAMES if not game.word_game)
"""The names of the games played without a dictionary (reserved as dictionary names)."""


def game_named(game: str) -> type[Game]:
    """The game called ``game``; raise BadMove listing the games."""
    found = _BY_NAME.get(game)
    if found is None:
        raise BadMove(f"{game!r} is not a game: the games are {', '.join(_BY_NAME)}")
    return found


def played_as(name: str) -> type[Game]:
    """The game a stored name is played as: a stand-alone game's own, else the word game
    over the dictionary of that name."""
    game = _BY_NAME.get(name)
    return game if game is not None and not game.word_game else WORD_GAME


def all_options() -> dict[str, Option]:
    """Every rule option of every game, by name, in registry order (an option two games
    shared would be declared alike by both)."""
    found: dict[str, Option] = {}
    for game in GAMES:
        for option in game.options:
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
    for game in GAMES:
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
