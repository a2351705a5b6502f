"""The games: `base` says what a game declares, `registry` lists them; each game its
module of moves (`chopsticks`, `tictactoe`, `connectfour`, the package `ghost`) beside the
module of its rule sets and options (`chopsticks_rules`, `tictactoe_rules`,
`connectfour_rules`, `ghost.rules`), which every command needs whatever it plays."""
