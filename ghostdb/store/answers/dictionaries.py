"""Dictionaries: ingesting a word list, and reading the stored lists back.

A dictionary's name shares one namespace with the stand-alone games (``chopsticks`` is a
game, never a dictionary).  Identical content is stored once; a name that holds
different words is replaced only when asked, with its solutions.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection, Engine

from ghostdb.errors import NameConflict, UnknownDictionary, WordListError
from ghostdb.games import registry as g
from ghostdb.store.sql import queries as q
from ghostdb.store.sql.db import serialise, writing

if TYPE_CHECKING:
    from ghostdb import wordlists
    from ghostdb.records import DictionaryInfo, IngestResult

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


def check_name(name: str) -> None:
    """Refuse a name a dictionary cannot have: not of `NAME_RE`'s form, or a game's."""
    if not NAME_RE.match(name):
        raise WordListError(
            f"{name!r} is not a usable dictionary name: use letters, digits, '.', '_' or '-' "
            "(give one with --name)"
        )
    if name in g.STANDALONE:
        raise NameConflict(
            f"{name!r} is the name of a game, which shares the namespace of dictionaries: "
            "choose another --name"
        )


def subject(conn: Connection, name: str) -> tuple[str, int | None]:
    """(the game ``name`` is played as, its dictionary's id or None); raise
    UnknownDictionary."""
    game = g.played_as(name)
    return game.name, dictionary_row(conn, name).id if game.word_game else None


def dictionary_row(conn: Connection, name: str) -> Any:
    """The stored dictionary's row; raise UnknownDictionary."""
    row = q.dictionary_by_name(conn, name)
    if row is None:
        raise UnknownDictionary.named(name)
    return row


def ingest_words(
    engine: Engine, word_list: wordlists.WordList, name: str, replace: bool
) -> IngestResult:
    """Store an already normalised word list under ``name`` (see `Store.ingest`)."""
    from ghostdb.records import IngestResult

    check_name(name)
    values = {
        "source": word_list.source,
        "sha256": word_list.sha256,
        "word_count": len(word_list.words),
        "alphabet": word_list.alphabet,
        "ingested_at": q.now(),
        "report": json.dumps(word_list.report.as_dict()),
    }
    with writing(engine) as conn:
        serialise(conn, q.dictionaries)  # two ingests of one name take turns
        existing = q.dictionary_by_name(conn, name)
        if existing is not None and existing.sha256 == word_list.sha256:
            return _same_words(conn, existing, word_list, values, replace)
        if existing is None:
            same = q.dictionary_by_sha(conn, word_list.sha256)
            if same is not None:
                return IngestResult(
                    "unchanged",
                    dictionary_info(same),
                    word_list.report,
                    f"identical content is already stored as {same.name!r}: nothing to do "
                    f"(use that name)",
                )
            dictionary_id = q.insert_dictionary(conn, name=name, **values)
            action = "added"
        elif not replace:
            raise NameConflict(
                f"{name!r} already holds a different word list ({existing.word_count:,} "
                f"words from {existing.source}): choose another --name, or --replace it "
                "(which also drops its solutions)"
            )
        else:
            dictionary_id = existing.id
            q.clear_dictionary(conn, dictionary_id)
            q.update_dictionary(conn, dictionary_id, **values)
            action = "replaced"
        words = word_list.words
        q.bulk_insert(
            conn, q.words, ("dictionary_id", "word"), q.Columns(len(words), [dictionary_id, words])
        )
        q.refresh_statistics(conn, q.words)
        row = dictionary_row(conn, name)
    verb = {"added": "stored", "replaced": "replaced"}[action]
    message = f"{verb} {name}: {len(word_list.words):,} words from {word_list.source}"
    return IngestResult(action, dictionary_info(row), word_list.report, message)


def _same_words(
    conn: Connection,
    existing: Any,
    word_list: wordlists.WordList,
    values: dict[str, Any],
    replace: bool,
) -> IngestResult:
    """The words are stored already under this name: nothing to do, unless the options
    they were ingested with differ and ``replace`` records the new ones."""
    from ghostdb import wordlists
    from ghostdb.records import IngestResult

    name = existing.name
    # Reports from before options were stored count as the defaults.
    stored = json.loads(existing.report).get("options")
    if (stored or wordlists.IngestOptions().as_dict()) == word_list.report.options:
        message = f"{name} is already stored with identical content: nothing to do"
    elif not replace:
        message = (
            f"{name} is already stored with identical content: nothing to do (it "
            "was ingested with other options: add --replace to record these)"
        )
    else:
        # Same words, so its solutions stay valid: only the report changes.
        q.update_dictionary(conn, existing.id, **values)
        return IngestResult(
            "updated",
            dictionary_info(dictionary_row(conn, name)),
            word_list.report,
            f"updated {name}: same words, options recorded anew",
        )
    return IngestResult("unchanged", dictionary_info(existing), word_list.report, message)


def all_dictionaries(engine: Engine) -> list[DictionaryInfo]:
    with engine.connect() as conn:
        return [dictionary_info(r) for r in q.all_dictionaries(conn)]


def dictionary(engine: Engine, name: str) -> DictionaryInfo:
    with engine.connect() as conn:
        return dictionary_info(dictionary_row(conn, name))


def words(engine: Engine, name: str, min_length: int = 1) -> list[str]:
    with engine.connect() as conn:
        return q.dictionary_words(conn, dictionary_row(conn, name).id, min_length)


def dictionary_info(row: Any) -> DictionaryInfo:
    from ghostdb.records import DictionaryInfo

    return DictionaryInfo(
        name=row.name,
        source=row.source,
        sha256=row.sha256,
        word_count=row.word_count,
        alphabet=row.alphabet,
        ingested_at=row.ingested_at,
        report=json.loads(row.report),
    )
