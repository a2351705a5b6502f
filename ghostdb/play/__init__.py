"""Playing a stored solution: the match engine, the computer players, a game's analysis.

Pure: every position comes from a lookup the caller hands in (the store's, or a pack's
probe), so nothing here imports a database or a renderer (the console game is
`ghostdb.cli.console`).

* `engine`: a match (its position, seats and turn) and the standard computer strategies;
  `seats` lists the players a seat may hold, light enough for a command's help.
* `vocabulary`: the players who know only a language's common words (``common:N``),
  and the trap.
* `analysis`: a played game's moves judged by the stored values (best, good, mistake,
  blunder).
* `rooms`: matches played together, refereed and graded (the rooms' pure referee).
"""
