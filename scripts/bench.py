"""Speed and memory figures for ghostdb, each printed beside its target.

    python scripts/bench.py [--quick] [--scale] [--all] [--postgres URL] [--wordlist PATH]

The rows (the word list is ENABLE, ../shared/wordlists/enable1.txt, unless --wordlist):

- Ghost, words of 3+ letters: `ghostdb ingest` then `ghostdb solve` as two fresh processes,
  side by side with the notebook peer (../shared/peers/notebook_ghost.py, every fragment),
  alternating which goes first, median of 9 pairs;
- SuperDuperGhost: `ghostdb solve --rules superduper` (the list already ingested) side by
  side with the peer's, median of 3 pairs;
- lookups through the Python API, one at a time and a thousand at a time (`lookup_many`);
  `ghostdb lookup NAME gho` as a fresh process side by side with a bare Python process
  that makes an SQLAlchemy engine on the file and reads the same row, median of 21 pairs
  (target 1.15), and with valgrind installed the two's instructions (callgrind: a count
  the machine's load does not move); `--only startup` measures only these, the list
  solved first;
- Chopsticks under four rule sets and tic-tac-toe; Connect Four 4 x 4 and 5 x 4;
- Insert and Anagram Ghost, and Ghost for three players, on the word list;
- Debian's wamerican-insane list (/usr/share/dict/american-english-insane);
- Debian's Polish list (/usr/share/dict/polish): ingest, Ghost/3 and SuperDuperGhost/3
  solved, their bytes a position in memory and on disk, what keeping their whole-solution
  answers added to the solve, every whole-solution read command (report, survey, compare,
  openings --words, strategy) in a fresh process once kept against `ghostdb lookup`, each
  solution packed (`ghostdb pack`: bytes a position, target 2) and probed in a fresh
  process against `ghostdb lookup`, and verify of each;
- whole plans, a comparison of two rule sets, self-play;
- `ghostdb verify` of the stored Ghost and SuperDuperGhost solutions, best of 3;
- `ghostdb solve`, `ghostdb verify NAME` and `ghostdb verify FILE` (its pack) in turn, 3
  rounds, on SuperDuperGhost/3 and Debian's Polish Ghost/3: each verify's median against
  the solve's (targets 1.5 for the pack, 2 for the store) and its peak memory against
  the solve's (not with --quick);
- `ghostdb solve --all` (six rule sets) with --jobs 1 and --jobs 2;
- with --postgres URL, the Ghost solve and lookups on that server (and the bare round trip
  through the driver that one lookup at a time cannot beat), Polish there too.

--quick leaves out the SuperDuperGhost rows, the variants, Connect Four 5 x 4, --jobs and the
big list.
--scale adds a table of solve time, peak memory and database size against positions for
lists of growing size (every 16th, 8th, 4th, 2nd word of american-english-insane and of
Debian's Polish list, and the whole lists; the shared lists), Ghost and SuperDuperGhost, and
draws it to docs/figures/scaling.png (with matplotlib).  It takes about 11 minutes on 2
idle cores, 9 of them for Polish: SuperDuperGhost on its subsets about 8 (the whole list
alone 3 minutes and 6.5 GB of memory); each database (up to 2 GB) is deleted once measured.
--world builds the world store (`ghostdb world --jobs 2`, the shared lists added): its time
and peak memory, and the survey of it against a lookup; --all adds it too.  With --postgres
URL it is built again on that server, in a database of its own (ghostdb_bench_world, made
anew), with the size the server gives it.  --only world measures nothing else;
--only world-postgres only the server's; --only packs, --only learning, --only polish and
--only startup and --only verify only those rows (verify: about 5 minutes, 4 of
them Polish's); --only rooms the rooms under load (with --postgres, two servers too).
--all adds --scale and the benchmarks of scripts/bench_web.py (the web server): a hook that
defines ``rows()`` returning (measure, result, target, passed) tuples joins the table; any
other is run as a script and its output printed as it is.

Everything that touches ghostdb runs in a child process: the `ghostdb` command, or this
script with ``--child`` for what the Python API measures.  A child's peak memory is its
own ru_maxrss as os.wait4 reports it; a child also inherits its parent's peak at the exec,
so this process imports nothing but the standard library while it measures.

This script only parses the command line: the measures are the package scripts/benchmarks/,
one module per area sharing one runner (its docstring names them), and a child's task is
found in the registry the area modules make up (`benchmarks.suite.TASKS`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks.runner import DEFAULT_LIST, BenchError, answer_child, ghostdb, run
from benchmarks.suite import AREAS, TASKS
from benchmarks.suite import main as measure

# BenchError, ghostdb and run stay importable from here: scripts/rulesets.py uses them.
__all__ = ["BenchError", "arguments", "ghostdb", "main", "run"]


def arguments() -> argparse.ArgumentParser:
    """The command line: what to measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", type=Path, default=DEFAULT_LIST)
    parser.add_argument("--lookups", type=int, default=100_000, help="lookups per round")
    parser.add_argument(
        "--quick", action="store_true", help="leave out the SuperDuperGhost rows and the big list"
    )
    parser.add_argument(
        "--scale", action="store_true", help="also solve lists of growing size and draw a figure"
    )
    parser.add_argument("--postgres", metavar="URL", help="also solve and look up on this server")
    parser.add_argument(
        "--all", action="store_true", help="--scale, and the other scripts/bench_*.py"
    )
    parser.add_argument(
        "--world", action="store_true", help="also build the world store (ghostdb world)"
    )
    parser.add_argument(
        "--only",
        choices=AREAS,
        help="measure only the world store (on SQLite and the --postgres server, or on the "
        "server), or only the word list's packs and the offline site, or only Debian's "
        "Polish list (its solves, kept answers, packs, probes, Parquet and verify), or only "
        "the rooms under load (two servers with --postgres), or only `ghostdb lookup`'s "
        "start-up against a bare read, or only verify of a store and of a pack beside the "
        "solve (SuperDuperGhost/3, Anagram Ghost/3, Polish Ghost/3)",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    return parser


def main() -> None:
    args = arguments().parse_args()
    if args.child:
        answer_child(TASKS, args.child)
    else:
        measure(args)


if __name__ == "__main__":
    main()
