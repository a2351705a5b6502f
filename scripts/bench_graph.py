"""CPU time and peak memory of building position graphs, one child process per row.

    python scripts/bench_graph.py [--wordlist PATH ...] [--builder NAME ...] [--runs N]

Builders: ghost, super, superduper (``build_graph``), insert, anagram.  Each row is the
best CPU time of ``--runs`` builds in one child process, and that process's peak
resident memory less its peak before the first build (the word list loaded).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LIST = ROOT.parent / "shared" / "wordlists" / "enable1.txt"
BUILDERS = ("ghost", "super", "superduper", "insert", "anagram")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(wordlist: str, builder: str, min_length: int, runs: int) -> dict[str, float]:
    """Child process: build ``runs`` times; print the best CPU time and peak memory."""
    from ghostdb.games.ghost import graph
    from ghostdb.games.ghost.rules import Rules, Variant
    from ghostdb.wordlists import load

    words = load(wordlist).words
    before = peak_mb()
    if builder in ("insert", "anagram"):
        fn = getattr(graph, f"build_{builder}_graph")

        def build() -> graph.Graph:
            return fn(words, min_length)
    else:
        rules = Rules(Variant(builder), min_length)

        def build() -> graph.Graph:
            return graph.build_graph(words, rules)

    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        g = build()
        best = min(best, time.process_time() - t0)
        nodes, edges = g.size, len(g.edge_parent)
        del g
    return {
        "cpu": best,
        "peak_mb": peak_mb(),
        "build_mb": peak_mb() - before,
        "nodes": nodes,
        "edges": edges,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", action="append", default=[])
    parser.add_argument("--builder", action="append", choices=BUILDERS, default=[])
    parser.add_argument("--min-length", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        wordlist, builder, min_length, runs = args.child
        print(json.dumps(measure(wordlist, builder, int(min_length), int(runs))))
        return
    print(f"{'word list':<24} {'builder':<11} {'nodes':>10} {'edges':>10} {'CPU s':>7} "
          f"{'peak MB':>8} {'build MB':>8}")  # fmt: skip
    for wordlist in args.wordlist or [str(DEFAULT_LIST)]:
        for builder in args.builder or BUILDERS:
            out = subprocess.run(
                [sys.executable, __file__, "--child", wordlist, builder,
                 str(args.min_length), str(args.runs)],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            r = json.loads(out)
            print(
                f"{Path(wordlist).name:<24} {builder:<11} {r['nodes']:>10,} {r['edges']:>10,} "
                f"{r['cpu']:>7.3f} {r['peak_mb']:>8.0f} {r['build_mb']:>8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
