"""The library façade: the one API that the CLI, scripts, tests and servers call.

    >>> from ghostdb import open_store
    >>> with open_store("ghost.db") as store:                      # doctest: +SKIP
    ...     store.ingest("enable1.txt")
    ...     store.solve("enable1")
    ...     store.lookup("enable1", "gho").outcome
    <Outcome.WIN: 'win'>

Lookups, plans, comparisons and the computer player read stored rows only; nothing here
solves except `Store.solve`, which runs a job (see `ghostdb.store.jobs`).
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy.engine import Connection, Engine

from ghostdb.errors import (
    BadMove,
    DeadFragment,
    MissingPlans,
    NameConflict,
    NotForThisGame,
    NotSolved,
    UnknownDictionary,
    WordListError,
)
from ghostdb.games import registry as g
from ghostdb.games.base import Game
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.store import queries as q
from ghostdb.store.db import current_revision, open_engine, serialise, writing
from ghostdb.values import Outcome, Play, Position

# Imported where used, as `jobs` and `verify` are: a lookup needs none of these.
if TYPE_CHECKING:
    from ghostdb import wordlists
    from ghostdb.games.base import RuleSet
    from ghostdb.play.engine import Match, SelfPlay
    from ghostdb.reports import (
        Comparison,
        DictionaryInfo,
        IngestResult,
        PlanSize,
        SolutionInfo,
        SolutionSummary,
        SurveyRow,
    )
    from ghostdb.store.jobs import ProgressFn, SolveResult
    from ghostdb.store.solution import Solution
    from ghostdb.store.verify import Verdict
    from ghostdb.strategies import Lines, Node, OpeningPlans, ReportRow, Strategy

LOOKUP_CACHE_KIB = 16 * 1024
"""The page cache of a thread's SQLite connection for lookups (see `Store._dbapi`)."""
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class SolutionRef(NamedTuple):
    """A published solution as a lookup needs it: its id and the game to read it with."""

    id: int
    has_plans: bool
    game: Game


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
        self._refs: dict[tuple[str, RuleSet], SolutionRef] = {}
        self._queries: dict[int, tuple[q.FastQuery, list[str]]] = {}
        self._statements: dict[tuple[str, Variant, str], Any] = {}
        # Plain Ghost on SQLite reads a position and its plays as one range of the primary
        # key (see `queries.extended_positions_sql`).
        self._range = q.extended_positions_sql() if engine.dialect.name == "sqlite" else None
        # The last lookup's arguments (the rules as given), its rules and its solution: a
        # run of lookups of one solution checks and finds them once.
        self._recent: tuple[Any, str, RuleSet, SolutionRef] | None = None
        self._local = threading.local()

    def close(self) -> None:
        raw = getattr(self._local, "raw", None)
        if raw is not None:
            raw.close()
            del self._local.raw, self._local.driver
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
        keep_capitalised: bool = False,
        fold_accents: bool = False,
        language: str = "",
        keep_proper_nouns: bool = False,
        replace: bool = False,
    ) -> IngestResult:
        """Read, normalise and store a word list (a file, or ``builtin:web2``).

        The options are those of `wordlists.normalise` (``keep_proper_nouns`` is the older
        name of ``keep_capitalised``) and are stored in the dictionary's report.  Raises
        WordListError for an unreadable or empty list and NameConflict when ``name`` holds
        different words (unless ``replace``, which also drops its solutions).  Identical
        content already stored is a no-op.
        """
        from ghostdb import wordlists

        word_list = wordlists.load(
            path,
            keep_capitalised=keep_capitalised or keep_proper_nouns,
            fold_accents=fold_accents,
            language=language,
        )
        name = name or wordlists.default_name(path)
        return self.ingest_words(word_list, name=name, replace=replace)

    def ingest_words(
        self, word_list: wordlists.WordList, *, name: str, replace: bool = False
    ) -> IngestResult:
        """Store an already normalised word list under ``name`` (see `ingest`)."""
        from ghostdb import wordlists
        from ghostdb.reports import IngestResult

        check_name(name)
        if name in g.STANDALONE:
            raise NameConflict(
                f"{name!r} is the name of a game, which shares the namespace of dictionaries: "
                "choose another --name"
            )
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
                    row = q.dictionary_by_name(conn, name)
                    return IngestResult(
                        "updated",
                        _dictionary_info(row),
                        word_list.report,
                        f"updated {name}: same words, options recorded anew",
                    )
                return IngestResult(
                    "unchanged", _dictionary_info(existing), word_list.report, message
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
            words = list(word_list.words)
            q.bulk_insert(
                conn,
                q.words,
                ("dictionary_id", "word"),
                q.Columns(len(words), [dictionary_id, words]),
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
        rules: RuleSet | None = None,
        *,
        force: bool = False,
        progress: ProgressFn | None = None,
    ) -> SolveResult:
        """Solve ``name`` (a dictionary, or a game such as ``chopsticks``) under ``rules``
        (default: the game's standard rules) and publish it; a no-op if solved, unless
        ``force``.  ``progress(stage, done, total)`` is called as the job advances.
        """
        from ghostdb.store import jobs  # numpy and the solvers: only solving needs them

        rules = self.rules_for(name) if rules is None else rules
        return jobs.run_solve(self.engine, name, rules, force=force, progress=progress)

    def solve_many(
        self, name: str, rule_sets: Sequence[RuleSet], *, jobs: int = 1, force: bool = False
    ) -> Iterator[tuple[RuleSet, SolveResult]]:
        """Solve several rule sets of ``name``, in ``jobs`` worker processes that write to
        this same store (SQLite queues their writes; PostgreSQL takes them in parallel).
        Yields each rule set with its result as it finishes, the costliest started first."""
        if jobs <= 1 or len(rule_sets) <= 1:
            for rules in rule_sets:
                yield rules, self.solve(name, rules, force=force)
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        url = self.engine.url.render_as_string(hide_password=False)
        order = sorted(rule_sets, key=lambda r: g.game_of(r).cost(), reverse=True)
        # spawn, not fork: a worker must not inherit this process's open connections.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(jobs, len(order)), mp_context=context) as pool:
            futures = {pool.submit(_solve_in_worker, url, name, r.key, force): r for r in order}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise

    def rules_for(self, name: str, **options: Any) -> RuleSet:
        """The rule set of ``name``'s game from command-line style options (None: not
        given; see `ghostdb.games.rules_from_options`)."""
        return g.rules_from_options(name, **options)

    def solutions(self, name: str | None = None) -> list[SolutionInfo]:
        """Every solve job (published, failed, superseded), oldest first."""
        from ghostdb.store.jobs import interrupted

        with self.engine.connect() as conn:
            if name is not None and name not in g.STANDALONE:
                self._dictionary_row(conn, name)
            return [_solution_info(r, interrupted(r)) for r in q.job_rows(conn, name)]

    def verify(
        self, name: str | None = None, rules: RuleSet | None = None, *, every: bool = False
    ) -> list[Verdict]:
        """Verify published solutions (see `ghostdb.store.verify`): of the whole store when
        ``name`` is None, else every one of ``name`` (``every``) or the one of ``rules``
        (default: the default rule set).  Read in one snapshot."""
        from ghostdb.store.verify import verify_solution

        conn = self.engine.connect()
        if self.engine.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        with conn:
            chosen = list(q.all_published(conn))
            if name is not None:
                if name not in g.STANDALONE:
                    self._dictionary_row(conn, name)
                chosen = [r for r in chosen if r.name == name]
                if not every:
                    rules = self._rules(name, rules)
                    chosen = [r for r in chosen if r.rules == rules.key]
                    if not chosen:
                        self._solution_row(conn, name, rules)  # raises the right error
            by_id = {d.id: d for d in q.all_dictionaries(conn)}
            return [
                verify_solution(conn, row, row.name, by_id.get(row.dictionary_id)) for row in chosen
            ]

    def games(self) -> list[dict[str, Any]]:
        """Every game ghostdb knows, its rule options and what of it is solved."""
        with self.engine.connect() as conn:
            published = q.all_published(conn)
        return g.describe_games(published)

    def solution(self, name: str, rules: RuleSet | None = None) -> Solution:
        """The published solution of ``name`` (a dictionary or a game) under ``rules``
        (default: the game's default rules), as a handle; raises UnknownDictionary,
        BadMove (rules of another game), NotSolved."""
        from ghostdb.store.solution import Solution

        rules = self._rules(name, rules)
        self._ref(name, rules)  # raises if it is not there
        return Solution(self, name, rules)

    def catalogue(self) -> list[dict[str, Any]]:
        """Every stored dictionary and solved game with its published rule sets."""
        with self.engine.connect() as conn:
            published = q.all_published(conn)
            dictionaries = q.all_dictionaries(conn)
        by_name: dict[str, dict[str, Any]] = {}
        for d in dictionaries:
            by_name[d.name] = {"name": d.name, "game": "ghost", "words": d.word_count, "rules": []}
        for r in published:
            entry = by_name.setdefault(
                r.name, {"name": r.name, "game": r.game, "words": None, "rules": []}
            )
            entry["rules"].append(r.rules)
        return [by_name[k] for k in sorted(by_name)]

    # -- lookups -----------------------------------------------------------------------------

    def lookup(
        self, name: str, fragment: str | None = "", rules: RuleSet | None = None
    ) -> Position:
        """The stored position at ``fragment`` (a game's start when empty) with its plays.

        Raises BadFragment (not a position of the game), UnknownDictionary, NotSolved, or
        DeadFragment (in Ghost: no word continues it; elsewhere: not reachable).
        """
        recent = self._recent
        if recent is not None and recent[0] is rules and recent[1] == name:
            _, _, rules, ref = recent  # the same call as the last: checked and found already
        else:
            given = rules
            rules = self._rules(name, rules)
            ref = self._ref(name, rules)
            self._recent = (given, name, rules, ref)
        for retry in (False, True):
            if retry:
                ref = self._ref(name, rules, refresh=True)
            game = ref.game
            key = game.clean_key(fragment) if fragment else game.start()
            if self._range is not None and game.children_extend_key:
                args = (ref.id, len(key), key, key + _HIGHEST)
                rows = self._dbapi().execute(self._range, args).fetchall()
                if rows and rows[0][0] == key:
                    return _extended_position(name, game, key, rows)
                continue
            candidates = game.candidates(key)
            query, names = self._positions_query(len(candidates))
            params: dict[str, Any] = dict(zip(names, (c for _, c in candidates), strict=True))
            params["solution_id"] = ref.id
            params["f"] = key
            level = game.level(key)
            params["level"] = level
            params["child_level"] = game.level(candidates[0][1]) if candidates else level
            rows = query.run(self._dbapi(), params)
            for row in rows:
                if row[0] == key:
                    return _position(name, game, key, rows, candidates)
            # Nothing: not a position, or the solution was re-published meanwhile.
        with self.engine.connect() as conn:
            raise self._explain_missing(conn, name, key, rules, ref)

    def get(
        self, name: str, fragment: str, rules: RuleSet | None = None, default: Any = None
    ) -> Position | Any:
        """Like `lookup`, but ``default`` for a fragment that no word continues."""
        try:
            return self.lookup(name, fragment, rules)
        except DeadFragment:
            return default

    def openings(self, name: str, rules: RuleSet | None = None) -> Position:
        """The start position: its plays are the first moves."""
        return self.lookup(name, "", rules)

    # -- plans and lines ---------------------------------------------------------------------

    def strategy(
        self,
        name: str,
        player: int | None = None,
        fragment: str = "",
        rules: RuleSet | None = None,
    ) -> Strategy:
        """``player``'s best plan from ``fragment`` (by default the winner's), extracted from
        the stored plan moves by one recursive query.  Word games only."""
        from ghostdb.strategies import Strategy, build_tree, endings

        rules = self._word_game_rules(name, rules, "plans to memorise")
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
        rows, rank, game = self._walk("plan", name, rules, fragment, strategist_parity=parity)
        tree = build_tree(game, fragment, rows)
        size = _plan_sizes(rank)[parity]  # parity 0: the strategist moves first
        return Strategy(name, rules, player, fragment, size, tree, endings(tree))

    def opening_plans(self, name: str, rules: RuleSet | None = None) -> list[OpeningPlans]:
        """For every first move, the winning plan of the player who wins from there."""
        from ghostdb.strategies import OpeningPlans

        rules = self._word_game_rules(name, rules, "plans to memorise")
        found = []
        for play in self.openings(name, rules).plays:
            winner = 0 if play.wins else 1
            plan = self.strategy(name, winner, play.fragment, rules)
            pair = (plan, None) if winner == 0 else (None, plan)
            found.append(OpeningPlans(play.move, play.fragment, pair))
        return found

    def line(self, name: str, fragment: str = "", rules: RuleSet | None = None) -> Lines:
        """The principal lines from ``fragment``: the winner ends the game as soon as
        possible, the loser makes it last as long as possible.  Word games follow every
        tie, by one recursive query; other games follow the stored best move, one lookup a
        step, and stop where a position comes again (a draw's cycle)."""
        from ghostdb.strategies import Lines, build_tree, endings

        rules = self._rules(name, rules)
        pos = self.lookup(name, fragment, rules)
        if not isinstance(rules, Rules) or rules.players != 2:
            return self._best_line(name, rules, pos)
        rows, _, game = self._walk("line", name, rules, pos.fragment)
        tree = build_tree(game, pos.fragment, rows)
        return Lines(name, rules, pos.fragment, tree, endings(tree))

    def _best_line(self, name: str, rules: RuleSet, pos: Position) -> Lines:
        from ghostdb.strategies import Lines, Node, endings

        def node(p: Position, move: str | None) -> Node:
            return Node(p.fragment, move, p.to_move, p.outcome, p.game_length)

        root = current = node(pos, None)
        seen = {pos.fragment}
        cycle = False
        while not pos.is_final:
            move = pos.best_move
            play = next(p for p in pos.plays if p.move == move)
            if play.is_final:
                child = Node(play.fragment, move, _next_player(pos), play.outcome, 0)
                current.children.append(child)
                break
            pos = self.lookup(name, play.fragment, rules)
            child = node(pos, move)
            current.children.append(child)
            current = child
            if pos.fragment in seen:
                cycle = True
                break
            seen.add(pos.fragment)
        return Lines(name, rules, root.fragment, root, endings(root), cycle)

    # -- comparisons -------------------------------------------------------------------------

    def summary(self, name: str, rules: RuleSet | None = None) -> SolutionSummary:
        """The headline figures of the published solution of ``name`` under ``rules``."""
        return self._summary(name, self._rules(name, rules))[0]

    def _summary(self, name: str, rules: RuleSet) -> tuple[SolutionSummary, Any]:
        """The summary and the solution row it came from."""
        from ghostdb.reports import SolutionSummary

        start = self.openings(name, rules)
        plans = None
        with self.engine.connect() as conn:
            row = self._solution_row(conn, name, rules)
            if isinstance(rules, Rules) and rules.players == 2:
                rank = q.plan_rank(conn, row.id, "")
                if rank is None or not row.has_plans:
                    raise _missing_plans(name, rules)
                plans = _plan_sizes(rank)
        summary = SolutionSummary(
            dictionary=name,
            rules=rules.key,
            word_count=row.word_count,
            fragment_count=row.fragment_count,
            reachable_count=row.reachable_count,
            outcome=start.outcome,
            winner=start.winner,
            winning_first_moves=tuple(p.move for p in start.plays if p.wins),
            game_length=start.game_length,
            plans=plans,
        )
        return summary, row

    def compare(
        self,
        a: str,
        b: str | None = None,
        rules: RuleSet | None = None,
        vs_rules: RuleSet | None = None,
        *,
        examples: int = 10,
    ) -> Comparison:
        """Two published solutions side by side: ``a`` under ``rules`` and ``b`` (default:
        ``a``) under ``vs_rules`` (default: ``rules``), with their differences.  Both must be
        played as the same game (two dictionaries, or one game under two rule sets)."""
        from ghostdb.reports import Comparison, Disagreement

        b = b or a
        rules = self._rules(a, rules)
        vs_rules = vs_rules or rules
        self._rules(b, vs_rules)
        if (a, rules) == (b, vs_rules):
            raise BadMove(
                "nothing to compare: give a second dictionary, or other rules with "
                "--vs-min-length, --vs-rules or --vs-misere"
            )
        left, sa = self._summary(a, rules)
        right, sb = self._summary(b, vs_rules)
        only = {"a": (0, ()), "b": (0, ())}
        with self.engine.connect() as conn:
            common, different, different_reachable = q.outcome_agreement(conn, sa.id, sb.id)
            shown = q.outcome_disagreements(conn, sa.id, sb.id, examples)
            if isinstance(rules, Rules) and isinstance(vs_rules, Rules):
                da, db = sa.dictionary_id, sb.dictionary_id
                ma, mb = rules.min_length, vs_rules.min_length
                only = {
                    "a": (
                        q.count_words_lacking(conn, da, ma, db, mb),
                        tuple(q.words_lacking(conn, da, ma, db, mb, examples)),
                    ),
                    "b": (
                        q.count_words_lacking(conn, db, mb, da, ma),
                        tuple(q.words_lacking(conn, db, mb, da, ma, examples)),
                    ),
                }
        return Comparison(
            a=left,
            b=right,
            common_fragments=common,
            different_outcomes=different,
            different_reachable=different_reachable,
            examples=tuple(Disagreement(r[0], (Outcome(r[1]), Outcome(r[2]))) for r in shown),
            only_a=only["a"][0],
            only_a_examples=only["a"][1],
            only_b=only["b"][0],
            only_b_examples=only["b"][1],
        )

    def report(self, name: str) -> list[ReportRow]:
        """One row per published rule set of ``name``: who wins, how many positions have
        each outcome, and (word games) both players' plans."""
        from ghostdb.strategies import ReportRow

        with self.engine.connect() as conn:
            game, dictionary_id = self._subject(conn, name)
            rows = q.published_solutions(conn, game, dictionary_id)
            counts = {row.id: q.outcome_counts(conn, row.id) for row in rows}
        found = []
        for row in rows:
            rules = g.parse_rules(row.rules)
            start = self.openings(name, rules)
            first = second = None
            if isinstance(rules, Rules) and rules.players == 2:
                first = self.strategy(name, 0, "", rules)
                second = self.strategy(name, 1, "", rules)
            found.append(
                ReportRow(
                    rules,
                    row.fragment_count,
                    start.outcome,
                    start.winner,
                    start.game_length,
                    counts[row.id],
                    first,
                    second,
                    start.safe_seats,
                )
            )
        return found

    def survey(self) -> list[SurveyRow]:
        """Every stored dictionary under each of its solved two-player word-game rule sets:
        who wins, with which first moves, and both players' best plans, sorted by language,
        dictionary and rules, to answer "who wins in each language" in one call.

        Rule sets for more players have no single winner and are left out (`report` shows
        them).  Raises NotSolved when no dictionary is stored, or none is solved for two players."""
        from ghostdb.reports import SurveyRow

        with self.engine.connect() as conn:
            stored = {d.name: json.loads(d.report) for d in q.all_dictionaries(conn)}
            published = q.all_published(conn)
        if not stored:
            raise NotSolved(
                "no dictionaries are stored: add one with `ghostdb ingest PATH` and solve it "
                "with `ghostdb solve NAME`"
            )

        def lost(name: str, rules: Rules, player: int, size: PlanSize) -> int:
            # The stored rank tells all but how many outcomes a mixed plan loses.
            if size.lossiness == 1:
                return self.strategy(name, player, "", rules).losses
            return 0 if size.lossiness == 0 else size.outcomes

        found = []
        for row in published:
            rules = g.parse_rules(row.rules)
            if row.dictionary_id is None or not isinstance(rules, Rules) or rules.players != 2:
                continue
            summary = self.summary(row.name, rules)
            assert summary.plans is not None  # two-player word games have plans
            options = stored[row.name].get("options")
            language = (options or {}).get("language") or ""
            found.append(
                SurveyRow(
                    language=language,
                    options=options,
                    summary=summary,
                    lost=(
                        lost(row.name, rules, 0, summary.plans[0]),
                        lost(row.name, rules, 1, summary.plans[1]),
                    ),
                    unit="word" if rules.variant is Variant.GHOST else "sequence",
                )
            )
        if not found:
            raise NotSolved(
                "no dictionary is solved for two-player Ghost: run `ghostdb solve NAME` "
                "(`ghostdb dictionaries` lists them)"
            )

        def order(r: SurveyRow) -> tuple[Any, ...]:
            rules = Rules.from_key(r.rules)
            untagged = not r.language  # after the tagged ones
            return (
                untagged,
                r.language,
                r.dictionary,
                rules.variant.value,
                rules.min_length,
                rules.misere,
            )

        return sorted(found, key=order)

    # -- games -------------------------------------------------------------------------------

    def new_game(
        self,
        name: str,
        rules: RuleSet | None = None,
        players: str | Sequence[str] = ("human", "optimal"),
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Match:
        """A match from the start; ``players`` names each seat (see `ghostdb.play.engine`)."""
        from ghostdb.play.engine import Match, parse_players

        rules = self._rules(name, rules)
        seats = parse_players(players)
        start = self.lookup(name, "", rules)
        game = self._ref(name, rules).game

        def lookup(key: str) -> Position:
            return self.lookup(name, key, rules)

        return Match(lookup, name, rules, game, seats, rng or random.Random(seed), start)

    def selfplay(
        self,
        name: str,
        rules: RuleSet | None = None,
        players: str | Sequence[str] = ("optimal", "optimal"),
        games: int = 100,
        seed: int | None = None,
    ) -> SelfPlay:
        """Play ``games`` games between computer players and tally the results."""
        from ghostdb.play.engine import Match, parse_players, selfplay

        rules = self._rules(name, rules)
        seats = parse_players(players)
        start = self.lookup(name, "", rules)
        game = self._ref(name, rules).game

        def lookup(key: str) -> Position:
            return self.lookup(name, key, rules)

        def new_match(rng: random.Random) -> Match:
            return Match(lookup, name, rules, game, seats, rng, start)

        return selfplay(new_match, name, rules, seats, games, seed)

    # -- helpers -----------------------------------------------------------------------------

    def _rules(self, name: str, rules: RuleSet | None) -> RuleSet:
        """The given rules, checked against ``name``'s game, or that game's default."""
        if rules is None:
            return g.default_rules(name)
        g.check_rules(name, rules)
        return rules

    def _word_game_rules(self, name: str, rules: RuleSet | None, what: str) -> Rules:
        rules = self._rules(name, rules)
        if not isinstance(rules, Rules):
            raise NotForThisGame(
                f"{what} are a word-game notion: {name} has none; "
                f"`ghostdb line {name}` shows the best line of play"
            )
        if rules.players != 2:
            raise NotForThisGame(
                f"{what} are for two players: with {rules.players}, `ghostdb lookup {name}"
                f"{rules.flags()}` shows the safe seats and their safe moves"
            )
        return rules

    def _walk(
        self, kind: str, name: str, rules: Rules, fragment: str, **params: Any
    ) -> tuple[Any, Any, Game]:
        """The rows of the recursive ``plan`` or ``line`` walk from ``fragment``, and (for a
        plan) the stored ranks there.  A walk of a solution republished meanwhile finds
        nothing, and is tried once more on the new one."""
        for retry in (False, True):
            ref = self._ref(name, rules, refresh=retry)
            if kind == "plan" and not ref.has_plans:
                raise _missing_plans(name, rules)
            game = ref.game
            if not _sql_moves(rules):
                return self._walk_by_lookups(kind, name, rules, fragment, ref, **params)
            stmt = self._statement(kind, rules, game.alphabet)
            with self.engine.connect() as conn:
                rows = q.walk_rows(conn, stmt, ref.id, fragment, **params)
                rank = q.plan_rank(conn, ref.id, fragment) if kind == "plan" else None
            if rows and (kind != "plan" or rank is not None):
                return rows, rank, game
        # Only if the solution was republished twice during this one call.
        raise NotSolved(f"the solution of {name} changed during the query: try again")

    def _walk_by_lookups(
        self,
        kind: str,
        name: str,
        rules: Rules,
        start: str,
        ref: SolutionRef,
        strategist_parity: int = 0,
    ) -> tuple[Any, Any, Game]:
        """The rows the recursive ``plan`` or ``line`` query gives, walked one lookup a
        step instead: for moves SQL cannot make (Insert and Anagram Ghost)."""
        rows = []
        with self.engine.connect() as conn:
            rank = q.plan_rank(conn, ref.id, start) if kind == "plan" else None
            stack = [(start, start, 0)]
            while stack:
                path, key, steps = stack.pop()
                pos = self.lookup(name, key, rules)
                rows.append((path, key, pos.outcome.value, pos.game_length))
                if pos.is_final:
                    continue
                if kind == "line":  # as queries.line_statement: keep the value, use a move
                    children = [
                        p.fragment
                        for p in pos.plays
                        if p.outcome is not pos.outcome and p.game_length == pos.game_length - 1
                    ]
                elif steps % 2 == strategist_parity:
                    here = q.plan_rank(conn, ref.id, key)
                    children = [here.plan_next] if here is not None else []
                else:
                    children = [p.fragment for p in pos.plays]
                stack.extend((f"{path} {c}", c, steps + 1) for c in reversed(children))
        return rows, rank, ref.game

    def _statement(self, kind: str, rules: Rules, alphabet: str) -> Any:
        """The recursive plan or line statement for a rule set's moves, built once."""
        key = (kind, rules.variant, alphabet)
        stmt = self._statements.get(key)
        if stmt is None:
            build = q.plan_statement if kind == "plan" else q.line_statement
            stmt = self._statements[key] = build(alphabet, rules.forms)
        return stmt

    def _ref(self, name: str, rules: RuleSet, *, refresh: bool = False) -> SolutionRef:
        """The published solution of ``name`` under ``rules``, cached.

        A cached id that has been superseded finds no rows (they are dropped when it
        is), and the caller asks again with ``refresh``.
        """
        key = (name, rules)
        ref = None if refresh else self._refs.get(key)
        if ref is None:
            self._recent = None  # `lookup` finds the new one here next time
            with self.engine.connect() as conn:
                if name in g.STANDALONE:
                    game, dictionary_id, alphabet = name, None, ""
                else:  # as `_subject`, keeping the row for its alphabet
                    dictionary = self._dictionary_row(conn, name)
                    game, dictionary_id, alphabet = "ghost", dictionary.id, dictionary.alphabet
                row = q.solution_ref(conn, game, dictionary_id, rules.key)
                if row is None:
                    self._solution_row(conn, name, rules)  # raises the right error
            ref = SolutionRef(row.id, bool(row.has_plans), g.game_of(rules, alphabet))
            self._refs[key] = ref
        return ref

    def _subject(self, conn: Connection, name: str) -> tuple[str, int | None]:
        """(the game ``name`` is played as, its dictionary's id or None)."""
        if name in g.STANDALONE:
            return name, None
        return "ghost", self._dictionary_row(conn, name).id

    def _positions_query(self, count: int) -> tuple[q.FastQuery, list[str]]:
        """The query for a position and ``count`` candidate children, and the names of the
        children's parameters."""
        found = self._queries.get(count)
        if found is None:
            query = q.FastQuery(q.positions_statement(count), self.engine.dialect)
            found = self._queries[count] = (query, [f"c{i}" for i in range(count)])
        return found

    def _dbapi(self) -> Any:
        """This thread's raw DB-API connection for lookups, in autocommit mode so each
        query sees the latest published data."""
        try:
            return self._local.driver
        except AttributeError:
            raw = self.engine.raw_connection()
            if self.engine.dialect.name != "sqlite":  # SQLite's is autocommit already
                raw.driver_connection.autocommit = True
            else:
                # Each lookup reads about two pages from anywhere in a solution: a page
                # cache that holds a whole ENABLE Ghost solution (16 MB) rather than
                # SQLite's default 2 MiB makes ENABLE lookups 10% faster.  It fills only
                # as pages are read, and SQLite empties it when another process writes.
                raw.driver_connection.execute(f"PRAGMA cache_size={-LOOKUP_CACHE_KIB}")
            self._local.raw = raw
            self._local.driver = raw.driver_connection
            return self._local.driver

    def _dictionary_row(self, conn: Connection, name: str) -> Any:
        row = q.dictionary_by_name(conn, name)
        if row is None:
            raise UnknownDictionary.named(name)
        return row

    def _solution_row(self, conn: Connection, name: str, rules: RuleSet) -> Any:
        game, dictionary_id = self._subject(conn, name)
        row = q.published_solution(conn, game, dictionary_id, rules.key)
        if row is None:
            raise NotSolved(
                f"{name} is not solved for {rules.describe()}: run `ghostdb solve {name}"
                f"{rules.flags()}`"
            )
        return row

    def _explain_missing(
        self, conn: Connection, name: str, fragment: str, rules: RuleSet, ref: SolutionRef
    ) -> Exception:
        solution = self._solution_row(conn, name, rules)
        if not isinstance(rules, Rules):
            return DeadFragment(
                f"{fragment!r} is not a position a game of {rules.describe()} can reach "
                f"from the start ({ref.game.start()})"
            )
        if rules.variant is not Variant.GHOST:
            return DeadFragment(
                f"{fragment!r} is part of no word of {rules.min_length}+ letters in {name}: "
                "whoever made it has lost"
            )
        # The longest stored prefix tells which letter was the fatal one.
        alive = ""
        for i in range(len(fragment) - 1, 0, -1):
            if q.position_exists(conn, solution.id, i, fragment[:i]):
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


def _solve_in_worker(url: str, name: str, key: str, force: bool) -> SolveResult:
    """One rule set solved in a worker process, on a store of its own."""
    from ghostdb.store import jobs

    with open_store(url) as store:
        # Staged: the workers share SQLite's one write lock, so each holds it briefly.
        return jobs.run_solve(store.engine, name, g.parse_rules(key), force=force, staged=True)


def _sql_moves(rules: Rules) -> bool:
    """Whether the recursive SQL walks can make the rule set's moves (letters at the ends,
    maybe reversed); Insert and Anagram Ghost are walked one lookup a step."""
    return bool(rules.forms)


def _next_player(pos: Position) -> int | None:
    return None if pos.to_move is None else (pos.to_move + 1) % 2


def _plan_sizes(rank: Any) -> tuple[PlanSize, PlanSize]:
    """The best plans' ranks of a plans row: (strategist to move, opponent to move)."""
    from ghostdb.reports import PlanSize

    return (
        PlanSize(rank.mover_lossiness, rank.mover_outcomes, rank.mover_letters),
        PlanSize(rank.waiter_lossiness, rank.waiter_outcomes, rank.waiter_letters),
    )


def _missing_plans(name: str, rules: Rules) -> MissingPlans:
    """A solution stored before schema revision 0002 has no plans until solved again."""
    return MissingPlans(
        f"the stored solution of {name} for {rules.describe()} has no plans (it predates "
        f"them): run `ghostdb solve {name}{rules.flags()} --force`"
    )


def _position(
    name: str,
    game: Game,
    key: str,
    rows: Sequence[Any],
    candidates: list[tuple[str, str]],
) -> Position:
    """A Position from position rows (fields as `queries.POSITION_FIELDS`): the one at
    ``key`` and those one move away."""
    by_key = {r[0]: r for r in rows}
    head = by_key[key]
    is_final = head[3] == 0
    plays: list[Play] = []
    notation = {}
    if not is_final:  # the game is over here: continuations are no plays
        for move, child in candidates:
            r = by_key.get(child)
            if r is not None and child != key:
                notation[child] = move
                plays.append(Play(move, child, Outcome(r[2]), r[3], r[3] == 0, _seats(r[7]), r[8]))
    best_next = head[4]
    return Position(
        name=name,
        game=game.name,
        rules=game.key,
        fragment=key,
        outcome=Outcome(head[2]),
        game_length=head[3],
        best_move=None if best_next is None else notation.get(best_next),
        winning_moves=head[5],
        drawing_moves=head[6],
        is_final=is_final,
        ending=game.ending(key) if is_final else None,
        reachable=bool(head[1]),
        to_move=game.to_move(key),
        plays=tuple(plays),
        safe_seats=_seats(head[7]),
        label=head[8],
    )


_HIGHEST = "\U0010ffff"
_OUTCOMES = {o.value: o for o in Outcome}
# A NamedTuple made from a tuple of its fields in order: no argument parsing.
_new = tuple.__new__


def _extended_position(name: str, game: Game, key: str, rows: Sequence[Any]) -> Position:
    """`_position` for plain Ghost's range read: the head row first, then its plays in
    key order, which is move order (each play's move is its last letter).

    Built as `_position` builds it, but from tuples of the fields in their declared
    order: the NamedTuples' keyword constructors would add a tenth to a lookup (a test
    compares the two builds)."""
    head = rows[0]
    length = head[3]
    is_final = length == 0
    plays: tuple[Play, ...] = ()
    if not is_final:
        plays = tuple(
            [
                _new(
                    Play,
                    (
                        r[0][-1],
                        r[0],
                        _OUTCOMES[r[2]],
                        r[3],
                        r[3] == 0,
                        None if r[7] is None else _seats(r[7]),
                        r[8],
                    ),
                )
                for r in rows[1:]
            ]
        )
    best_next = head[4]
    return _new(
        Position,
        (
            name,
            game.name,
            game.key,
            key,
            _OUTCOMES[head[2]],
            length,
            None if best_next is None else best_next[-1],
            head[5],
            head[6],
            is_final,
            game.ending(key) if is_final else None,
            bool(head[1]),
            game.to_move(key),
            plays,
            None if head[7] is None else _seats(head[7]),
            head[8],
        ),
    )


def _seats(mask: int | None) -> tuple[int, ...] | None:
    """The seats of a safe-seat bit mask (None: a two-player solution)."""
    if mask is None:
        return None
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)


def _dictionary_info(row: Any) -> DictionaryInfo:
    from ghostdb.reports import DictionaryInfo

    return DictionaryInfo(
        name=row.name,
        source=row.source,
        sha256=row.sha256,
        word_count=row.word_count,
        alphabet=row.alphabet,
        ingested_at=row.ingested_at,
        report=json.loads(row.report),
    )


def _solution_info(row: Any, interrupted: bool = False) -> SolutionInfo:
    from ghostdb.reports import SolutionInfo

    return SolutionInfo(
        id=row.id,
        name=row.name,
        game=row.game,
        rules=row.rules,
        status="interrupted" if interrupted else row.status,
        started_at=row.started_at,
        finished_at=row.finished_at,
        word_count=row.word_count,
        fragment_count=row.fragment_count,
        reachable_count=row.reachable_count,
        solver_version=row.solver_version,
        seconds=row.seconds,
        has_plans=bool(row.has_plans),
        error=(
            "interrupted: the solving process ended before publishing" if interrupted else row.error
        ),
    )
