"""Every check of what the store holds, none trusting the solver that wrote it:
`solutions` (`verify`: each stored value re-derived from the rows one move on),
`stored` (what those checks share: the rows read as arrays, the verdict
and its findings), `levels` (SQLite's rows read a level at a time, each column of a level
one text), `plans` (each stored plan rank against the ranks one move away),
`kept` (the kept answers — figures, plans, comparisons, puzzles, common words — worked
out again), `decisive` (kept decisive words re-evaluated) and `packs` (a pack against
the solution it was written from)."""
