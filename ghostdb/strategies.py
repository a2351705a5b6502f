"""Plans and principal lines as trees of positions (`Node`), and their endings.

Pure: the store's walks (`ghostdb.store.answers.walks`, `plan_walks`) build the trees from
stored positions.
Each root-to-leaf path is an outcome of its own: in plain Ghost a path is fixed by its last
fragment; in the Super variants one fragment can be reached along several paths (the game
"u → qu → qua…" differs from "q → qu → qua…").

A plan for a strategist fixes one play at each of the strategist's turns and answers every
play of the opponent.  Its outcomes are the paths it can end on; plans are ranked by
lossiness (0: the strategist wins at every outcome, 2: loses at every one, 1: mixed), then
fewest outcomes, then fewest letters over all outcome words, then move order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ghostdb.games.registry import game_of
from ghostdb.values import Outcome


@dataclass
class Node:
    """One position on a plan or a line, with the plays that follow it there."""

    fragment: str
    move: str | None
    """The move that led here from the parent (None at the start)."""
    to_move: int | None
    outcome: Outcome
    """For the player to move here."""
    game_length: int
    children: list[Node] = field(default_factory=list)

    @property
    def is_word(self) -> bool:
        """A final position (in Ghost, a word)."""
        return self.game_length == 0

    def winner(self) -> int | None:
        """The player who wins from here with perfect play (2 players), if one does and
        the position says whose turn it is."""
        if self.to_move is None or self.outcome not in (Outcome.WIN, Outcome.LOSS):
            return None
        return self.to_move if self.outcome is Outcome.WIN else 1 - self.to_move

    def leaves(self, path: tuple[Node, ...] = ()) -> Iterator[tuple[Node, ...]]:
        """Every path from this node to a word, as a tuple of nodes (this one first)."""
        path = (*path, self)
        if not self.children:
            yield path
        for child in self.children:
            yield from child.leaves(path)

    def as_dict(self, strategist: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "fragment": self.fragment,
            "move": self.move,
            "to_move": self.to_move,
            "outcome": self.outcome.value,
            "game_length": self.game_length,
        }
        if self.is_word:
            data["word"] = True
            if strategist is not None:
                data["result"] = "win" if self.winner() == strategist else "loss"
        else:
            data["children"] = [c.as_dict(strategist) for c in self.children]
        return data

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> Node:
        """A tree from `as_dict`'s form."""
        children = [cls.from_dict(c) for c in body.get("children", ())]
        return cls(
            body["fragment"],
            body["move"],
            body["to_move"],
            Outcome(body["outcome"]),
            body["game_length"],
            children,
        )


@dataclass(frozen=True)
class Ending:
    """One outcome of a plan or a line: the path from the start to a word."""

    path: tuple[str, ...]
    """Fragments from the start to the word, both included."""
    moves: tuple[str, ...]
    """The moves along the path, in ghostdb notation."""
    completed_by: int | None
    """The player who completed the word (made the last move), if known."""
    winner: int | None

    @property
    def word(self) -> str:
        return self.path[-1]

    def as_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "path": list(self.path),
            "moves": list(self.moves),
            "completed_by": self.completed_by,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class PlanSize:
    """The stored rank of a player's best plan from the start: lossiness (0 all outcomes
    won, 1 mixed, 2 all lost), how many outcomes and their letters."""

    lossiness: int
    outcomes: int
    letters: int

    def as_dict(self) -> dict[str, int]:
        return {"lossiness": self.lossiness, "outcomes": self.outcomes, "letters": self.letters}


@dataclass(frozen=True)
class Strategy:
    """A player's best plan from a fragment: a tree, and the paths it can end on."""

    dictionary: str
    rules: Any
    player: int
    start: str
    rank: PlanSize
    """As stored by the solve job; the tree's endings agree with it."""
    tree: Node
    endings: tuple[Ending, ...]

    @property
    def wins(self) -> int:
        return sum(e.winner == self.player for e in self.endings)

    @property
    def losses(self) -> int:
        return len(self.endings) - self.wins

    @property
    def winning(self) -> bool:
        """Whether the plan wins at every outcome (the strategist can force a win)."""
        return self.losses == 0

    @property
    def letters(self) -> int:
        return sum(len(e.word) for e in self.endings)

    @property
    def unit(self) -> str:
        """What an outcome is called: a word in Ghost, a sequence in the Super variants."""
        return game_of(self.rules).plan_unit

    def summary(self) -> str:
        """One line, e.g. ``player 1 from the start: a winning plan, 55 words``."""
        count = len(self.endings)
        unit = self.unit + ("s" if count != 1 else "")
        start = f"from {self.start!r}" if self.start else "from the start"
        if self.winning:
            return f"player {self.player} {start}: a winning plan, {count:,} {unit}"
        lost = "all losses" if self.wins == 0 else f"{self.losses:,} of them lost"
        return (
            f"player {self.player} {start}: no winning plan; the best one ends on "
            f"{count:,} {unit}, {lost}"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "dictionary": self.dictionary,
            "rules": self.rules.key,
            "player": self.player,
            "from": self.start,
            "winning": self.winning,
            "lossiness": self.rank.lossiness,
            "outcomes": len(self.endings),
            "wins": self.wins,
            "losses": self.losses,
            "letters": self.letters,
            "endings": [e.as_dict() for e in self.endings],
            "tree": self.tree.as_dict(self.player),
        }

    @classmethod
    def from_dict(cls, body: dict[str, Any], rules: Any) -> Strategy:
        """A plan from `as_dict`'s form (as kept, see `ghostdb.store.answers.kept`): its
        endings are its tree's, and its rank is the one stored (a plan's tree agrees with
        it: its outcomes and their letters)."""
        tree = Node.from_dict(body["tree"])
        rank = PlanSize(body["lossiness"], body["outcomes"], body["letters"])
        return cls(
            body["dictionary"], rules, body["player"], body["from"], rank, tree, endings(tree)
        )


@dataclass(frozen=True)
class Lines:
    """The principal lines from a fragment: the winner ends the game as soon as possible,
    the loser makes it last as long as possible, and every tie is followed."""

    dictionary: str
    rules: Any
    start: str
    tree: Node
    endings: tuple[Ending, ...]
    cycle: bool = False
    """The line returns to a position it passed (a draw): it stops there."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "dictionary": self.dictionary,
            "rules": self.rules.key,
            "from": self.start,
            "to_move": self.tree.to_move,
            "outcome": self.tree.outcome.value,
            "winner": self.tree.winner(),
            "game_length": self.tree.game_length,
            "cycle": self.cycle,
            "endings": [e.as_dict() for e in self.endings],
            "tree": self.tree.as_dict(),
        }


@dataclass(frozen=True)
class OpeningPlans:
    """For one first move: each player's winning plan from there (None if that player
    cannot force a win)."""

    move: str
    fragment: str
    plans: tuple[Strategy | None, Strategy | None]


# -- endings -----------------------------------------------------------------------------


def endings(tree: Node) -> tuple[Ending, ...]:
    """Every path of a tree from its root to a word, in tree order."""
    found = []
    for path in tree.leaves():
        word = path[-1]
        found.append(
            Ending(
                path=tuple(n.fragment for n in path),
                moves=tuple(n.move or "" for n in path[1:]),
                completed_by=None if word.to_move is None else 1 - word.to_move,
                winner=word.winner(),
            )
        )
    return tuple(found)
