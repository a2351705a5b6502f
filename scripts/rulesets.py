"""Every Ghost rule set on one big word list: the manual's "Polish under every rule set".

    python scripts/rulesets.py [WORDLIST] [--only RULES ...] [--timeout SECONDS]

WORDLIST defaults to Debian's Polish list (/usr/share/dict/polish, from wpolish).  For
each rule set, a fresh SQLite database in a temporary directory: `ghostdb ingest` of the
list, `VACUUM`; `ghostdb solve` of the rule set as a fresh process (its own time, as the
solve job records it, and the process's peak resident memory); `VACUUM` again and the
bytes the solution adds; then `ghostdb verify` of it as a fresh process (its time, its
peak, and whether it is clean).  A rule set that cannot fit in this machine's memory is
refused by `ghostdb solve` before it writes anything: its row gives the refusal.  Bytes a
position: the solve's peak over its positions, and the bytes the solution adds over them.
MB are 10^6 bytes.  Prints the markdown table; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import BenchError, ghostdb
from bench import run as measured
from sizes import SizesError, vacuumed_size

POLISH = Path("/usr/share/dict/polish")
NAME = "biglist"
RULES = (
    "ghost/3",
    "ghost/4",
    "super/3",
    "super/4",
    "superduper/3",
    "superduper/4",
    "insert/3",
    "anagram/3",
)
TIMEOUT = 1800.0


@dataclass(frozen=True)
class Row:
    rules: str
    positions: int = 0
    seconds: float = 0.0
    peak_mb: float = 0.0
    added: int = 0
    """Bytes the solution adds after VACUUM."""
    verify_seconds: float = 0.0
    verify_peak_mb: float = 0.0
    refused: str = ""
    """The one line `ghostdb solve` refused the rule set with."""


def solve_row(wordlist: Path, rules: str, timeout: float) -> Row:
    """Ingest, solve, measure and verify one rule set in a fresh database."""
    variant, min_length = rules.split("/")
    flags = ("--rules", variant, "--min-length", min_length)
    with tempfile.TemporaryDirectory(prefix="ghostdb-rulesets-") as tmp:
        db = str(Path(tmp) / "rules.db")
        measured(ghostdb("ingest", str(wordlist), "--name", NAME, "--db", db), timeout)
        listed = vacuumed_size(Path(db))
        try:
            solved = measured(ghostdb("solve", NAME, *flags, "--json", "--db", db), timeout)
        except BenchError as e:  # refused before anything is written, or failed
            return Row(rules, refused=str(e).split(": ", 1)[-1].removeprefix("error: "))
        (job,) = json.loads(solved.out)
        added = vacuumed_size(Path(db)) - listed
        # `run` raises unless verify exits 0, which it does only when the solution is clean.
        checked = measured(ghostdb("verify", NAME, *flags, "--db", db), timeout)
        return Row(
            rules,
            positions=int(job["positions"]),
            seconds=float(job["seconds"]),
            peak_mb=solved.peak_mb,
            added=added,
            verify_seconds=checked.seconds,
            verify_peak_mb=checked.peak_mb,
        )


def table(rows: Sequence[Row]) -> list[str]:
    """The manual's markdown table."""
    lines = [
        "| rules | positions | solve + persist | peak memory | bytes a position in memory "
        "| database | bytes a position on disk | verify |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r.refused:
            lines.append(f"| `{r.rules}` | refused: {r.refused} | | | | | | |")
            continue
        in_memory = r.peak_mb * 2**20 / r.positions
        lines.append(
            f"| `{r.rules}` | {r.positions:,} | {r.seconds:.1f} s | {r.peak_mb:,.0f} MB "
            f"| {in_memory:,.0f} | {r.added / 1e6:,.0f} MB | {r.added / r.positions:.1f} "
            f"| clean, {r.verify_seconds:.0f} s, {r.verify_peak_mb:,.0f} MB |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wordlist", nargs="?", type=Path, default=POLISH)
    parser.add_argument("--only", nargs="+", metavar="RULES", choices=RULES, default=RULES)
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds a command may take")
    args = parser.parse_args(argv)
    if not args.wordlist.is_file():
        print(f"error: no word list {args.wordlist} (apt-get install wpolish)", file=sys.stderr)
        return 1
    rows = []
    try:
        for rules in args.only:
            print(f"{rules} ...", file=sys.stderr, flush=True)
            rows.append(solve_row(args.wordlist, rules, args.timeout))
    except (BenchError, SizesError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
