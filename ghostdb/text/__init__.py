"""Plain-text renderers: what the command line and the console print.

One module per thing rendered, each importing only `ghostdb.text.common` and the modules
it builds on, so a command compiles only what it prints: `positions` (a lookup, the
openings), `plans` (plans, trees, Graphviz, lines), `reports` (ingest, listings,
comparisons, reports, the survey), `matches` (games played), `analysis` (a played game's
analysis), `verdicts` (verify) and `rooms` (a room's events, for ``ghostdb join``).
"""
