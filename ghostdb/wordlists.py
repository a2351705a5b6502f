"""Read word lists from files and normalise them into a set of game words.

Pure: no database.  Reading (`ghostdb.wordfiles`) refuses anything but a regular text
file of at most `MAX_FILE_BYTES`; a NUL byte anywhere makes it binary.  Each line is
decoded as UTF-8, and only a line that is not valid UTF-8 is read as Latin-1 (with a
warning that counts them).
The rules applied to the words, in order:

* words are separated by any white space (so LF, CRLF and several words a line all work);
* every word is put in Unicode NFC, so "é" typed two ways is one letter;
* a word longer than `MAX_WORD_LETTERS` is left out (no real word is; a runaway line is);
* a word with anything but letters (apostrophes, hyphens, digits) is left out; non-ASCII
  letters such as é, ü and ß are letters;
* a list whose cased words are all upper case (Scrabble lists such as TWL06) is folded
  to lower case; in a mixed-case list words with a capital letter are left out unless
  ``keep_capitalised`` (then they are folded).  Whether they look like names and acronyms
  or like ordinary words (German nouns) is judged by `CaseFigures` and reported;
* with ``fold_accents`` letters lose their accents (é→e, å→a); letters that have no
  decomposition (ß, æ, ø, œ, ł) are kept;
* letters are checked once more after folding: lower-casing "İ" gives "i" and a combining
  dot, which is not a letter unless accents are folded too;
* duplicates merge.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress, islice
from operator import eq, not_
from pathlib import Path
from typing import Any, TypeVar

from ghostdb.errors import WordListError
from ghostdb.records import IngestReport
from ghostdb.wordfiles import read_file

T = TypeVar("T")

EXAMPLES_KEPT = 5
MAX_WORD_LETTERS = 64
"""Longer words are left out: the longest real ones (Welsh place names) have 58 letters."""

LEFT_OUT_TOO_LONG = f"words longer than {MAX_WORD_LETTERS} letters"
LEFT_OUT_NON_LETTERS = "words with non-letter characters"
LEFT_OUT_PROPER = "proper nouns and acronyms"
LEFT_OUT_CAPITALISED = "capitalised words"
"""The kind used instead of LEFT_OUT_PROPER when the capitals look like ordinary words."""
LEFT_OUT_DUPLICATES = "duplicates"
PROSE_AT_LEAST = 100
"""Words a file must have before it is judged to be prose (`_Sorter.looks_like_prose`)."""
PROSE_REPEATS = 0.25
"""Repeated words in running English text: half or more; in a word list, next to none."""
PROSE_PUNCTUATED = 0.02
"""Words with punctuation against them (``word,`` ``(word``): a few in a hundred in text."""
PUNCTUATION = ".,;:!?()[]{}\"'`«»“”‘’"
FOLDED_ACCENTS = "accents folded"
"""Key of the examples of words that lost their accents (not a left-out kind)."""

BUILTIN_PREFIX = "builtin:"
BUILTIN_LISTS = {"web2": "Webster's Second International (1934), from the english-words package"}

LANGUAGE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,34}$")


@dataclass(frozen=True)
class IngestOptions:
    """How a list was ingested; stored with the dictionary under ``"options"``."""

    keep_capitalised: bool = False
    fold_accents: bool = False
    language: str = ""
    """A free tag such as ``de`` or ``pt-BR``: recorded and shown, not interpreted."""

    def __post_init__(self) -> None:
        if self.language and not LANGUAGE_RE.match(self.language):
            raise WordListError(
                f"{self.language!r} is not a usable language tag: give a short code of "
                "letters, digits and hyphens such as de or pt-BR"
            )

    def as_dict(self) -> dict[str, Any]:
        return {
            "keep_capitalised": self.keep_capitalised,
            "fold_accents": self.fold_accents,
            "language": self.language,
        }


@dataclass(frozen=True)
class WordList:
    """A normalised word list: sorted unique words and how they were obtained."""

    words: tuple[str, ...]
    source: str
    report: IngestReport

    @property
    def sha256(self) -> str:
        return self._sha256_and_alphabet[0]

    @property
    def alphabet(self) -> str:
        return self._sha256_and_alphabet[1]

    @cached_property
    def _sha256_and_alphabet(self) -> tuple[str, str]:
        return content_sha256_and_letters(self.words)


@dataclass(frozen=True)
class CaseFigures:
    """The figures that tell capitalised nouns from names in a mixed-case list.

    In a language that capitalises its nouns (German) they are a large share of the list
    and as long as its other words, since they inflect and compound like them; names and
    acronyms (English, Dutch, Danish, Polish... lists) are a smaller share and shorter.
    On Debian's lists the title-case share is 33% for German against at most 15% for the
    others, and the length ratio 1.04 against at most 0.90, so both thresholds sit between.
    """

    title_case: int
    """Capitalised words of letters in title case ("Haus", not "NATO" or "McDonald")."""
    title_case_letters: int
    capitalised: int
    """Capitalised words of letters, of any shape."""
    lower_case: int
    lower_case_letters: int

    MIN_SHARE = 0.25
    MIN_LENGTH_RATIO = 0.95
    MIN_TITLE_CASE = 20
    """Fewer title-case words say nothing: "cat Paris NASA dog" is no German list."""

    @property
    def share(self) -> float:
        """Title-case words as a share of the list's cased words of letters."""
        cased = self.capitalised + self.lower_case
        return self.title_case / cased if cased else 0.0

    @property
    def mean_title_length(self) -> float:
        return self.title_case_letters / self.title_case if self.title_case else 0.0

    @property
    def mean_lower_length(self) -> float:
        return self.lower_case_letters / self.lower_case if self.lower_case else 0.0

    @property
    def look_ordinary(self) -> bool:
        """Whether the capitalised words look like ordinary words rather than names."""
        return (
            self.title_case >= self.MIN_TITLE_CASE
            and self.lower_case > 0
            and self.share >= self.MIN_SHARE
            and self.mean_title_length >= self.MIN_LENGTH_RATIO * self.mean_lower_length
        )


def describe_options(options: dict[str, Any] | None) -> str:
    """Stored ingest options as their flags: "" for the defaults, "?" if not recorded
    (dictionaries ingested before options were stored)."""
    if options is None:
        return "?"
    flags = [
        flag
        for key, flag in (
            ("keep_capitalised", "--keep-capitalised"),
            ("fold_accents", "--fold-accents"),
        )
        if options.get(key)
    ]
    if options.get("language"):
        flags.append(f"--language {options['language']}")
    return " ".join(flags)


def content_sha256(sorted_words: Iterable[str]) -> str:
    """SHA-256 of the sorted words, each followed by a newline, in UTF-8."""
    sha = hashlib.sha256()
    for data in _content(sorted_words):
        sha.update(data)
    return sha.hexdigest()


_HASH_CHUNK = 1 << 16
"""Words encoded at a time: a few hundred kB, not one string of the whole list."""
_A_TO_Z = "abcdefghijklmnopqrstuvwxyz"
_A_TO_Z_AND_NEWLINE = (_A_TO_Z + "\n").encode()


def _content(sorted_words: Iterable[str]) -> Iterator[bytes]:
    """What `content_sha256` hashes, in chunks."""
    words = sorted_words if isinstance(sorted_words, list | tuple) else list(sorted_words)
    for start in range(0, len(words), _HASH_CHUNK):
        yield ("\n".join(words[start : start + _HASH_CHUNK]) + "\n").encode("utf-8")


def content_sha256_and_letters(sorted_words: Iterable[str]) -> tuple[str, str]:
    """`content_sha256` of the words, and the letters they use, sorted (the alphabet).

    One pass over the UTF-8 bytes that are hashed: a letter a-z is looked for in them
    (a fast byte search, found early when used), every other character by deleting a-z
    and the newlines and decoding what is left (nothing in an English list, the accented
    letters in others) — not a set of the list's 40 million characters."""
    sha = hashlib.sha256()
    letters: set[str] = set()
    unseen = set(_A_TO_Z)
    for data in _content(sorted_words):
        sha.update(data)
        letters.update(data.translate(None, _A_TO_Z_AND_NEWLINE).decode("utf-8"))
        seen = {c for c in unseen if c.encode() in data}
        letters |= seen
        unseen -= seen
    return sha.hexdigest(), "".join(sorted(letters))


def without_accents(word: str) -> str:
    """The word with its letters reduced to base letters: "élève" → "eleve", "ß" stays."""
    if word.isascii():
        return word
    base = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
    return unicodedata.normalize("NFC", base)


def sample(items: Sequence[T], count: int = EXAMPLES_KEPT) -> list[T]:
    """``count`` items evenly spaced through ``items`` (all of them if fewer): a fair,
    repeatable picture of a kind, where the first few would all start with "A"."""
    n = len(items)
    if n <= count:
        return list(items)
    return [items[(2 * i + 1) * n // (2 * count)] for i in range(count)]


def _letters_or_marks(word: str) -> bool:
    """All letters, or combining marks that folding may turn into letters (see `normalise`)."""
    if word.isalpha():
        return True
    return not word.isascii() and all(
        c.isalpha() or unicodedata.category(c).startswith("M") for c in word
    )


_PLAIN = re.compile(r"[a-z\s]*")
"""Lower-case ASCII letters: words that normalising leaves as they are, even with
``fold_accents``."""


def _short(word: str) -> str:
    return word if len(word) <= 24 else f"{word[:24]}… ({len(word):,} letters)"


class _Sorter:
    """The words of one list sorted into accepted and left out, by kind.

    One pass (`take`) sorts every raw word and keeps the capitalised ones aside with the
    figures that decide them (`figures`); `settle_capitalised` then keeps or leaves them
    out; `word_list` checks that something is left and writes the report.
    """

    def __init__(self, options: IngestOptions) -> None:
        self.options = options
        self.left_out: dict[str, list[str]] = {}
        self.folded: dict[str, str] = {}  # each distinct word that lost its accents, and the result
        self.taken: list[str] = []  # accepted in whole-list passes (`_take_normal_form`): sorted
        self.accepted: set[str] = set()  # accepted one by one (none of them taken)
        self.order: list[str] = []  # those as met: mostly sorted, fast to sort
        self.capitalised: list[str] = []
        self.notes: list[str] = []
        self.total = 0
        self.title_case = self.title_case_letters = 0
        self.lower_case = self.lower_case_letters = 0
        self.not_all_upper = False  # a cased word that is not all upper case: the list is mixed

    def leave_out(self, kind: str, word: str) -> None:
        self.left_out.setdefault(kind, []).append(word)

    def is_accepted(self, word: str) -> bool:
        if word in self.accepted:
            return True
        i = bisect_left(self.taken, word)
        return i < len(self.taken) and self.taken[i] == word

    def accept(self, word: str) -> None:
        if self.options.fold_accents:
            plain = without_accents(word)
            if plain != word:
                self.folded[word] = plain
                word = plain
        if not word.isalpha():
            self.leave_out(LEFT_OUT_NON_LETTERS, word)
        elif self.is_accepted(word):
            self.leave_out(LEFT_OUT_DUPLICATES, word)
        else:
            self.accepted.add(word)
            self.order.append(word)

    def take(self, raw_words: list[str], text: str | None = None) -> None:
        """Sort every raw word: accepted, left out, or capitalised (decided later).

        ``text``: what the words were split from by `str.split`, if known; else they are
        joined for the whole-list checks.  Lower-case ASCII letters (most English lists)
        are as they will be stored even with ``fold_accents``; otherwise a text in NFC
        is NFC word by word (white space neither decomposes in NFC nor composes with a
        neighbour), so no word of the loop can turn into one taken in whole-list passes.
        """
        if text is None:
            text = "\n".join(raw_words)
        if _PLAIN.fullmatch(text) or (
            not self.options.fold_accents and unicodedata.is_normalized("NFC", text)
        ):
            raw_words = self._take_normal_form(raw_words)
        del text
        for raw in raw_words:
            self.total += 1
            word = raw if raw.isascii() else unicodedata.normalize("NFC", raw)
            if len(word) > MAX_WORD_LETTERS:
                self.leave_out(LEFT_OUT_TOO_LONG, _short(word))
                continue
            lower = word.islower()
            has_capital = not lower and word.lower() != word
            self.not_all_upper = self.not_all_upper or lower or (has_capital and not word.isupper())
            if not _letters_or_marks(word):
                self.leave_out(LEFT_OUT_NON_LETTERS, word)
            elif has_capital:
                self.capitalised.append(word)
                if word.istitle():
                    self.title_case += 1
                    self.title_case_letters += len(word)
            else:
                if lower:
                    self.lower_case += 1
                    self.lower_case_letters += len(word)
                self.accept(word)

    def _take_normal_form(self, raw_words: list[str]) -> list[str]:
        """Accept the words already as they will be stored — lower-case letters, in NFC
        (`take` checks the whole list at once), not too long — in a few whole-list passes
        at C speed, exactly as the word loop would; return the others for it, in order.
        Most of a big list of an inflected language (Polish: 4 of its 4.3 million words)
        is such.  Duplicates are found by sorting, which the words need anyway (a set of
        millions of words costs more)."""
        normal = [w.islower() and w.isalpha() for w in raw_words]
        taken = list(compress(raw_words, normal))
        if taken and max(map(len, taken)) > MAX_WORD_LETTERS:
            normal = [
                n and len(w) <= MAX_WORD_LETTERS for n, w in zip(normal, raw_words, strict=True)
            ]
            taken = list(compress(raw_words, normal))
        taken.sort()
        if not taken or any(map(eq, taken, islice(taken, 1, None))):
            return raw_words  # a word twice: the loop reports it where it meets it
        self.total += len(taken)
        self.lower_case += len(taken)
        self.lower_case_letters += sum(map(len, taken))
        self.not_all_upper = True
        self.taken = taken
        if len(taken) == len(raw_words):
            return []
        return list(compress(raw_words, map(not_, normal)))

    def settle_capitalised(self) -> None:
        """Keep the capitalised words in lower case (asked, or an all-capitals list), or
        leave them out as names, or as ordinary words with a note on how to keep them."""
        capitalised = self.capitalised
        if not capitalised:
            return
        figures = CaseFigures(
            self.title_case,
            self.title_case_letters,
            len(capitalised),
            self.lower_case,
            self.lower_case_letters,
        )
        if self.options.keep_capitalised or not self.not_all_upper:
            for word in capitalised:
                lower = word.lower()
                self.accept(lower if lower.isascii() else unicodedata.normalize("NFC", lower))
            if self.not_all_upper:
                plural = "s" if len(capitalised) != 1 else ""
                self.notes.append(
                    f"kept {len(capitalised):,} capitalised word{plural}, in lower case"
                )
        elif figures.look_ordinary:
            self.left_out[LEFT_OUT_CAPITALISED] = capitalised
            self.notes.append(
                f"the {len(capitalised):,} capitalised words left out look like ordinary words, "
                f"as nouns are in German, not like names: they are {figures.share:.0%} of the "
                f"list and as long as its other words ({figures.mean_title_length:.1f} letters "
                f"on average against {figures.mean_lower_length:.1f}); add --keep-capitalised "
                "to keep them"
            )
        else:
            self.left_out[LEFT_OUT_PROPER] = capitalised

    def looks_like_prose(self) -> str | None:
        """Why the words read as running text rather than a word list (a list holds each
        word once, one a line; text repeats its common words and puts punctuation
        against them), or None: ``ingest README.md`` says so rather than storing prose
        as a dictionary without a word."""
        if self.total < PROSE_AT_LEAST:
            return None
        repeats = len(self.left_out.get(LEFT_OUT_DUPLICATES, ())) / self.total
        punctuated = (
            sum(
                1
                for w in self.left_out.get(LEFT_OUT_NON_LETTERS, ())
                if w.strip(PUNCTUATION).isalpha() and w != w.strip(PUNCTUATION)
            )
            / self.total
        )
        if repeats < PROSE_REPEATS or punctuated < PROSE_PUNCTUATED:
            return None
        return (
            f"looks like prose, not a word list: {repeats:.0%} of its words are repeats and "
            f"{punctuated:.0%} have punctuation against them (a word list holds each word "
            "once, one a line): check that it is the file you meant"
        )

    def word_list(self, source: str, encoding: str, warnings: Iterable[str]) -> WordList:
        """The accepted words, sorted, with the report; WordListError if none is left."""
        accepted = len(self.taken) + len(self.accepted)
        if not accepted:
            kinds = ", ".join(f"{len(v):,} {k}" for k, v in self.left_out.items())
            hint = (
                " (add --keep-capitalised to keep capitalised words)"
                if LEFT_OUT_PROPER in self.left_out or LEFT_OUT_CAPITALISED in self.left_out
                else ""
            )
            raise WordListError(f"{source} has no usable word: all were left out ({kinds}){hint}")
        prose = self.looks_like_prose()
        if prose:
            warnings = (*warnings, f"{source} {prose}")
        examples = {k: sample(v) for k, v in self.left_out.items()}
        if self.folded:
            examples[FOLDED_ACCENTS] = [f"{k}→{v}" for k, v in sample(list(self.folded.items()))]
        report = IngestReport(
            accepted=accepted,
            left_out={k: len(v) for k, v in self.left_out.items()},
            examples=examples,
            encoding=encoding,
            warnings=tuple(warnings),
            folded=len(self.folded),
            notes=tuple(self.notes),
            options=self.options.as_dict(),
        )
        # Met in file order: sorted runs, fast to merge (the taken words are one).
        words = sorted(self.taken + self.order) if self.order else self.taken
        return WordList(words=tuple(words), source=source, report=report)


def normalise(
    raw_words: Iterable[str],
    *,
    source: str,
    keep_capitalised: bool = False,
    fold_accents: bool = False,
    language: str = "",
    encoding: str = "utf-8",
    warnings: Iterable[str] = (),
    text: str | None = None,
) -> WordList:
    """Normalise raw words (see the module docstring).  Raise WordListError if none is left.

    ``text``: the text that ``raw_words`` is ``text.split()`` of, if there is one (it is
    checked whole, instead of the words joined)."""
    sorter = _Sorter(IngestOptions(keep_capitalised, fold_accents, language))
    sorter.take(raw_words if isinstance(raw_words, list) else list(raw_words), text)
    if not sorter.total:
        raise WordListError(f"{source} holds no words: give a list with one word a line")
    sorter.settle_capitalised()
    return sorter.word_list(source, encoding, warnings)


def load(
    path: str | Path,
    *,
    keep_capitalised: bool = False,
    fold_accents: bool = False,
    language: str = "",
) -> WordList:
    """Read and normalise a word-list file, or a built-in list named ``builtin:NAME``."""
    options = IngestOptions(keep_capitalised, fold_accents, language)
    text = str(path)
    if text.startswith(BUILTIN_PREFIX):
        return load_builtin(text[len(BUILTIN_PREFIX) :], **options.as_dict())
    content, encoding, warnings = read_file(path)
    return normalise(
        content.split(),
        source=Path(path).name,
        encoding=encoding,
        warnings=warnings,
        text=content,
        **options.as_dict(),
    )


def load_builtin(
    name: str,
    *,
    keep_capitalised: bool = False,
    fold_accents: bool = False,
    language: str = "",
) -> WordList:
    """A list that ghostdb's own install provides (see BUILTIN_LISTS)."""
    if name not in BUILTIN_LISTS:
        known = ", ".join(BUILTIN_PREFIX + k for k in BUILTIN_LISTS)
        raise WordListError(f"no built-in word list {name!r}: the built-in lists are {known}")
    from english_words import get_english_words_set

    raw = get_english_words_set([name], alpha=False, lower=False)
    return normalise(
        sorted(raw),
        source=BUILTIN_PREFIX + name,
        keep_capitalised=keep_capitalised,
        fold_accents=fold_accents,
        language=language,
    )


def default_name(path: str | Path) -> str:
    """The dictionary name a file gets unless one is given: its stem (``enable1``)."""
    text = str(path)
    if text.startswith(BUILTIN_PREFIX):
        return text[len(BUILTIN_PREFIX) :]
    return Path(text).stem
