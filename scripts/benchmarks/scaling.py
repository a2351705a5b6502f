"""The big lists: Debian's wamerican-insane list solved for Ghost and SuperDuperGhost
(`big_list`), and --scale's table of solve time, peak memory and database size against
positions for lists of growing size (every 16th, 8th, 4th, 2nd word of
american-english-insane and of Debian's Polish list, and the whole lists; the shared
lists), drawn to docs/figures/scaling.png with matplotlib."""

from __future__ import annotations

from pathlib import Path

from .runner import (
    BIG_LIST,
    BIG_LIST_PACKAGE,
    DUPER,
    GHOST,
    POLISH,
    POLISH_PACKAGE,
    SCRIPTS,
    SHARED,
    SHARED_LISTS,
    VARIANTS,
    Bench,
    BenchError,
    Row,
    Solved,
    at_most,
    list_name,
    machine,
    mb,
    print_table,
    progress,
    secs,
)
from .solving import solve_list

SUBSETS = (16, 8, 4, 2, 1)  # --scale: every k-th word of the big list and of Polish
FIGURE = SCRIPTS.parent / "docs" / "figures" / "scaling.png"


def big_list(bench: Bench) -> list[Row]:
    """Ghost and SuperDuperGhost on the largest Debian list."""
    name = list_name(BIG_LIST)
    if not BIG_LIST.is_file():
        return [Row(name, note=f"skipped: no {BIG_LIST} (apt-get install {BIG_LIST_PACKAGE})")]
    rows = []
    for key, limit in ((GHOST, 3.0), (DUPER, 8.0)):  # issue 21: SuperDuperGhost <= 8 s
        s = solve_list(bench, BIG_LIST, key)
        note = f"{s.words:,} words, {s.positions:,} positions; process {secs(s.wall)}"
        title = f"{name} {VARIANTS[key]}/3"
        rows.append(at_most(f"{title} solve + persist", s.seconds, limit, secs, note))
        if key == DUPER:
            rows.append(at_most(f"{title} solve: peak memory", s.peak_mb, 600, mb))
        else:
            rows.append(Row(f"{title} solve: peak memory", mb(s.peak_mb)))
    return rows


SCALED = (  # --scale: (family, the whole list, its Debian package); subsets of each
    ("English", BIG_LIST, BIG_LIST_PACKAGE),
    ("Polish", POLISH, POLISH_PACKAGE),
)


def subsets(source: Path, tmp: Path) -> list[Path]:
    """Every k-th word of ``source`` for each k of SUBSETS (written once, streaming), the
    whole list for k = 1; the fewest words first."""
    parts = {k: tmp / f"{list_name(source)}-1-in-{k}.txt" for k in SUBSETS if k > 1}
    handles = {k: path.open("w", encoding="utf-8") for k, path in parts.items()}
    with source.open(encoding="utf-8") as lines:
        for i, line in enumerate(lines):
            for k, handle in handles.items():
                if i % k == 0:
                    handle.write(line)
    for handle in handles.values():
        handle.close()
    return [parts.get(k, source) for k in SUBSETS]


def scale_lists(tmp: Path) -> tuple[dict[str, list[Path]], list[str]]:
    """The lists of each family: the subsets of its list (the shared lists join the
    English ones); why a family's list is missing."""
    lists: dict[str, list[Path]] = {}
    missing = []
    for family, source, package in SCALED:
        if source.is_file():
            lists[family] = subsets(source, tmp)
        else:
            missing.append(f"skipped: no {source} (apt-get install {package})")
    shared = [p for p in (SHARED / "wordlists" / f for f in SHARED_LISTS) if p.is_file()]
    lists["English"] = lists.get("English", []) + shared
    return lists, missing


Scaling = dict[tuple[str, str], list[Solved]]
"""Per rule set and family of lists, the solves of every list, smallest first."""


def scaling(bench: Bench) -> tuple[Scaling, list[str]]:
    """Solve each list for Ghost and SuperDuperGhost, each in its own process; what failed.
    The databases of these solves are deleted once measured, but the one of a solve
    measured before (the big list's, by `big_list`) is reused."""
    lists, missing = scale_lists(bench.tmp)
    found: Scaling = {}
    for key, variant in VARIANTS.items():
        for family, paths in lists.items():
            runs = found[(key, family)] = []
            for path in paths:
                progress(f"--scale: {path.name}, {variant}")
                try:
                    runs.append(solve_list(bench, path, key, drop=True))
                except BenchError as exc:
                    missing.append(f"{path.name}, {variant}: {exc}")
            runs.sort(key=lambda s: s.positions)
    return found, missing


def print_scaling(found: Scaling, missing: list[str]) -> None:
    print(
        "\nscaling: solve + persist as Store.solve reports it; the solve process's peak "
        "memory;\nthe SQLite database after the solve (the words, positions and plans)\n"
    )
    print_table(
        ("rules", "list", "words", "positions", "seconds", "peak MB", "database MB"),
        (
            (
                VARIANTS[key],
                s.name,
                f"{s.words:,}",
                f"{s.positions:,}",
                f"{s.seconds:.2f}",
                f"{s.peak_mb:,.0f}",
                f"{s.db_mb:,.0f}",
            )
            for (key, _), runs in found.items()
            for s in runs
        ),
        right={2, 3, 4, 5, 6},
    )
    for line in missing:
        print(line)


def draw(found: Scaling) -> str:
    """Seconds, peak MB and database MB against positions, log-log, a line per rule set
    and family of lists (colour: rule set; dashed: Polish); what was done."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    except ImportError:
        return "no figure: matplotlib is not installed (pip install matplotlib)"
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), constrained_layout=True)
    panels = (
        (axes[0], "seconds", "solve + persist (s)"),
        (axes[1], "peak_mb", "peak memory of the solve process (MB)"),
        (axes[2], "db_mb", "SQLite database after the solve (MB)"),
    )
    colours = {key: f"C{i}" for i, key in enumerate(VARIANTS)}
    for ax, attr, ylabel in panels:
        for (key, family), runs in found.items():
            if not runs:
                continue
            ax.plot(
                [s.positions for s in runs],
                [getattr(s, attr) for s in runs],
                marker="o",
                color=colours[key],
                linestyle="--" if family == "Polish" else "-",
                label=f"{VARIANTS[key]}, {family}",
            )
        ax.set(xscale="log", yscale="log", xlabel="positions (fragments)", ylabel=ylabel)
        for axis, label in ((ax.xaxis, compact), (ax.yaxis, "{:,g}".format)):
            axis.set_major_locator(LogLocator(subs=(1, 2, 5)))  # plain numbers, not powers
            axis.set_major_formatter(FuncFormatter(lambda v, _, label=label: label(v)))
            axis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"ghostdb, words of 3+ letters: {machine()}", fontsize=9)
    FIGURE.parent.mkdir(exist_ok=True)
    fig.savefig(FIGURE, dpi=120)
    plt.close(fig)
    return f"figure: {FIGURE.relative_to(SCRIPTS.parent)}"


def compact(n: float) -> str:
    """20k, 1.5M."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if n >= size:
            return f"{n / size:g}{suffix}"
    return f"{n:g}"
