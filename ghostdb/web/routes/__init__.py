"""The API, one router a resource: `catalogue` (the games, the solutions, a name's
report, compare), `play` (a position, the computer's move), `plans` (against a common
player, puzzles, analysis, lines, strategies, openings) and `decisive` (decisive words,
why two dictionaries differ).  `ghostdb.web.app` assembles them."""
