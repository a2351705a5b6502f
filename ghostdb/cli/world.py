"""`ghostdb world`: every Debian word list, solved under the world's rule sets, in one store."""

from __future__ import annotations

import sys
from contextlib import closing
from pathlib import Path
from typing import Annotated, Any

import typer

from ghostdb.cli.group import app, emit, fail, store_for
from ghostdb.cli.options import DbOption
from ghostdb.world import DEBIAN_LISTS, DICT_DIR, WORLD_RULES


@app.command()
def world(
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=64, help="Worker processes.")] = 2,
    dict_dir: Annotated[
        Path, typer.Option(help="Where Debian's word-list packages put their lists.")
    ] = DICT_DIR,
    add: Annotated[
        list[Path] | None,
        typer.Option("--add", metavar="FILE", help="Another word list to add (repeatable)."),
    ] = None,
    verify: Annotated[bool, typer.Option(help="Verify each solution once solved.")] = True,
    force: Annotated[bool, typer.Option(help="Solve again what is solved already.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    db: DbOption = None,
) -> None:
    """Build the world store: every Debian word list installed (and each --add list),
    solved under ghost/3, ghost/4, misère ghost/3, super/3 and superduper/3, each verified.
    Resumable: run it again after an interruption and it solves only what is missing."""
    found = [(entry, dict_dir / entry.file) for entry in DEBIAN_LISTS]
    missing = list(dict.fromkeys(e.package for e, path in found if not path.is_file()))
    found = [(e, path) for e, path in found if path.is_file()]
    for path in add or []:
        if not path.is_file():
            fail(f"no word list at {str(path)!r}: give the path of a word-list file")
    if not found and not add:
        fail(
            f"no Debian word list in {str(dict_dir)!r}: install some, e.g. `apt-get install "
            f"{' '.join(missing[:3])}`, or give --add FILE"
        )
    with store_for(db, create=True, write=True) as store:
        names = _ingest(store, found, add or [])
        tasks, skipped = store.plan_solves(
            names, WORLD_RULES, force=force, verify=verify, jobs=jobs
        )
        keeps = sum(t.keep_only for t in tasks)
        also = f", {keeps} published with answers to keep" if keeps else ""
        _say(
            f"{len(names)} lists, {len(names) * len(WORLD_RULES)} solutions: "
            f"{skipped} published already{also}, {len(tasks) - keeps} to solve with {jobs} "
            f"worker{'s' if jobs != 1 else ''}"
        )
        failed = _run(store, tasks, jobs, force, verify, quiet)
    if missing:
        _say(f"lists not installed: `apt-get install {' '.join(missing)}` adds them")
    if failed:
        fail(f"{failed} of {len(tasks)} solutions failed (above): run `ghostdb world` again")
    emit("the world store is complete: `ghostdb survey` compares every language")


def _ingest(store: Any, found: list[tuple[Any, Path]], extra: list[Path]) -> list[str]:
    """Store every list (one stored as it is already: nothing to do); the stored names."""
    names = []
    for entry, path in found:
        result = store.ingest(
            path,
            name=entry.name,
            keep_capitalised=entry.capitalised,
            language=entry.language,
            replace=True,
        )
        _report_ingest(result)
        names.append(result.dictionary.name)
    for path in extra:
        result = store.ingest(path, replace=True)
        _report_ingest(result)
        names.append(result.dictionary.name)
    return list(dict.fromkeys(names))


def _report_ingest(result: Any) -> None:
    if result.action != "unchanged":
        _say(f"{result.dictionary.name}: {result.message}")


def _run(store: Any, tasks: list[Any], jobs: int, force: bool, verify: bool, quiet: bool) -> int:
    """Run the solves, a line each as it ends (and bars on a terminal); how many failed."""
    try:
        with _Bars(len(tasks), quiet) as bars:
            return _each(store, tasks, jobs, force, verify, bars)
    except KeyboardInterrupt:
        from ghostdb.errors import Interrupted

        raise Interrupted(
            "interrupted: what was published is kept; `ghostdb world` again solves the rest"
        ) from None


def _each(store: Any, tasks: list[Any], jobs: int, force: bool, verify: bool, bars: Any) -> int:
    """A line for each solve as it ends; how many failed (or verified with problems)."""
    failed = 0
    ended = store.run_solves(tasks, jobs=jobs, force=force, verify=verify, progress=bars.stage)
    # closing: a Ctrl-C here, between two solves' ends, stops the workers as one in the
    # wait for them does.
    with closing(ended):
        for n, done in enumerate(ended, 1):
            failed += _said(done, f"[{n}/{len(tasks)}] {done.task.name} {done.task.rules.key}")
            bars.ended(done.task)
    return failed


def _said(done: Any, head: str) -> bool:
    """Say how a task ended; whether it failed (or verified with problems)."""
    if done.error is not None:
        _say(f"{head}: failed: {done.error}")
        return True
    checked, bad = "", False
    if done.verdict is not None:
        bad = not done.verdict.ok
        checked = ", VERIFY FOUND PROBLEMS" if bad else ", verified"
    if done.task.keep_only:
        _say(f"{head}: published already, its answers kept{checked} ({done.seconds:.1f} s)")
    else:
        _say(
            f"{head}: {done.result.fragment_count:,} positions in "
            f"{done.result.seconds:.1f} s{checked} ({done.seconds:.1f} s in all)"
        )
    return bad


def _say(text: str) -> None:
    typer.echo(text, err=True)


STAGES = {
    "build": "building positions",
    "solve": "solving",
    "write": "writing rows",
    "publish": "publishing",
    "keep": "keeping answers",
    "verify": "verifying",
}


class _Bars:
    """Progress on a terminal (stderr): the whole run, and a bar for each solve running
    with its stage; nothing elsewhere."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.quiet = total, quiet
        self.progress: Any = None
        self.overall: Any = None
        self.rows: dict[int, Any] = {}
        self.gone: set[int] = set()  # a report that comes after its solve's end is late

    def __enter__(self) -> _Bars:
        if self.quiet or not sys.stderr.isatty() or not self.total:
            return self
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.progress.start()
        self.overall = self.progress.add_task("world store", total=self.total)
        return self

    def stage(self, task: Any, stage: str, done: int, total: int) -> None:
        """A running solve's stage (called from the listener's thread: rich locks)."""
        if self.progress is None or id(task) in self.gone:
            return
        label = f"  {task.name} {task.rules.key}: {STAGES.get(stage, stage)}"
        row = self.rows.get(id(task))
        if row is None:
            self.rows[id(task)] = self.progress.add_task(label, total=total, completed=done)
        else:
            self.progress.update(row, description=label, total=total, completed=done)

    def ended(self, task: Any) -> None:
        if self.progress is None:
            return
        self.gone.add(id(task))
        row = self.rows.pop(id(task), None)
        if row is not None:
            self.progress.remove_task(row)
        self.progress.advance(self.overall)

    def __exit__(self, *_exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()
