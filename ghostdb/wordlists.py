"""Read word lists from files and normalise them into a set of game words.

Pure: no database.  The rules applied, in order:

* bytes are decoded as UTF-8; if that fails, as Latin-1 (with a warning);
* words are separated by any white space (so LF, CRLF and several words a line all work);
* every word is put in Unicode NFC, so "é" typed two ways is one letter;
* a list whose cased words are all upper case (Scrabble lists such as TWL06) is folded
  to lower case; in a mixed-case list a word with a capital letter is a proper noun or an
  acronym and is left out, unless ``keep_proper_nouns`` (then it is folded);
* a word with anything but letters (apostrophes, hyphens, digits) is left out; non-ASCII
  letters such as é, ü and ß are letters;
* duplicates merge.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ghostdb.errors import WordListError
from ghostdb.values import IngestReport

EXAMPLES_KEPT = 5

LEFT_OUT_NON_LETTERS = "non-letter characters"
LEFT_OUT_PROPER = "proper nouns and acronyms"
LEFT_OUT_DUPLICATES = "duplicates"

BUILTIN_PREFIX = "builtin:"
BUILTIN_LISTS = {"web2": "Webster's Second International (1934), from the english-words package"}


@dataclass(frozen=True)
class WordList:
    """A normalised word list: sorted unique words and how they were obtained."""

    words: tuple[str, ...]
    source: str
    report: IngestReport

    @property
    def sha256(self) -> str:
        return content_sha256(self.words)

    @property
    def alphabet(self) -> str:
        return "".join(sorted(set("".join(self.words))))


def content_sha256(sorted_words: Iterable[str]) -> str:
    """SHA-256 of the sorted words, each followed by a newline, in UTF-8."""
    digest = hashlib.sha256()
    for word in sorted_words:
        digest.update(word.encode("utf-8") + b"\n")
    return digest.hexdigest()


def read_file(path: str | Path) -> tuple[str, str, list[str]]:
    """Read a word-list file: (text, encoding used, warnings).  Raise WordListError."""
    path = Path(path)
    if path.is_dir():
        raise WordListError(f"{str(path)!r} is a directory: give the path of a word-list file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise WordListError(f"no such file: {str(path)!r}: check the path") from None
    except OSError as exc:
        raise WordListError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    if b"\x00" in data[:65536]:
        raise WordListError(
            f"{str(path)!r} is a binary file, not a word list: give a text file, one word a line"
        )
    warnings: list[str] = []
    try:
        text, encoding = data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "latin-1"
        warnings.append(f"{path.name} is not valid UTF-8: read it as Latin-1")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, encoding, warnings


def normalise(
    raw_words: Iterable[str],
    *,
    source: str,
    keep_proper_nouns: bool = False,
    encoding: str = "utf-8",
    warnings: Iterable[str] = (),
) -> WordList:
    """Normalise raw words (see the module docstring).  Raise WordListError if none is left."""
    words = [unicodedata.normalize("NFC", w) if not w.isascii() else w for w in raw_words]
    left_out: dict[str, list[str]] = {}

    def leave_out(kind: str, word: str) -> None:
        left_out.setdefault(kind, []).append(word)

    cased = [w for w in words if w.lower() != w.upper()]
    all_upper = bool(cased) and all(w.isupper() for w in cased)
    accepted: set[str] = set()
    for word in words:
        if not word.isalpha():
            leave_out(LEFT_OUT_NON_LETTERS, word)
            continue
        if not word.islower() and word.lower() != word.upper():
            if not (all_upper or keep_proper_nouns):
                leave_out(LEFT_OUT_PROPER, word)
                continue
            word = word.lower()
        if word in accepted:
            leave_out(LEFT_OUT_DUPLICATES, word)
            continue
        accepted.add(word)
    if not words:
        raise WordListError(f"{source} holds no words: give a list with one word a line")
    if not accepted:
        kinds = ", ".join(f"{len(v)} {k}" for k, v in left_out.items())
        hint = (
            " (add --keep-proper-nouns to keep capitalised words)"
            if LEFT_OUT_PROPER in left_out
            else ""
        )
        raise WordListError(f"{source} has no usable word: all were left out ({kinds}){hint}")
    report = IngestReport(
        accepted=len(accepted),
        left_out={k: len(v) for k, v in left_out.items()},
        examples={k: v[:EXAMPLES_KEPT] for k, v in left_out.items()},
        encoding=encoding,
        warnings=tuple(warnings),
    )
    return WordList(words=tuple(sorted(accepted)), source=source, report=report)


def load(path: str | Path, *, keep_proper_nouns: bool = False) -> WordList:
    """Read and normalise a word-list file, or a built-in list named ``builtin:NAME``."""
    text = str(path)
    if text.startswith(BUILTIN_PREFIX):
        return load_builtin(text[len(BUILTIN_PREFIX) :], keep_proper_nouns=keep_proper_nouns)
    content, encoding, warnings = read_file(path)
    return normalise(
        content.split(),
        source=Path(path).name,
        keep_proper_nouns=keep_proper_nouns,
        encoding=encoding,
        warnings=warnings,
    )


def load_builtin(name: str, *, keep_proper_nouns: bool = False) -> WordList:
    """A list that ghostdb's own install provides (see BUILTIN_LISTS)."""
    if name not in BUILTIN_LISTS:
        known = ", ".join(BUILTIN_PREFIX + k for k in BUILTIN_LISTS)
        raise WordListError(f"no built-in word list {name!r}: the built-in lists are {known}")
    from english_words import get_english_words_set

    raw = get_english_words_set([name], alpha=False, lower=False)
    return normalise(sorted(raw), source=BUILTIN_PREFIX + name, keep_proper_nouns=keep_proper_nouns)


def default_name(path: str | Path) -> str:
    """The dictionary name a file gets unless one is given: its stem (``enable1``)."""
    text = str(path)
    if text.startswith(BUILTIN_PREFIX):
        return text[len(BUILTIN_PREFIX) :]
    return Path(text).stem
