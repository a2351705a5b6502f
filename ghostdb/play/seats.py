"""The computer players a seat may hold, listed once: what `ghostdb.play.engine` plays,
and what the command line's help, the API and their messages name (this module is
light, so that a command's help does not load the engine)."""

STRATEGIES = ("optimal", "fastest", "rational", "random", "trap")
COMMON_SEAT = "common:N"
"""How a ``common:N`` seat is written (`ghostdb.play.vocabulary.SEAT`)."""


def computer_seats() -> str:
    """The computer players, as help texts and messages list them."""
    return ", ".join([*STRATEGIES, COMMON_SEAT])
