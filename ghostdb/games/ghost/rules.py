"""The rule variants: what a fragment is, what moves exist and how moves are written.

Pure: no database.  A `Rules` value names a variant (plain Ghost, SuperGhost or
SuperDuperGhost), the minimum word length and whether the game is misère;
`ghostdb.games.ghost.graph` turns a word list into the variant's position graph.

Move notation (accepted wherever a move is typed, shown everywhere a move is printed):

=========  ==========================================  ==================
notation   meaning                                     variants
=========  ==========================================  ==================
``s``      append s (same as ``s+``)                   all
``s+``     append s                                    all
``+s``     prepend s                                   super, superduper
``~s+``    reverse the fragment, then append s         superduper
``+s~``    reverse the fragment, then prepend s        superduper
=========  ==========================================  ==================

In plain Ghost a move is shown as the bare letter.  Where two moves give the same
fragment (prepending or appending "a" to "aa"), only the first in move order is a play;
move order is: by letter, then append, prepend, reverse-append, reverse-prepend.  The same
order breaks ties between equally good moves, so results are deterministic.
"""

from __future__ import annotations

import enum
import operator
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from ghostdb.errors import BadFragment, BadMove
from ghostdb.games.base import Option, option_flags


class Variant(enum.Enum):
    """A family of rules: which moves are allowed and so which fragments exist."""

    GHOST = "ghost"
    """Append a letter; fragments are prefixes of words."""
    SUPER = "super"
    """Append or prepend a letter; fragments are infixes of words."""
    SUPERDUPER = "superduper"
    """As SUPER, and the fragment may be reversed first; fragments are infixes as written."""
    INSERT = "insert"
    """Insert a letter anywhere (before, after, between two letters); fragments are infixes."""
    ANAGRAM = "anagram"
    """Add a letter and rearrange at will; a position is the multiset of its letters."""


class Form(enum.IntEnum):
    """How a letter is added; the value is the tie-break order among moves of one letter."""

    APPEND = 0
    PREPEND = 1
    REVERSE_APPEND = 2
    REVERSE_PREPEND = 3


FORMS_OF = {
    Variant.GHOST: (Form.APPEND,),
    Variant.SUPER: (Form.APPEND, Form.PREPEND),
    Variant.SUPERDUPER: tuple(Form),
    # Insert and Anagram Ghost have moves of their own (see ghostdb.games.ghost).
    Variant.INSERT: (),
    Variant.ANAGRAM: (),
}
MAX_PLAYERS = 8
MAX_MIN_LENGTH = 64  # no stored word is longer (see ghostdb.wordlists.MAX_WORD_LETTERS)


@dataclass(frozen=True, order=True)
class Move:
    """A letter and how it is added."""

    letter: str
    form: Form = Form.APPEND

    def apply(self, fragment: str) -> str:
        base = fragment[::-1] if self.form >= Form.REVERSE_APPEND else fragment
        if self.form in (Form.APPEND, Form.REVERSE_APPEND):
            return base + self.letter
        return self.letter + base

    def notation(self, variant: Variant) -> str:
        if variant is Variant.GHOST:
            return self.letter
        return {
            Form.APPEND: f"{self.letter}+",
            Form.PREPEND: f"+{self.letter}",
            Form.REVERSE_APPEND: f"~{self.letter}+",
            Form.REVERSE_PREPEND: f"+{self.letter}~",
        }[self.form]


OPTIONS = (
    Option(
        "variant",
        "--rules",
        str,
        Variant.GHOST.value,
        "Ghost variant.",
        choices=tuple(v.value for v in Variant),
        short="-r",
    ),
    Option(
        "min_length",
        "--min-length",
        int,
        3,
        "Ghost: shortest word that ends the game.",
        1,
        MAX_MIN_LENGTH,
        short="-m",
    ),
    Option(
        "misere", "--misere", bool, False, "Ghost: completing a word wins.", opposite="--normal"
    ),
    Option("players", "--players", int, 2, "Ghost: seats, moving in turn.", 2, MAX_PLAYERS),
)
"""Ghost's rule options, as every surface offers them."""

_MOVE_RE = re.compile(r"^(?P<rev1>~)?(?P<pre>\+)?(?P<letter>[^\W\d_])(?P<post>\+)?(?P<rev2>~)?$")


