"""The library façade: the one API that the CLI, scripts, tests and servers call.

    >>> from ghostdb import open_store
    >>> with open_store("ghost.db") as store:                      # doctest: +SKIP
    ...     store.ingest("enable1.txt")
    ...     store.solve("enable1")
    ...     store.lookup("enable1", "gho").outcome
    <Outcome.WIN: 'win'>

Lookups, plans, comparisons and the computer player read stored rows only; nothing here
solves except `Store.solve`, which runs a job (see `ghostdb.jobs`).
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection, Engine

from ghostdb import queries as q
from ghostdb import wordlists
from ghostdb.db import current_revision, open_engine, serialise, writing
from ghostdb.errors import (
    BadMove,
    DeadFragment,
    MissingPlans,
    NameConflict,
    NotSolved,
    UnknownDictionary,
    WordListError,
)
from ghostdb.play import Game, SelfPlay, parse_players, selfplay
from ghostdb.rules import Rules, Variant, clean_fragment
from ghostdb.strategies import Lines, OpeningPlans, ReportRow, Strategy, build_tree, endings
from ghostdb.values import (
    Comparison,
    DictionaryInfo,
    Disagreement,
    IngestReport,
    Outcome,
    PlanSize,
    Play,
    Position,
    SolutionInfo,
    SolutionSummary,
)

if TYPE_CHECKING:
    from ghostdb.jobs import ProgressFn, SolveResult

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


@dataclass(frozen=True)
class IngestResult:
    """What `Store.ingest` did: ``added``, ``replaced`` or ``unchanged``."""

    action: str
    dictionary: DictionaryInfo
    report: IngestReport
    message: str


def open_store(url: str | None = None, *, create: bool = True, readonly: bool = False) -> Store:
    """Open (and if needed create or upgrade) the database at ``url``.

    ``url`` is a SQLAlchemy URL or a file path; by default ``$GHOSTDB_URL`` or
    ``./ghost.db``.  With ``create=False`` a missing file, or one with no schema, raises
    DatabaseError; ``readonly`` opens an existing database at the current schema and
    never writes.
    """
    return Store(open_engine(url, create=create, readonly=readonly))


class Store:
    """A ghostdb database.  Use as a context manager, or call `close`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._refs: dict[tuple[str, Rules], Any] = {}
        self._queries: dict[int, tuple[q.FastQuery, list[str]]] = {}
        self._statements: dict[tuple[str, Variant, str], Any] = {}
        self._local = threading.local()

    def close(self) -> None:
        raw = getattr(self._local, "raw", None)
        if raw is not None:
            raw.close()
            self._local.raw = None
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def schema_revision(self) -> str | None:
        with self.engine.connect() as conn:
            return current_revision(conn)

    # -- dictionaries ------------------------------------------------------------------------

    def ingest(
        self,
        path: str | Path,
        *,
        name: str | None = None,
        keep_proper_nouns: bool = False,
        replace: bool = False,
    ) -> IngestResult:
        """Read, normalise and store a word list (a file, or ``builtin:web2``).

        Raises WordListError for an unreadable or empty list and NameConflict when ``name``
        holds different words (unless ``replace``, which also drops its solutions).
        Identical content already stored is a no-op.
        """
        word_list = wordlists.load(path, keep_proper_nouns=keep_proper_nouns)
        name = name or wordlists.default_name(path)
        return self.ingest_words(word_list, name=name, replace=replace)

    def ingest_words(
        self, word_list: wordlists.WordList, *, name: str, replace: bool = False
    ) -> IngestResult:
        """Store an already normalised word list under ``name`` (see `ingest`)."""
        check_name(name)
        sha = word_list.sha256
        values = {
            "source": word_list.source,
            "sha256": sha,
            "word_count": len(word_list.words),
            "alphabet": word_list.alphabet,
            "ingested_at": q.now(),
            "report": json.dumps(word_list.report.as_dict()),
        }
        with writing(self.engine) as conn:
            serialise(conn, q.dictionaries)  # two ingests of one name take turns
            existing = q.dictionary_by_name(conn, name)
            if existing is not None and existing.sha256 == sha:
                return IngestResult(
                    "unchanged",
                    _dictionary_info(existing),
                    word_list.report,
                    f"{name} is already stored with identical content: nothing to do",
                )
            if existing is None:
                same = q.dictionary_by_sha(conn, sha)
                if same is not None:
                    return IngestResult(
                        "unchanged",
                        _dictionary_info(same),
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
            q.bulk_insert(
                conn,
                q.words,
                ("dictionary_id", "word"),
                ((dictionary_id, w) for w in word_list.words),
            )
            q.refresh_statistics(conn, q.words)
            row = q.dictionary_by_name(conn, name)
        assert row is not None
        verb = {"added": "stored", "replaced": "replaced"}[action]
        message = f"{verb} {name}: {len(word_list.words):,} words from {word_list.source}"
        return IngestResult(action, _dictionary_info(row), word_list.report, message)

    def dictionaries(self) -> list[DictionaryInfo]:
        with self.engine.connect() as conn:
            return [_dictionary_info(r) for r in q.all_dictionaries(conn)]

    def dictionary(self, name: str) -> DictionaryInfo:
        """The stored dictionary ``name``; raise UnknownDictionary."""
        with self.engine.connect() as conn:
            return _dictionary_info(self._dictionary_row(conn, name))

    def words(self, name: str, min_length: int = 1) -> list[str]:
        with self.engine.connect() as conn:
            row = self._dictionary_row(conn, name)
            return q.dictionary_words(conn, row.id, min_length)

    # -- solving -----------------------------------------------------------------------------

    def solve(
        self,
        name: str,
        rules: Rules | None = None,
        *,
        force: bool = False,
        progress: ProgressFn | None = None,
    ) -> SolveResult:
        """Solve ``name`` under ``rules`` and publish it; a no-op if solved, unless ``force``.

        ``progress(stage, done, total)`` is called as the job advances.
        """
        from ghostdb import jobs  # numpy and the solver: only solving needs them

        return jobs.run_solve(self.engine, name, rules or Rules(), force=force, progress=progress)

    def solutions(self, name: str | None = None) -> list[SolutionInfo]:
        """Every solve job (published, failed, superseded), oldest first."""
        with self.engine.connect() as conn:
            if name is not None:
                self._dictionary_row(conn, name)
            return [_solution_info(r) for r in q.job_rows(conn, name)]

    # -- lookups -----------------------------------------------------------------------------

    def lookup(self, name: str, fragment: str, rules: Rules | None = None) -> Position:
        """The stored position at ``fragment`` with its plays.

        Raises BadFragment (not letters), UnknownDictionary, NotSolved, or DeadFragment
        (no word continues it).
        """
        rules = rules or Rules()
        fragment = clean_fragment(fragment)
        for retry in (False, True):
            ref = self._ref(name, rules, refresh=retry)
            candidates = _candidates(rules, fragment, ref.alphabet)
            candidates.append(fragment)
            query, names = self._positions_query(len(candidates))
            params = dict(zip(names, candidates, strict=True))
            params["solution_id"] = ref.id
            rows = query.run(self._dbapi(), params)
            if any(r[0] == fragment for r in rows):
                return _position(name, rules, fragment, rows)
            # Nothing: the fragment is dead, or the solution was re-published meanwhile.
        with self.engine.connect() as conn:
            raise self._explain_missing(conn, name, fragment, rules)

    def get(
        self, name: str, fragment: str, rules: Rules | None = None, default: Any = None
    ) -> Position | Any:
        """Like `lookup`, but ``default`` for a fragment that no word continues."""
        try:
            return self.lookup(name, fragment, rules)
        except DeadFragment:
            return default

    def openings(self, name: str, rules: Rules | None = None) -> Position:
        """The start position: its plays are the first moves."""
        return self.lookup(name, "", rules)

    # -- plans and lines ---------------------------------------------------------------------

    def strategy(
        self,
        name: str,
        player: int | None = None,
        fragment: str = "",
        rules: Rules | None = None,
    ) -> Strategy:
        """``player``'s best plan from ``fragment`` (by default the winner's), extracted from
        the stored plan moves by one recursive query."""
        rules = rules or Rules()
        pos = self.lookup(name, fragment, rules)
        fragment = pos.fragment
        if player is None:
            player = pos.winner
        if player not in (0, 1):
            raise BadMove(f"a plan is for player 0 or 1, not {player}")
        if not pos.reachable:
            raise DeadFragment(
                f"{fragment!r} cannot arise in a game (a shorter fragment is already a word): "
                "plans start from fragments a game can reach"
            )
        parity = (player - len(fragment)) % 2
        rows, rank = self._walk("plan", name, rules, fragment, strategist_parity=parity)
        tree = build_tree(rules, fragment, rows)
        size = _plan_sizes(rank)[parity]  # parity 0: the strategist moves first
        return Strategy(name, rules, player, fragment, size, tree, endings(tree))

    def opening_plans(self, name: str, rules: Rules | None = None) -> list[OpeningPlans]:
        """For every first move, the winning plan of the player who wins from there."""
        rules = rules or Rules()
        found = []
        for play in self.openings(name, rules).plays:
            winner = 0 if play.wins else 1
            plan = self.strategy(name, winner, play.fragment, rules)
            pair = (plan, None) if winner == 0 else (None, plan)
            found.append(OpeningPlans(play.move, play.fragment, pair))
        return found

    def line(self, name: str, fragment: str = "", rules: Rules | None = None) -> Lines:
        """The principal lines from ``fragment``: the winner ends the game as soon as
        possible, the loser makes it last as long as possible; every tie is followed."""
        rules = rules or Rules()
        fragment = self.lookup(name, fragment, rules).fragment
        rows, _ = self._walk("line", name, rules, fragment)
        tree = build_tree(rules, fragment, rows)
        return Lines(name, rules, fragment, tree, endings(tree))

    # -- comparisons -------------------------------------------------------------------------

    def summary(self, name: str, rules: Rules | None = None) -> SolutionSummary:
        """The headline figures of the published solution of ``name`` under ``rules``."""
        return self._summary(name, rules or Rules())[0]

    def _summary(self, name: str, rules: Rules) -> tuple[SolutionSummary, Any]:
        """The summary and the solution row it came from."""
        start = self.openings(name, rules)
        with self.engine.connect() as conn:
            row = self._solution_row(conn, name, rules)
            rank = q.plan_rank(conn, row.id, "")
        if rank is None or not row.has_plans:
            raise _missing_plans(name, rules)
        summary = SolutionSummary(
            dictionary=name,
            rules=rules.key,
            word_count=row.word_count,
            fragment_count=row.fragment_count,
            reachable_count=row.reachable_count,
            winner=start.winner,
            winning_first_moves=tuple(p.move for p in start.plays if p.wins),
            game_length=start.game_length,
            plans=_plan_sizes(rank),
        )
        return summary, row

    def compare(
        self,
        a: str,
        b: str | None = None,
        rules: Rules | None = None,
        vs_rules: Rules | None = None,
        *,
        examples: int = 10,
    ) -> Comparison:
        """Two published solutions side by side: dictionary ``a`` under ``rules`` and ``b``
        (default: ``a``) under ``vs_rules`` (default: ``rules``), with their differences."""
        rules = rules or Rules()
        b = b or a
        vs_rules = vs_rules or rules
        if (a, rules) == (b, vs_rules):
            raise BadMove(
                "nothing to compare: give a second dictionary, or other rules with "
                "--vs-min-length, --vs-rules or --vs-misere"
            )
        left, sa = self._summary(a, rules)
        right, sb = self._summary(b, vs_rules)
        with self.engine.connect() as conn:
            common, different, different_reachable = q.outcome_agreement(conn, sa.id, sb.id)
            shown = q.outcome_disagreements(conn, sa.id, sb.id, examples)
            da, db = sa.dictionary_id, sb.dictionary_id
            ma, mb = rules.min_length, vs_rules.min_length
            only_a = q.count_words_lacking(conn, da, ma, db, mb)
            only_b = q.count_words_lacking(conn, db, mb, da, ma)
            only_a_examples = q.words_lacking(conn, da, ma, db, mb, examples)
            only_b_examples = q.words_lacking(conn, db, mb, da, ma, examples)
        return Comparison(
            a=left,
            b=right,
            common_fragments=common,
            different_outcomes=different,
            different_reachable=different_reachable,
            examples=tuple(Disagreement(r[0], (Outcome(r[1]), Outcome(r[2]))) for r in shown),
            only_a=only_a,
            only_a_examples=tuple(only_a_examples),
            only_b=only_b,
            only_b_examples=tuple(only_b_examples),
        )

    def report(self, name: str) -> list[ReportRow]:
        """One row per published rule set of ``name``: who wins and both players' plans."""
        with self.engine.connect() as conn:
            dictionary = self._dictionary_row(conn, name)
            rows = q.published_solutions(conn, dictionary.id)
        found = []
        for row in rows:
            rules = Rules(Variant(row.rules), row.min_length, bool(row.misere))
            first = self.strategy(name, 0, "", rules)
            second = self.strategy(name, 1, "", rules)
            winner = 0 if first.winning else 1
            found.append(ReportRow(rules, row.fragment_count, winner, first, second))
        return found

    # -- games -------------------------------------------------------------------------------

    def new_game(
        self,
        name: str,
        rules: Rules | None = None,
        players: str | Sequence[str] = ("human", "optimal"),
        seed: int | None = None,
    ) -> Game:
        """A game from the start; ``players`` names each seat (see `ghostdb.play`)."""
        rules = rules or Rules()
        seats = parse_players(players)
        start = self.lookup(name, "", rules)
        return Game(self, name, rules, seats, random.Random(seed), start)

    def selfplay(
        self,
        name: str,
        rules: Rules | None = None,
        players: str | Sequence[str] = ("optimal", "optimal"),
        games: int = 100,
        seed: int | None = None,
    ) -> SelfPlay:
        """Play ``games`` games between computer players and tally the results."""
        return selfplay(self, name, rules or Rules(), parse_players(players), games, seed)

    # -- helpers -----------------------------------------------------------------------------

    def _walk(
        self, kind: str, name: str, rules: Rules, fragment: str, **params: Any
    ) -> tuple[Any, Any]:
        """The rows of the recursive ``plan`` or ``line`` walk from ``fragment``, and (for a
        plan) the stored ranks there.  A walk of a solution republished meanwhile finds
        nothing, and is tried once more on the new one."""
        for retry in (False, True):
            ref = self._ref(name, rules, refresh=retry)
            if kind == "plan" and not ref.has_plans:
                raise _missing_plans(name, rules)
            stmt = self._statement(kind, rules, ref.alphabet)
            with self.engine.connect() as conn:
                rows = q.walk_rows(conn, stmt, ref.id, fragment, **params)
                rank = q.plan_rank(conn, ref.id, fragment) if kind == "plan" else None
            if rows and (kind != "plan" or rank is not None):
                return rows, rank
        # Only if the solution was republished twice during this one call.
        raise NotSolved(f"the solution of {name} changed during the query: try again")

    def _statement(self, kind: str, rules: Rules, alphabet: str) -> Any:
        """The recursive plan or line statement for a rule set's moves, built once."""
        key = (kind, rules.variant, alphabet)
        stmt = self._statements.get(key)
        if stmt is None:
            build = q.plan_statement if kind == "plan" else q.line_statement
            stmt = self._statements[key] = build(alphabet, rules.forms)
        return stmt

    def _ref(self, name: str, rules: Rules, *, refresh: bool = False) -> Any:
        """The published solution (id, alphabet) of ``name`` under ``rules``, cached.

        A cached id that has been superseded finds no rows (the position query checks
        the status), and the caller asks again with ``refresh``.
        """
        key = (name, rules)
        ref = None if refresh else self._refs.get(key)
        if ref is None:
            with self.engine.connect() as conn:
                ref = q.solution_ref(conn, name, rules)
                if ref is None:
                    self._solution_row(conn, name, rules)  # raises the right error
            self._refs[key] = ref
        return ref

    def _positions_query(self, count: int) -> tuple[q.FastQuery, list[str]]:
        """The query for ``count`` fragments, and the names of its fragment parameters."""
        found = self._queries.get(count)
        if found is None:
            query = q.FastQuery(q.positions_statement(count), self.engine.dialect)
            found = self._queries[count] = (query, [f"f{i}" for i in range(count)])
        return found

    def _dbapi(self) -> Any:
        """This thread's raw DB-API connection for lookups, in autocommit mode so each
        query sees the latest published data."""
        raw = getattr(self._local, "raw", None)
        if raw is None:
            raw = self.engine.raw_connection()
            if self.engine.dialect.name != "sqlite":  # SQLite's is autocommit already
                raw.driver_connection.autocommit = True
            self._local.raw = raw
        return raw.driver_connection

    def _dictionary_row(self, conn: Connection, name: str) -> Any:
        row = q.dictionary_by_name(conn, name)
        if row is None:
            raise UnknownDictionary.named(name)
        return row

    def _solution_row(self, conn: Connection, name: str, rules: Rules) -> Any:
        dictionary = self._dictionary_row(conn, name)
        row = q.published_solution(conn, dictionary.id, rules)
        if row is None:
            raise NotSolved(
                f"{name} is not solved for {rules.describe()}: run `ghostdb solve {name}"
                f"{rules_flags(rules)}`"
            )
        return row

    def _explain_missing(
        self, conn: Connection, name: str, fragment: str, rules: Rules
    ) -> Exception:
        solution = self._solution_row(conn, name, rules)
        if rules.variant is not Variant.GHOST:
            return DeadFragment(
                f"{fragment!r} is part of no word of {rules.min_length}+ letters in {name}: "
                "whoever made it has lost"
            )
        # The longest stored prefix tells which letter was the fatal one.
        alive = ""
        for i in range(len(fragment) - 1, 0, -1):
            if q.position_exists(conn, solution.id, fragment[:i]):
                alive = fragment[:i]
                break
        fatal = fragment[len(alive)]
        where = (
            "" if len(alive) == len(fragment) - 1 else f" (the game was lost at {alive + fatal!r})"
        )
        return DeadFragment(
            f"{fragment!r} begins no word of {rules.min_length}+ letters in {name}: "
            f"whoever played the {fatal} has lost{where}"
        )


def check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise WordListError(
            f"{name!r} is not a usable dictionary name: use letters, digits, '.', '_' or '-' "
            "(give one with --name)"
        )


def rules_flags(rules: Rules) -> str:
    """The command-line flags that select ``rules`` (empty for the default)."""
    flags = ""
    if rules.variant is not Variant.GHOST:
        flags += f" --rules {rules.variant.value}"
    if rules.min_length != 3:
        flags += f" --min-length {rules.min_length}"
    if rules.misere:
        flags += " --misere"
    return flags


def _plan_sizes(rank: Any) -> tuple[PlanSize, PlanSize]:
    """The best plans' ranks of a plans row: (strategist to move, opponent to move)."""
    return (
        PlanSize(rank.mover_lossiness, rank.mover_outcomes, rank.mover_letters),
        PlanSize(rank.waiter_lossiness, rank.waiter_outcomes, rank.waiter_letters),
    )


def _missing_plans(name: str, rules: Rules) -> MissingPlans:
    """A solution stored before schema revision 0002 has no plans until solved again."""
    return MissingPlans(
        f"the stored solution of {name} for {rules.describe()} has no plans (it predates "
        f"them): run `ghostdb solve {name}{rules_flags(rules)} --force`"
    )


def _candidates(rules: Rules, fragment: str, alphabet: str) -> list[str]:
    """Every fragment one move from ``fragment`` over ``alphabet`` (stored or not)."""
    if rules.variant is Variant.GHOST:
        return [fragment + c for c in alphabet]
    seen = dict.fromkeys(m.apply(fragment) for m in rules.candidate_moves(alphabet))
    seen.pop(fragment, None)
    return list(seen)


def _position(name: str, rules: Rules, fragment: str, rows: Sequence[Any]) -> Position:
    """A Position from position rows (fields as `queries.POSITION_FIELDS`): the one at
    ``fragment`` and those one play away."""
    by_fragment = {r[0]: r for r in rows}
    head = by_fragment.pop(fragment)
    is_word = head[3] == 0
    plays: list[Play] = []
    if not is_word:  # the game is over at a word: longer fragments are no plays
        for child, r in by_fragment.items():
            plays.append(
                Play(
                    move=rules.describe_move(fragment, child),
                    fragment=child,
                    outcome=Outcome(r[2]),
                    game_length=r[3],
                    is_word=r[3] == 0,
                )
            )
        if rules.variant is Variant.GHOST:
            plays.sort(key=lambda p: p.move)
        else:
            plays.sort(key=lambda p: rules.parse_move(p.move))
    best_next = head[4]
    return Position(
        dictionary=name,
        rules=rules.key,
        fragment=fragment,
        outcome=Outcome(head[2]),
        game_length=head[3],
        best_move=None if best_next is None else rules.describe_move(fragment, best_next),
        winning_moves=head[5],
        is_word=is_word,
        reachable=bool(head[1]),
        to_move=rules.player_to_move(fragment),
        plays=tuple(plays),
    )


def _dictionary_info(row: Any) -> DictionaryInfo:
    return DictionaryInfo(
        name=row.name,
        source=row.source,
        sha256=row.sha256,
        word_count=row.word_count,
        alphabet=row.alphabet,
        ingested_at=row.ingested_at,
        report=json.loads(row.report),
    )


def _solution_info(row: Any) -> SolutionInfo:
    rules = Rules(Variant(row.rules), row.min_length, bool(row.misere))
    return SolutionInfo(
        id=row.id,
        dictionary=row.dictionary,
        rules=rules.key,
        status=row.status,
        started_at=row.started_at,
        finished_at=row.finished_at,
        word_count=row.word_count,
        fragment_count=row.fragment_count,
        reachable_count=row.reachable_count,
        solver_version=row.solver_version,
        seconds=row.seconds,
        has_plans=bool(row.has_plans),
        error=row.error,
    )
