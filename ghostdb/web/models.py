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
    outcome: OutcomeName = Field(description="For the player to move after it.")
    category: Category = Field(description="What the move gets the player who makes it.")
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


class Solution(Open):
    name: str
    game: str
    words: int | None = Field(description="A dictionary's word count.")
    alphabet: str | None = Field(description="A dictionary's letters.")
    rules: list[str]
    rule_sets: list[RuleSet]


class Catalogue(BaseModel):
    solutions: list[Solution]
