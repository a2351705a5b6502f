"""Decisive words: which single-word edits change a position's outcome, and the fewest
edits that do, re-evaluated from stored values without solving again.  One algorithm a
move rule: `plain` for Ghost (a fragment is a prefix; exact fewest deletions) and
`infix` for SuperGhost and SuperDuperGhost (a fragment is any infix; it builds on
`plain`'s decider and bounds the fewest edits).  The game picks one
(`GhostGame.decider`); the store keeps their answers (`ghostdb.store.answers.decisive`)."""
