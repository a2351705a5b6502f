"""The games: `base` says what a game declares, `registry` lists them; each game is its
module of moves beside the module of its rule sets and options, which every command
needs whatever it plays (the registry imports a game's moves only when it is played).

`ghost` is Ghost and its variants over a dictionary (a package: the rules in `ghost.rules`,
the word graph, the decisive words); `chopsticks` (rules: `chopsticks_rules`) a game whose
moves can cycle, so endless play is a draw; `tictactoe` (`tictactoe_rules`) one whose play
can end with nobody winning (a tie); `connectfour` (`connectfour_rules`) Connect Four on
boards of 4 to 7 columns and rows.  Pure: no database.  Beside the modules, ``scripts/``
holds each game's moves in JavaScript for the offline site (a test holds them to the
Python).
"""
