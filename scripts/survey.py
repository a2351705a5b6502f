"""Who wins Ghost in each language: Debian's word lists, solved, as one Markdown table.

    python scripts/survey.py [--db PATH] [--dict-dir DIR]

Installs nothing.  It reads the lists that Debian's word-list packages put in
/usr/share/dict (`LISTS`: one list per language or variant, 26 lists from 25 packages --
wnorwegian ships both Bokmål and Nynorsk) and skips a missing one with the `apt-get
install` line that adds it.  Each list is ingested twice under its language tag, with its
accents kept and with them folded (``NAME-folded``; once where folding changes no word, as
in Manx), the three German ones with their capitalised nouns kept; each is solved for
Ghost with words of 3+ and of 4+ letters; then `ghostdb survey` is printed as a Markdown
table on stdout, with a column of fragments (the positions each solution stores) added
after the game words.  Progress goes to stderr.

Of the English lists only one size each is read (American's largest, British and
Canadian's second largest); wgerman-medical (medical terms to add to a German list) and
miscfiles (Webster's 1934 list, which ``ghostdb ingest builtin:web2`` reads anyway) are
left out.

The database is a temporary file unless ``--db`` names one to keep; with a kept database a
second run only solves what is missing, and records the tags of `LISTS` anew (a list
Debian has changed replaces the stored one, and its solutions).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ghostdb import Rules, Store, open_store
from ghostdb.errors import GhostdbError
from ghostdb.records import SurveyRow
from ghostdb.text import reports
from ghostdb.world import DEBIAN_LISTS, DICT_DIR, WordList

MIN_LENGTHS = (3, 4)
LISTS = DEBIAN_LISTS


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def add(store: Store, path: Path, entry: WordList, fold: bool) -> str | None:
    """Ingest one form of a list and solve it; the stored name, or None where the same
    words are stored under another name (folding changes no word: the list is then stored
    once).  The options are recorded anew (``replace``), and a list that has changed
    replaces the stored one."""
    name = f"{entry.name}-folded" if fold else entry.name
    t0 = time.perf_counter()
    result = store.ingest(
        path,
        name=name,
        keep_capitalised=entry.capitalised,
        fold_accents=fold,
        language=entry.language,
        replace=True,
    )
    for warning in result.report.warnings:
        say(f"warning: {warning}")
    stored = result.dictionary.name
    if stored != name:
        if stored == entry.name:
            say(f"{name}: folding accents changes no word of {entry.file}: left out")
        else:
            say(f"{name}: the same words are stored as {stored}: left out")
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


def with_fragments(rows: Sequence[SurveyRow], table: str) -> str:
    """The survey's Markdown table with a column of each solution's fragments (the
    positions it stores) after the game words, unless the table has one already."""
    lines = table.splitlines()
    cells = [line.removeprefix("| ").removesuffix(" |").split(" | ") for line in lines]
    if "fragments" in cells[0]:
        return table
    if len(cells) != 2 + len(rows):
        raise AssertionError(f"{len(rows)} survey rows but a table of {len(cells)} lines")
    at = cells[0].index("game words") + 1 if "game words" in cells[0] else len(cells[0])
    added = ["fragments", "---:", *(f"{r.summary.fragment_count:,}" for r in rows)]
    for line, cell in zip(cells, added, strict=True):
        line.insert(at, cell)
    return "\n".join("| " + " | ".join(line) + " |" for line in cells)


def run(db: str, dict_dir: Path) -> int:
    t0 = time.perf_counter()
    with open_store(db, create=True) as store:
        found, missing = 0, []
        for entry in LISTS:
            path = dict_dir / entry.file
            if not path.is_file():
                say(f"skipping {entry.language}: no {path}: `apt-get install {entry.package}`")
                if entry.package not in missing:
                    missing.append(entry.package)
                continue
            found += 1
            for fold in (False, True):
                add(store, path, entry, fold)
        if not found:
            say(f"error: none of the word lists is in {dict_dir}: install them first")
            return 1
        rows = store.survey()
        print(with_fragments(rows, reports.survey(rows, markdown=True)))
    if missing:
        say(f"lists missing: `apt-get install {' '.join(missing)}` adds them")
    say(f"done in {_since(t0)}")
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
