"""Who wins Ghost in each language: Debian's word lists, solved, as one Markdown table.

    python scripts/survey.py [--db PATH] [--dict-dir DIR]

Installs nothing.  It reads the lists that Debian's word-list packages put in
/usr/share/dict -- wamerican-insane, wbritish-huge, wfrench, wngerman, wspanish, witalian,
wportuguese, wdutch, wswedish, wdanish (`LISTS`) -- and skips a missing one with the
`apt-get install` line that adds it.  Each list is ingested twice under its language tag,
with its accents kept and with them folded (``NAME-folded``), German with its capitalised
nouns kept; each is solved for Ghost with words of 3+ and of 4+ letters; then
`ghostdb survey` is printed as a Markdown table on stdout.  Progress goes to stderr.

The database is a temporary file unless ``--db`` names one to keep; with a kept database a
second run only solves what is missing.  Debian's Polish list (wpolish, 4.3 million
words) is left out: it alone would take longer than all the others together.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from ghostdb import Rules, Store, open_store
from ghostdb.errors import GhostdbError
from ghostdb.text import reports

DICT_DIR = Path("/usr/share/dict")
MIN_LENGTHS = (3, 4)


class WordList(NamedTuple):
    """A Debian word-list package: its file, language tag and the name it is stored under."""

    package: str
    file: str
    language: str
    name: str
    capitalised: bool = False
    """Keep capitalised words: German nouns are capitalised, not names."""


LISTS = (
    WordList("wamerican-insane", "american-english-insane", "en-US", "american"),
    WordList("wbritish-huge", "british-english-huge", "en-GB", "british"),
    WordList("wfrench", "french", "fr", "french"),
    WordList("wngerman", "ngerman", "de", "german", capitalised=True),
    WordList("wspanish", "spanish", "es", "spanish"),
    WordList("witalian", "italian", "it", "italian"),
    WordList("wportuguese", "portuguese", "pt", "portuguese"),
    WordList("wdutch", "dutch", "nl", "dutch"),
    WordList("wswedish", "swedish", "sv", "swedish"),
    WordList("wdanish", "danish", "da", "danish"),
)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def add(store: Store, path: Path, entry: WordList, fold: bool) -> str | None:
    """Ingest one form of a list and solve it; the stored name, or None where folding
    changes no word (the list is then stored once)."""
    name = f"{entry.name}-folded" if fold else entry.name
    t0 = time.perf_counter()
    result = store.ingest(
        path,
        name=name,
        keep_capitalised=entry.capitalised,
        fold_accents=fold,
        language=entry.language,
    )
    for warning in result.report.warnings:
        say(f"warning: {warning}")
    if result.dictionary.name != name:
        say(f"{name}: folding accents changes no word of {entry.file}: left out")
        return None
    say(f"{name}: {result.action}, {result.dictionary.word_count:,} words, {_since(t0)}")
    for min_length in MIN_LENGTHS:
        t0 = time.perf_counter()
        solved = store.solve(name, Rules(min_length=min_length))
        done = "already solved" if solved.skipped else f"solved in {_since(t0)}"
        say(f"{name}: ghost/{min_length} {done}")
    return name


def _since(t0: float) -> str:
    return f"{time.perf_counter() - t0:.1f} s"


def run(db: str, dict_dir: Path) -> int:
    with open_store(db) as store:
        found = 0
        for entry in LISTS:
            path = dict_dir / entry.file
            if not path.is_file():
                say(f"skipping {entry.language}: no {path}: `apt-get install {entry.package}`")
                continue
            found += 1
            for fold in (False, True):
                add(store, path, entry, fold)
        if not found:
            say(f"error: none of the word lists is in {dict_dir}: install them first")
            return 1
        print(reports.survey(store.survey(), markdown=True))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="reads the lists of these Debian packages where installed: "
        + ", ".join(f"{e.package} ({e.language})" for e in LISTS),
    )
    parser.add_argument("--db", help="keep the database in this file [default: a temporary one]")
    parser.add_argument(
        "--dict-dir", type=Path, default=DICT_DIR, help=f"where the lists are [{DICT_DIR}]"
    )
    args = parser.parse_args(argv)
    try:
        if args.db:
            return run(args.db, args.dict_dir)
        with tempfile.TemporaryDirectory() as tmp:
            return run(str(Path(tmp) / "survey.db"), args.dict_dir)
    except GhostdbError as exc:
        say(f"error: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
