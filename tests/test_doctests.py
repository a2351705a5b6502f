"""The façade's examples are true: every ``>>>`` example in the docstrings of the `Store`
(ghostdb/store/store.py) and the `Solution` (ghostdb/store/answers/solution.py) runs, and
prints what it shows.

Each docstring runs on its own: in a fresh folder holding the repository's small word
lists (``five.txt``, ``mixed.txt``, ``deutsch.txt``), with ``store``, a copy of a store
with five.txt (ghost green tan tree tries) ingested and solved under Ghost's rules
(ghost/3), and ``five``, that solution's handle (``store.solution("five")``).  So an
example may write (solve, ingest, pack) without another's seeing it.
"""

from __future__ import annotations

import copy
import doctest
import inspect
import shutil
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, copy_db

from ghostdb import open_store
from ghostdb.store import Solution, Store
from ghostdb.store import store as store_module
from ghostdb.store.answers import solution as solution_module
from ghostdb.store.answers.handle import Handle

MODULES = (store_module, solution_module)
FLAGS = doctest.NORMALIZE_WHITESPACE  # a long answer may be shown over several lines


def docstrings() -> list[doctest.DocTest]:
    """Every docstring of the modules that holds an example."""
    finder = doctest.DocTestFinder()
    return [test for module in MODULES for test in finder.find(module) if test.examples]


def shown(test: doctest.DocTest) -> str:
    """The docstring's name as a test's: ``Store.solve``, ``store`` for the module's."""
    return test.name.removeprefix("ghostdb.store.").removeprefix("answers.").split(".", 1)[-1]


DOCSTRINGS = docstrings()

NEEDS = {
    "Store.export_parquet": ("pyarrow", "parquet"),
    "Solution.against": ("wordfreq", "freq"),  # common:N players
    "Solution.vocabularies": ("wordfreq", "freq"),
    "Solution.rank_common_words": ("wordfreq", "freq"),
}
"""The examples that need an extra: (the module, the extra that installs it)."""
"""The examples that need an optional extra (the dev extra has them all)."""


@pytest.fixture(scope="session")
def five_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store the examples run on, built once a worker; each example has a copy."""
    path = tmp_path_factory.mktemp("doctests") / "ghost.db"
    with open_store(path, create=True) as store:
        store.ingest(OWN_WORDLISTS / "five.txt")
        store.solve("five")
    return path


def run_examples(
    test: doctest.DocTest, five_db: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[doctest.TestResults, str]:
    """Run ``test`` in ``folder`` on a copy of ``five_db``: doctest's results and report."""
    for words in OWN_WORDLISTS.glob("*.txt"):
        shutil.copy(words, folder)
    copy_db(five_db, folder / "examples.db")
    monkeypatch.chdir(folder)
    report: list[str] = []
    with open_store(folder / "examples.db") as store:
        test = copy.copy(test)
        test.globs = {"store": store, "five": store.solution("five")}
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        results = runner.run(test, out=report.append)
    return results, "".join(report)


@pytest.mark.parametrize("test", DOCSTRINGS, ids=[shown(t) for t in DOCSTRINGS])
def test_the_example_prints_what_it_shows(
    test: doctest.DocTest, five_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert any(example.want for example in test.examples), (
        f"{test.name}: no example shows what it prints, so none can fail"
    )
    skipped = [e.source for e in test.examples if e.options.get(doctest.SKIP)]
    assert not skipped, f"{test.name}: examples that never run: {skipped}"
    if shown(test) in NEEDS:
        module, extra = NEEDS[shown(test)]
        pytest.importorskip(module, reason=f"pip install -e '.[{extra}]' to run it")
    results, report = run_examples(test, five_db, tmp_path, monkeypatch)
    assert results.attempted == len(test.examples)
    assert results.failed == 0, report


def test_an_example_that_prints_something_else_fails(
    five_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness reports a wrong example: its output is compared, not just run."""
    test = next(t for t in DOCSTRINGS if t.name.endswith("Store.dictionaries"))
    wrong = copy.copy(test)
    wrong.examples = [copy.copy(e) for e in test.examples]
    wrong.examples[-1].want = "['a dictionary that is not there']\n"
    results, report = run_examples(wrong, five_db, tmp_path, monkeypatch)
    assert results.failed == 1 and "a dictionary that is not there" in report


def test_the_examples_are_code_in_the_manual() -> None:
    """The manual renders docstrings as Markdown (mkdocstrings), where only an indented
    block is code: an example flush with its text would be a quotation."""
    flush = [
        f"{shown(test)}: {line}"
        for test in DOCSTRINGS
        for line in inspect.cleandoc(test.docstring or "").splitlines()
        if line.lstrip().startswith(">>>") and not line.startswith("    ")
    ]
    assert not flush, "\n".join(flush)


STORE_WITHOUT = {
    "close": "ends the store's use: every example's store is closed by its `with`",
    "warm": "starts a thread reading the file into the system's cache: nothing to show",
    "run_solves": "starts worker processes, a second each: `ghostdb world` (test_world.py)",
}
"""The public methods of `Store` with no example, and why."""

SOLUTION_WITHOUT: dict[str, str] = {}
"""The public methods of `Solution` with no example, and why."""


def public_members(cls: type) -> dict[str, object]:
    """The public methods and properties ``cls`` defines itself."""
    return {
        name: member.fget if isinstance(member, property) else member
        for name, member in vars(cls).items()
        if not name.startswith("_") and (callable(member) or isinstance(member, property))
    }


@pytest.mark.parametrize(
    ("cls", "without"),
    [(Store, STORE_WITHOUT), (Solution, SOLUTION_WITHOUT)],
    ids=["Store", "Solution"],
)
def test_every_public_method_has_an_example(cls: type, without: dict[str, str]) -> None:
    methods = public_members(cls)
    assert set(without) <= set(methods), "an exception for a method that is not there"
    missing = [
        name
        for name, method in methods.items()
        if name not in without and ">>>" not in (inspect.getdoc(method) or "")
    ]
    assert not missing, f"{cls.__name__}'s methods without an example: {missing}"


def test_the_solutions_docstring_shows_the_lookups_it_inherits() -> None:
    """`lookup` and its kin are `Handle`'s (the reading core that the modules beneath are
    handed): `Solution`'s own docstring has their examples."""
    inherited = ("lookup", "lookup_many", "get", "openings")
    assert set(inherited) <= set(public_members(Handle))
    examples = "".join(e.source for t in DOCSTRINGS if shown(t) == "Solution" for e in t.examples)
    missing = [name for name in inherited if f"five.{name}(" not in examples]
    assert not missing, f"Solution's docstring has no example of {missing}"