@dataclass(frozen=True)
class Rules:
    """One rule set: the key under which a solution is stored."""

    variant: Variant = Variant.GHOST
    min_length: int = 3
    misere: bool = False
    players: int = 2
    game: ClassVar[str] = "ghost"

    def __post_init__(self) -> None:
        # A variant may be given by its name (``Rules(variant="superduper")``), as every
        # surface prints it; the rule set keeps the Variant.
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", _variant(self.variant))
        for field in ("min_length", "players"):
            value = getattr(self, field)
            try:
                object.__setattr__(self, field, operator.index(value))
            except TypeError:
                raise TypeError(f"{field} is a whole number, not {value!r}") from None
        if not isinstance(self.misere, bool):
            if self.misere not in (0, 1):
                raise TypeError(f"misere is True or False, not {self.misere!r}")
            object.__setattr__(self, "misere", bool(self.misere))
        if self.min_length < 1:
            raise BadMove(f"minimum word length must be at least 1, not {self.min_length}")
        if not 2 <= self.players <= MAX_PLAYERS:
            raise BadMove(f"Ghost is for 2 to {MAX_PLAYERS} players, not {self.players}")

    @classmethod
    def from_options(cls, variant: str, min_length: int, misere: bool, players: int) -> Rules:
        return cls(Variant(variant), min_length, misere, players)

    @property
    def key(self) -> str:
        """Short name used in output, e.g. ``ghost/3``, ``super/4/misere``, ``ghost/3/4p``."""
        key = f"{self.variant.value}/{self.min_length}" + ("/misere" if self.misere else "")
        return key + (f"/{self.players}p" if self.players != 2 else "")

    @classmethod
    def from_key(cls, key: str) -> Rules:
        """The rules of a `key` such as ``ghost/3``, ``super/4/misere`` or ``ghost/3/3p``."""
        parts = key.split("/")
        try:
            variant, min_length = Variant(parts[0]), int(parts[1])
            rest = parts[2:]
            misere = rest[:1] == ["misere"]
            rest = rest[1:] if misere else rest
            players = 2
            if rest:
                if len(rest) != 1 or not rest[0].endswith("p"):
                    raise ValueError(key)
                players = int(rest[0][:-1])
        except (ValueError, IndexError):
            raise BadMove(
                f"{key!r} is not a rule set: write e.g. ghost/3, super/4/misere or ghost/3/3p"
            ) from None
        return cls(variant, min_length, misere, players)

    def describe(self) -> str:
        name = {
            Variant.GHOST: "Ghost",
            Variant.SUPER: "SuperGhost",
            Variant.SUPERDUPER: "SuperDuperGhost",
            Variant.INSERT: "Insert Ghost",
            Variant.ANAGRAM: "Anagram Ghost",
        }[self.variant]
        misere = "misère " if self.misere else ""
        players = f", {self.players} players" if self.players != 2 else ""
        return f"{misere}{name}, words of {self.min_length}+ letters{players}"

    def flags(self) -> str:
        """The command-line flags that select these rules (empty for the default)."""
        return option_flags(self, OPTIONS)

    @property
    def forms(self) -> tuple[Form, ...]:
        return FORMS_OF[self.variant]

    # -- moves ---------------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move in ghostdb notation; raise BadMove with a hint if it is not one."""
        text = unicodedata.normalize("NFC", text.strip()).lower()
        match = _MOVE_RE.match(text)
        if not match:
            raise BadMove(f"{text!r} is not a move: {self.move_hint()}")
        rev = bool(match["rev1"] or match["rev2"])
        pre, post = bool(match["pre"]), bool(match["post"])
        if pre and post:
            raise BadMove(f"{text!r} both prepends and appends: {self.move_hint()}")
        if (match["rev1"] and pre) or (match["rev2"] and post):
            raise BadMove(f"{text!r} is not a move: {self.move_hint()}")
        form = {
            (False, False): Form.APPEND,
            (False, True): Form.PREPEND,
            (True, False): Form.REVERSE_APPEND,
            (True, True): Form.REVERSE_PREPEND,
        }[(rev, pre)]
        if rev and not pre and not post:
            raise BadMove(f"{text!r}: say where the letter goes: {self.move_hint()}")
        if form not in self.forms:
            raise BadMove(f"{text!r} is not allowed in {self.describe()}: {self.move_hint()}")
        return Move(match["letter"], form)

    def move_hint(self) -> str:
        if self.variant is Variant.GHOST:
            return "type one letter"
        if self.variant is Variant.ANAGRAM:
            return "type one letter (the letters may then be rearranged)"
        if self.variant is Variant.INSERT:
            return (
                "type a letter with where it goes: 's+' appends, '+s' prepends, 's@2' puts "
                "it after the first 2 letters"
            )
        if self.variant is Variant.SUPER:
            return "type a letter with + on the side it goes: 's+' appends, '+s' prepends"
        return (
            "type a letter with + on the side it goes ('s+' appends, '+s' prepends); "
            "add ~ to reverse first ('~s+', '+s~')"
        )

    def candidate_moves(self, alphabet: Iterable[str]) -> list[Move]:
        """Every move over an alphabet, in move order."""
        return [Move(letter, form) for letter in sorted(alphabet) for form in self.forms]

    def describe_move(self, before: str, after: str) -> str:
        """The notation of the first move (in move order) that turns ``before`` into ``after``."""
        if self.variant is Variant.GHOST and after[:-1] == before:
            return after[-1]
        for form in self.forms:
            letter = after[-1] if form in (Form.APPEND, Form.REVERSE_APPEND) else after[0]
            move = Move(letter, form)
            if move.apply(before) == after:
                return move.notation(self.variant)
        raise BadMove(f"no single move turns {before!r} into {after!r}")


def _variant(value: object) -> Variant:
    """The Variant of its name (``superduper``, any case); BadMove for a name that is no
    variant's, TypeError for a value that is no name."""
    names = ", ".join(v.value for v in Variant)
    if not isinstance(value, str):
        raise TypeError(f"variant is a Variant or its name ({names}), not {value!r}")
    try:
        return Variant(value.strip().lower())
    except ValueError:
        raise BadMove(f"{value!r} is not a Ghost variant: the variants are {names}") from None


STANDARD_VARIANTS = (Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER)


def standard_rule_sets(misere: bool = False) -> list[Rules]:
    """The six rule sets of ``ghostdb solve --all``: Ghost, SuperGhost and SuperDuperGhost,
    each with words of 3+ and 4+."""
    return [Rules(variant, n, misere) for variant in STANDARD_VARIANTS for n in (3, 4)]


def clean_fragment(text: str) -> str:
    """A typed fragment in normal form (NFC, lower case); raise BadFragment if not letters."""
    if text.isascii() and text.isalpha() and text.islower():
        return text  # already normal: the common case, kept cheap for lookups
    fragment = unicodedata.normalize("NFC", text.strip()).lower()
    if fragment and not fragment.isalpha():
        bad = next(ch for ch in fragment if not ch.isalpha())
        raise BadFragment(
            f"{text!r} has {bad!r}, which is not a letter: a fragment is letters only"
        )
    return fragment
