"""The games: `base` says what a game declares, `registry` lists them, one module each.

`ghost` is Ghost and its variants over a dictionary (a package: the rules, the word graph,
the decisive words); `chopsticks` a game whose moves can cycle, so endless play is a draw;
`tictactoe` one whose play can end with nobody winning (a tie); `connectfour` Connect Four
on boards of 4 to 7 columns and rows.  Pure: no database.  Beside the modules,
``scripts/`` holds each game's moves in JavaScript for the offline site (a test holds them
to the Python).
"""
