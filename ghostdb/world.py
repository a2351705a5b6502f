"""The world of Ghost: every word list Debian ships, one a language or variant, and the
rule sets the world store solves each under (`ghostdb world`).

Pure data: which lists, under which names and language tags, with which rules.  The
lists are read from where Debian's word-list packages put them (``/usr/share/dict``); a
missing one is skipped with the ``apt-get install`` line that adds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

DICT_DIR = Path("/usr/share/dict")

WORLD_RULES = ("ghost/3", "ghost/4", "ghost/3/misere", "super/3", "superduper/3")
"""The rule sets every list of the world store is solved under."""


class WordList(NamedTuple):
    """A Debian word-list package: its file, language tag and the name it is stored under."""

    package: str
    file: str
    language: str
    name: str
    capitalised: bool = False
    """Keep capitalised words: German nouns are capitalised, not names."""


DEBIAN_LISTS = (
    WordList("wbulgarian", "bulgarian", "bg", "bulgarian"),
    WordList("wcatalan", "catalan", "ca", "catalan"),
    WordList("wdanish", "danish", "da", "danish"),
    WordList("wngerman", "ngerman", "de", "german", capitalised=True),
    WordList("wogerman", "ogerman", "de-1901", "german-1901", capitalised=True),
    WordList("wswiss", "swiss", "de-CH", "swiss-german", capitalised=True),
    WordList("wcanadian-huge", "canadian-english-huge", "en-CA", "canadian"),
    WordList("wbritish-huge", "british-english-huge", "en-GB", "british"),
    WordList("wamerican-insane", "american-english-insane", "en-US", "american"),
    WordList("wesperanto", "esperanto", "eo", "esperanto"),
    WordList("wspanish", "spanish", "es", "spanish"),
    WordList("wfaroese", "faroese", "fo", "faroese"),
    WordList("wfrench", "french", "fr", "french"),
    WordList("wirish", "irish", "ga", "irish"),
    WordList("wgaelic", "gaelic", "gd", "scottish-gaelic"),
    WordList("wgalician-minimos", "galician-minimos", "gl", "galician"),
    WordList("wmanx", "manx", "gv", "manx"),
    WordList("witalian", "italian", "it", "italian"),
    WordList("wnorwegian", "bokmaal", "nb", "norwegian-bokmal"),
    WordList("wdutch", "dutch", "nl", "dutch"),
    WordList("wnorwegian", "nynorsk", "nn", "norwegian-nynorsk"),
    WordList("wpolish", "polish", "pl", "polish"),
    WordList("wbrazilian", "brazilian", "pt-BR", "brazilian"),
    WordList("wportuguese", "portuguese", "pt-PT", "portuguese"),
    WordList("wswedish", "swedish", "sv", "swedish"),
    WordList("wukrainian", "ukrainian", "uk", "ukrainian"),
)
"""By language tag: 26 lists from 25 packages (wnorwegian ships both Bokmål and Nynorsk).

Of the English lists only one size each is read (American's largest, British and
Canadian's second largest); wgerman-medical (medical terms to add to a German list) and
miscfiles (Webster's 1934 list, which ``ghostdb ingest builtin:web2`` reads anyway) are
left out."""


def packages() -> list[str]:
    """Every package of `DEBIAN_LISTS`, once, in order."""
    return list(dict.fromkeys(entry.package for entry in DEBIAN_LISTS))
