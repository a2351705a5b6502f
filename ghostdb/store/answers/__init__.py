"""The questions a published solution answers, read from its stored rows: `handle`
(the reading core each concern is handed) and `solution` (the handle with every
question on it); `lookups` (a position and its plays), `walks` (lines, and the walk
plans share, a lookup a step), `plan_rows` (a plan as the positions' rows keep it),
`plan_walks` (a plan from any position), `plans` (plans from the start and the
openings', kept), `figures` (one solution's headline figures, kept), `census` (the
figures worked out from the rows), `report_rows` (a rule set's row of the report),
`summaries` (every rule set of a name, the survey, the catalogue), `kept`
(whole-solution answers stored as JSON) and `keeping` (what is kept at publish, and
worked out again for `verify`), `comparing` (two solutions side by side), `decisive`
(decisive words), `puzzles`, `vocabularies` (a ``common:N`` player's words) and
`dictionaries` (the word lists: ingested, listed, read)."""
