"""Response schemas, for the OpenAPI description (and the schema-driven tests) only.

The routes return the library's dicts as they are; these models describe them without
validating every response again.  Extra fields are allowed, so a field the library adds
does not break a client that checks the schema.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Category = Literal["win", "loss", "tie", "draw"]
OutcomeName = Literal["win", "loss", "tie", "draw"]


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorBody(BaseModel):
    error: str = Field(description="One line saying what is wrong and what to do about it.")


class PlayBody(Open):
    move: str = Field(description="The move in the game's notation.")
    fragment: str = Field(description="The position's key after the move.")
    outcome_for_mover: Category = Field(description="What the move gets the player who makes it.")
    outcome_for_next_player: OutcomeName = Field(
        description="The position after the move, for the player to move there."
    )
    outcome: OutcomeName = Field(description="The older name of outcome_for_next_player.")
    category: Category = Field(description="The older name of outcome_for_mover.")
    wins: bool = Field(description="The older name of outcome_for_mover == 'win'.")
    game_length: int | None = Field(description="Moves left after it with best play.")
    final: bool = Field(description="Whether the move ends the game.")


class PositionBody(Open):
    name: str
    game: str
    rules: str = Field(description="The rule set's key, e.g. ghost/3.")
    fragment: str
    to_move: int | None
    outcome: OutcomeName = Field(description="For the player to move.")
    winner: int | None
    game_length: int | None
    best_move: str | None
    winning_moves: int
    drawing_moves: int
    final: bool
    ending: str | None
    reachable: bool
    plays: list[PlayBody] = Field(description="Every legal move, best first.")


class MoveReply(Open):
    name: str
    rules: str
    fragment: str = Field(description="The position the computer moved from.")
    strategy: str
    skill: float
    seed: int | None
    by: Literal["strategy", "random"] = Field(description="Who chose: the strategy or chance.")
    play: PlayBody


class RuleSet(Open):
    rules: str = Field(description="The rule set's key: give it as the rules option.")
    description: str
    decisive: bool = Field(
        description="Whether the game has decisive words under it (/api/{name}/decisive)."
    )
    plan_unit: str | None = Field(
        description="What one outcome of a plan is under these rules (word, sequence); "
        "null where the game keeps no plans."
    )


class Solution(Open):
    name: str
    game: str
    words: int | None = Field(description="A dictionary's word count.")
    alphabet: str | None = Field(description="A dictionary's letters.")
    rules: list[str]
    rule_sets: list[RuleSet]


class Catalogue(BaseModel):
    solutions: list[Solution]


# -- decisive words ---------------------------------------------------------------------------

EditState = Literal["win", "loss", "gone"]


class EditBody(Open):
    word: str
    outcome: EditState = Field(description="At the position after this edit alone.")
    move: str = Field(description="The position one move on that the word lies under.")
    move_before: EditState = Field(
        description="That move's state for the player to move there, before the edit "
        "(loss: a winning move for whoever plays it)."
    )
    move_after: EditState = Field(description="The same, after the edit (the whole set's).")


class FewestEditBody(EditBody):
    edit: Literal["delete", "add"]


class FewestBody(Open):
    count: int | None = Field(description="None when no set of the edits allowed changes it.")
    exact: bool = Field(description="False when count is an upper bound.")
    delete: list[str]
    add: list[str]
    outcome: EditState | None = Field(description="At the position after the whole set.")
    edits: list[FewestEditBody]


class DecisiveBody(Open):
    name: str
    rules: str
    position: str
    to_move: int | None
    outcome: OutcomeName = Field(description="Now, for the player to move.")
    pool: str | None = Field(description="The dictionary additions are drawn from.")
    deletions: list[EditBody] = Field(description="Each word whose deletion alone changes it.")
    additions: list[EditBody] | None = Field(
        description="Each word of the pool whose addition alone changes it (None: no pool)."
    )
    fewest: FewestBody


class WhyBody(Open):
    a: str
    b: str
    rules: str
    outcome_a: OutcomeName = Field(description="At the start of a, for player 0.")
    outcome_b: OutcomeName = Field(description="At the start of b, for player 0.")
    only_a: int = Field(description="Game words only in a.")
    only_b: int = Field(description="Game words only in b.")
    fewest: FewestBody | None = Field(
        description="The fewest differing words that give a b's outcome (None: they agree)."
    )
