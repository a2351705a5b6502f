"""The library façade: the one API that the CLI, scripts, tests and servers call.

    >>> from ghostdb import open_store
    >>> with open_store("ghost.db", create=True) as store:
    ...     added = store.ingest("five.txt")  # ghost green tan tree tries
    ...     solved = store.solve("five")
    ...     store.solution("five").lookup("gho").outcome
    <Outcome.WIN: 'win'>

`Store` answers the store-level questions (dictionaries, solving, listings, comparisons,
verification); `Store.solution` hands out a `Solution`, which answers the questions of
one published solution (lookups, lines, plans, games).  Each concern lives in a package
of its own beneath (see `ghostdb.store`): `answers`, `solving`, `verification`, `rooms`,
`exports`, on `sql`.  Nothing here solves except `Store.solve`, which runs a job (see
`ghostdb.store.solving.jobs`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ghostdb.games import registry as g
from ghostdb.games.base import RuleSet

# Imported where used, as the solve jobs, summaries and verification are: a lookup needs
# none of them.
if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from ghostdb import wordlists
    from ghostdb.pack import Pack
    from ghostdb.records import (
        Comparison,
        DictionaryInfo,
        IngestResult,
        ReportRow,
        SolutionInfo,
        SurveyRow,
        WhyDiffer,
    )
    from ghostdb.store.answers.solution import Solution
    from ghostdb.store.rooms.log import RoomLog
    from ghostdb.store.solving.jobs import ProgressFn, SolveResult
    from ghostdb.store.solving.schedule import Done, Task
    from ghostdb.store.verification.solutions import Verdict


def open_store(
    url: str | os.PathLike[str] | None = None, *, create: bool = False, readonly: bool = False
) -> Store:
    """Open the database at ``url``, upgrading its schema if it is older.

    ``url`` is a SQLAlchemy URL or a file path (a string or a `pathlib.Path`); by default
    ``$GHOSTDB_URL`` or ``./ghost.db``.  A database that does not exist yet (a missing
    file, or one with no schema) raises DatabaseError naming it, as the command line
    refuses it: a mistyped path must not leave an empty database behind.
    ``create=True`` creates it (file and schema), as ``ghostdb ingest`` does.
    ``readonly`` opens an existing database at the current schema and never writes.

        >>> from ghostdb import open_store
        >>> with open_store("new.db", create=True) as fresh:  # at the schema's last revision
        ...     fresh.dictionaries()
        []
    """
    from ghostdb.store.sql.db import open_engine

    path = None if url is None else os.fspath(url)
    return Store(open_engine(path, create=create, readonly=readonly), writable=not readonly)


class Store:
    """A ghostdb database.  Use as a context manager, or call `close`.

    The examples run as tests (tests/test_doctests.py), in a folder holding the small word
    lists of ``wordlists/``, with ``store`` a store in which ``five.txt`` (ghost green tan
    tree tries) is ingested and solved under Ghost's rules: the player who starts loses.
    """

    def __init__(self, engine: Engine, *, writable: bool = True) -> None:
        from ghostdb.store.answers.lookups import Lookups

        self.engine = engine
        # Whether answers not kept yet are worked out and kept (see `ghostdb.store.answers.kept`);
        # a read-only store raises NotWorkedOut for them instead.
        self.writable = writable
        self.lookups = Lookups(engine)
        # One handle a solution: a run of questions of one solution finds it once.
        self._solutions: dict[tuple[str, RuleSet | None], Solution] = {}
        # The rooms' log, made on first use (see `room_log`); the lock makes it once when
        # a server's threads ask together.
        self._rooms: RoomLog | None = None
        self._rooms_lock = threading.Lock()

    def close(self) -> None:
        """Close the store's connections (leaving ``with`` does)."""
        self.lookups.close()
        if self._rooms is not None and self._rooms.engine is not self.engine:
            self._rooms.engine.dispose()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def warm(self) -> int:
        """Have the database's pages read into the system's cache in the background (a
        server about to answer requests); the bytes asked for (see `db.warm`)."""
        from ghostdb.store.sql.db import warm

        return warm(self.engine)

    def schema_revision(self) -> str | None:
        """The schema's revision the database is at (None: no schema), as ``ghostdb db
        current`` prints it.

            >>> from ghostdb.store.sql.schema import HEAD_REVISION
            >>> store.schema_revision() == HEAD_REVISION
            True
        """
        from ghostdb.store.sql.db import current_revision

        with self.engine.connect() as conn:
            return current_revision(conn)

    # -- rooms -------------------------------------------------------------------------------

    @property
    def rooms(self) -> RoomLog:
        """The rooms of matches played over the web and their logs of events (see
        `room_log`).

            >>> store.rooms.count(), store.rooms.unfinished()
            (0, [])
        """
        return self.room_log()

    def room_log(self) -> RoomLog:
        """The rooms' log (`ghostdb.store.rooms.log.RoomLog`), made on first call.

        Rooms are the only tables the web server writes, and it opens its store
        read-only: a read-only store's log has an engine of its own on the same database
        that may write (on SQLite with the settings of every writer: WAL, and writers
        queue for the lock).  `close` disposes of it.

            >>> store.room_log() is store.rooms
            True
        """
        with self._rooms_lock:
            if self._rooms is None:
                from ghostdb.store.rooms.log import RoomLog

                engine = self.engine
                if not self.writable:
                    from ghostdb.store.sql.db import make_engine

                    url = self.engine.url.render_as_string(hide_password=False)
                    engine = make_engine(url, create=False)
                self._rooms = RoomLog(engine)
            return self._rooms

    # -- one solution ------------------------------------------------------------------------

    def solution(self, name: str, rules: RuleSet | str | None = None) -> Solution:
        """The published solution of ``name`` (a dictionary or a game) under ``rules``
        (default: the game's default rules), as a handle.  ``rules`` is a rule set or
        its label as every answer prints it (``superduper/3``: a `Position`'s ``rules``),
        or a Ghost variant's name (``superduper``: its other options at their defaults).
        Raises UnknownDictionary, BadMove (rules of another game, or text that names
        none), TypeError (rules that are neither), NotSolved.

            >>> store.solution("five")
            Solution('five', 'ghost/3')
            >>> store.solution("five", "ghost/3") is store.solution("five")
            True
        """
        from ghostdb.store.answers.lookups import checked_rules

        checked = checked_rules(name, rules)
        found = self._solutions.get((name, checked))
        if found is None:
            from ghostdb.store.answers.solution import Solution

            ref = self.lookups.ref(name, checked)  # raises if it is not there
            found = Solution(self.engine, self.lookups, name, checked, ref, writable=self.writable)
            self._solutions[(name, checked)] = found
        return found

    def rules_for(self, name: str, **options: Any) -> RuleSet:
        """The rule set of ``name``'s game from its rule options by keyword (None: not
        given), e.g. ``rules_for("enable1", variant="superduper", min_length=4)``; BadMove
        (one line, naming the keywords) for an option of another game or a value out of
        range.  See `ghostdb.games.registry.rules_from_options`.

            >>> store.rules_for("five", variant="superduper", min_length=4).key
            'superduper/4'
            >>> store.rules_for("chopsticks", rollover=True).key
            'chopsticks/5/rollover'
        """
        return g.rules_from_options(name, spelling="keyword", **options)

    # -- dictionaries ------------------------------------------------------------------------

    def ingest(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        keep_capitalised: bool = False,
        fold_accents: bool = False,
        language: str = "",
        replace: bool = False,
    ) -> IngestResult:
        """Read, normalise and store a word list (a file, or ``builtin:web2``).

        The options are those of `wordlists.normalise` and are stored in the dictionary's
        report.  Raises
        WordListError for an unreadable or empty list and NameConflict when ``name`` holds
        different words (unless ``replace``, which also drops its solutions).  Identical
        content already stored is a no-op.

            >>> added = store.ingest("mixed.txt")
            >>> added.message
            'stored mixed: 4 words from mixed.txt'
            >>> added.report.examples["proper nouns and acronyms"]
            ['Boston', 'NATO']
        """
        from ghostdb import wordlists

        word_list = wordlists.load(
            path,
            keep_capitalised=keep_capitalised,
            fold_accents=fold_accents,
            language=language,
        )
        name = name or wordlists.default_name(path)
        return self.ingest_words(word_list, name=name, replace=replace)

    def ingest_words(
        self, word_list: wordlists.WordList, *, name: str, replace: bool = False
    ) -> IngestResult:
        """Store an already normalised word list under ``name`` (see `ingest`): one made in
        memory by `ghostdb.wordlists.normalise`, say.

            >>> from ghostdb.wordlists import normalise
            >>> typed = normalise(["tea", "team", "Tea"], source="typed")  # Tea: a name
            >>> store.ingest_words(typed, name="tea").message
            'stored tea: 2 words from typed'
        """
        from ghostdb.store.answers import dictionaries

        return dictionaries.ingest_words(self.engine, word_list, name, replace)

    def dictionaries(self) -> list[DictionaryInfo]:
        """Every stored dictionary, by name: its source, words, alphabet and the report of
        its ingest.

            >>> [(d.name, d.word_count, d.alphabet) for d in store.dictionaries()]
            [('five', 5, 'aeghinorst')]
        """
        from ghostdb.store.answers.dictionaries import all_dictionaries

        return all_dictionaries(self.engine)

    def dictionary(self, name: str) -> DictionaryInfo:
        """The stored dictionary ``name``, as `dictionaries` lists it; raise
        UnknownDictionary.

            >>> store.dictionary("five").source
            'five.txt'
        """
        from ghostdb.store.answers.dictionaries import dictionary

        return dictionary(self.engine, name)

    def words(self, name: str, min_length: int = 1) -> list[str]:
        """The words of the stored dictionary ``name`` of at least ``min_length`` letters,
        in order; raise UnknownDictionary.

            >>> store.words("five", min_length=4)
            ['ghost', 'green', 'tree', 'tries']
        """
        from ghostdb.store.answers.dictionaries import words

        return words(self.engine, name, min_length)

    # -- solving -----------------------------------------------------------------------------

    def solve(
        self,
        name: str,
        rules: RuleSet | str | None = None,
        *,
        force: bool = False,
        progress: ProgressFn | None = None,
    ) -> SolveResult:
        """Solve ``name`` (a dictionary, or a game such as ``chopsticks``) under ``rules``
        (default: the game's standard rules; a label such as ``superduper/3`` will do, as
        for `solution`) and publish it; a no-op if solved, unless ``force``.
        ``progress(stage, done, total)`` is called as the job advances.

            >>> store.solve("five", "super").fragment_count
            46
            >>> store.solve("five", "super").skipped  # solved already
            True
        """
        from ghostdb.store.answers.lookups import checked_rules
        from ghostdb.store.solving import jobs  # numpy and the solvers: only solving needs them

        rules = checked_rules(name, rules)
        return jobs.run_solve(self.engine, name, rules, force=force, progress=progress)

    def solve_many(
        self,
        name: str,
        rule_sets: Sequence[RuleSet | str],
        *,
        jobs: int = 1,
        force: bool = False,
    ) -> Iterator[tuple[RuleSet, SolveResult]]:
        """Solve several rule sets of ``name`` (or their labels), in ``jobs`` worker
        processes that write to this same store (SQLite queues their writes; PostgreSQL
        takes them in parallel).  Yields each rule set with its result as it finishes,
        the costliest started first.

            >>> solved = store.solve_many("five", ["ghost/4", "super"])
            >>> [(rules.key, result.fragment_count) for rules, result in solved]
            [('ghost/4', 17), ('super/3', 46)]
        """
        from ghostdb.store.answers.lookups import checked_rules
        from ghostdb.store.solving import jobs as solve_jobs

        rule_sets = [checked_rules(name, rules) for rules in rule_sets]
        if jobs <= 1 or len(rule_sets) <= 1:
            for rules in rule_sets:
                yield rules, self.solve(name, rules, force=force)
            return
        yield from solve_jobs.solve_in_workers(self.engine, name, rule_sets, jobs, force)

    def plan_solves(
        self,
        names: Sequence[str],
        rule_keys: Sequence[str],
        *,
        force: bool = False,
        verify: bool = False,
        jobs: int = 1,
    ) -> tuple[list[Task], int]:
        """The solves of stored dictionaries ``names`` under ``rule_keys`` not published
        yet (all with ``force``), each with its estimated peak memory, biggest first; and
        how many were left out as published (see `ghostdb.store.solving.schedule`).

            >>> tasks, published = store.plan_solves(["five"], ["ghost/3", "ghost/4"])
            >>> [task.rules.key for task in tasks], published
            (['ghost/4'], 1)
        """
        from ghostdb.store.solving import schedule

        return schedule.plan(self.engine, names, rule_keys, force=force, verify=verify, share=jobs)

    def run_solves(
        self,
        tasks: Sequence[Task],
        *,
        jobs: int = 1,
        force: bool = False,
        verify: bool = False,
        progress: Callable[[Task, str, int, int], None] | None = None,
    ) -> Iterator[Done]:
        """Run planned solves (and verify each) in ``jobs`` worker processes, started as
        their estimated memory allows; yield each as it ends, a failure included;
        ``progress(task, stage, done, total)`` hears the stages of those running."""
        from ghostdb.store.solving import schedule

        return schedule.run(self.engine, tasks, jobs, force=force, verify=verify, progress=progress)

    def pack(
        self, name: str, rules: RuleSet | str | None, path: str | os.PathLike[str]
    ) -> tuple[int, int]:
        """Write the published solution of ``name`` under ``rules`` to a pack file at
        ``path`` (see `ghostdb.pack`), whole or not at all; (positions, bytes).

            >>> positions, size = store.pack("five", "ghost/3", "five.ghostpack")
            >>> positions
            19
        """
        from ghostdb.store.exports.packs import pack_solution

        return pack_solution(self.solution(name, rules), Path(path))

    def export_parquet(
        self, name: str, rules: RuleSet | str | None, folder: str | os.PathLike[str]
    ) -> tuple[Path, int]:
        """Write the published solution of ``name`` under ``rules`` as Parquet to
        ``folder/NAME/RULES.parquet`` (see `ghostdb.store.exports.parquet`); (the file,
        rows).  Needs pyarrow (``pip install 'ghostdb[parquet]'``).

            >>> path, rows = store.export_parquet("five", "ghost/3", "parquet")
            >>> path.as_posix(), rows
            ('parquet/five/ghost-3.parquet', 19)
        """
        from ghostdb.store.exports.parquet import export_solution

        return export_solution(self.solution(name, rules), Path(folder))

    def check_pack(self, pack: Pack, name: str | None = None) -> list[str]:
        """Where ``pack`` disagrees with the stored solution of its name and rule set (or
        of ``name``'s under them); empty if it agrees position for position.

            >>> from ghostdb.pack import open_pack
            >>> positions, size = store.pack("five", "ghost/3", "five.ghostpack")
            >>> with open_pack("five.ghostpack") as pack:
            ...     store.check_pack(pack)
            []
        """
        from ghostdb.store.verification.packs import compare_with_store

        return compare_with_store(pack, self.solution(name or pack.name, pack.rules))

    def solutions(self, name: str | None = None) -> list[SolutionInfo]:
        """Every solve job (published, failed, superseded), oldest first: what was solved,
        how it went and how long it took.

            >>> [(job.name, job.rules, job.status) for job in store.solutions()]
            [('five', 'ghost/3', 'complete')]
        """
        from ghostdb.store.solving import jobs

        return jobs.job_list(self.engine, name)

    def verify(
        self,
        name: str | None = None,
        rules: RuleSet | str | None = None,
        *,
        every: bool = False,
    ) -> list[Verdict]:
        """Verify published solutions (see `ghostdb.store.verification`): of the whole store
        when ``name`` is None, else every one of ``name`` (``every``) or the one of
        ``rules`` (default: the default rule set).  Read in one snapshot.

            >>> [(v.name, v.rules, v.positions, v.ok) for v in store.verify()]
            [('five', 'ghost/3', 19, True)]
        """
        from ghostdb.store.verification.solutions import verify_store

        return verify_store(self.engine, name, rules, every)

    # -- listings and comparisons ------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        """Every game ghostdb knows, its rule options and what of it is solved (``ghostdb
        games --json`` prints these).

            >>> ghost = store.games()[0]
            >>> ghost["game"], ghost["names"], ghost["solved"]
            ('ghost', ['five'], ['ghost/3'])
        """
        from ghostdb.store.sql import queries as q

        with self.engine.connect() as conn:
            published = q.all_published(conn)
        return g.describe_games(published)

    def publication_state(self) -> str:
        """A token that changes whenever what is published changes (a solve published,
        a dictionary added or replaced): what a cache of answers is valid for.

            >>> before = store.publication_state()
            >>> solved = store.solve("five", "ghost/4")
            >>> store.publication_state() == before
            False
        """
        from ghostdb.store.sql import queries as q

        with self.engine.connect() as conn:
            return q.publication_state(conn)

    def published(self, name: str) -> list[Solution]:
        """A handle on every published solution of ``name``, in the order they were
        solved; raises UnknownDictionary.

            >>> solved = store.solve("five", "ghost/4")
            >>> store.published("five")
            [Solution('five', 'ghost/3'), Solution('five', 'ghost/4')]
        """
        from ghostdb.store.answers import summaries

        return summaries.published(self.engine, self.solution, name)

    def catalogue(self) -> list[dict[str, Any]]:
        """Every stored dictionary and solved game with its published rule sets (``GET
        /api/solutions`` lists these, each rule set described).

            >>> store.catalogue()
            [{'name': 'five', 'game': 'ghost', 'words': 5, 'rules': ['ghost/3']}]
        """
        from ghostdb.store.answers import summaries

        return summaries.catalogue(self.engine)

    def why(
        self, a: str, b: str, rules: RuleSet | str | None = None, *, compute: bool | None = None
    ) -> WhyDiffer:
        """Why ``a`` and ``b`` (two dictionaries, one rule set of plain Ghost) differ at
        the start: the fewest words only in ``a`` to delete and only in ``b`` to add
        that give ``a`` ``b``'s outcome (see `ghostdb.games.ghost.decisive.plain`); worked out
        on the first request and kept (``compute=False``, by default when the store is
        read-only: NotWorkedOut instead).

            >>> added, solved = store.ingest("mixed.txt"), store.solve("mixed")
            >>> why = store.why("five", "mixed")  # five's first player loses, mixed's wins
            >>> why.fewest.delete, why.fewest.add  # five with banana: the first player wins
            ((), ('banana',))
        """
        from ghostdb.store.answers import decisive
        from ghostdb.store.answers.lookups import checked_rules

        chosen = checked_rules(a, rules)
        compute = self.writable if compute is None else compute
        return decisive.why(self.solution, a, b, chosen, compute)

    def compare(
        self,
        a: str,
        b: str | None = None,
        rules: RuleSet | str | None = None,
        vs_rules: RuleSet | str | None = None,
        *,
        examples: int = 10,
        compute: bool | None = None,
    ) -> Comparison:
        """Two published solutions side by side: ``a`` under ``rules`` and ``b`` (default:
        ``a``) under ``vs_rules`` (default: ``rules``), with their differences.  Both must be
        played as the same game (two dictionaries, or one game under two rule sets).
        Worked out on the first request and kept (``compute``: see `report`).

            >>> solved = store.solve("five", "ghost/4")
            >>> diff = store.compare("five", rules="ghost/3", vs_rules="ghost/4")
            >>> diff.a.winner, diff.b.winner, diff.only_a_examples  # tan: too short for /4
            (1, 0, ('tan',))
        """
        from ghostdb.store.answers import comparing

        return comparing.compare(self.solution, a, b or a, rules, vs_rules, examples, compute)

    def report(self, name: str, *, compute: bool | None = None) -> list[ReportRow]:
        """One row per published rule set of ``name``: who wins, how many positions have
        each outcome (by level too), and (games that keep plans) both players' plans.

        Read from answers kept when each solution was published (`ghostdb.store.answers.kept`);
        one not kept yet is worked out and kept, or with ``compute=False`` (by default
        when the store is read-only) raises NotWorkedOut.

            >>> [(row.rules.key, row.winner, row.outcomes) for row in store.report("five")]
            [('ghost/3', 1, {'loss': 8, 'win': 11})]
        """
        from ghostdb.store.answers import summaries

        return summaries.report(self.engine, self.solution, name, compute)

    def survey(self, *, compute: bool | None = None) -> list[SurveyRow]:
        """Every stored dictionary under each of its solved rule sets that keep plans (two
        players): who wins, with which first moves, and both players' best plans, sorted
        by language, dictionary and rules, to answer "who wins in each language" in one
        call.

        Rule sets for more players have no single winner and are left out (`report` shows
        them).  Read from kept answers (``compute``: see `report`).  Raises NotSolved when
        no dictionary is stored, or none is solved for two players.

            >>> [(r.summary.dictionary, r.summary.rules, r.summary.winner) for r in store.survey()]
            [('five', 'ghost/3', 1)]
        """
        from ghostdb.store.answers import summaries

        return summaries.survey(self.engine, self.solution, compute)
