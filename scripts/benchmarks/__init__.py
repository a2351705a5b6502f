"""ghostdb's benchmark, one module per area sharing one runner; `scripts/bench.py` parses
the command line and hands it to `suite.main` (or, in a child, runs a task of
`suite.TASKS`).

- runner: what a row says and its units, running a child (`run`, `child`) with its time
  and peak memory, two commands side by side (`side_by_side`, `versus`), the `Bench`
  that keeps the databases of a run, the tables printed, the child's side (`answer_child`);
- suite: the areas of `--only`, every row of a full run in its order, the registry of
  child tasks built from the area modules' `TASKS`, and the run from header to tables;
- solving: a list ingested and solved in a child (`ingest`, `solve_list`), shared by the
  areas, and its tasks;
- enable: the word list's Ghost/3 and SuperDuperGhost/3 solves against the notebook peer,
  Insert and Anagram Ghost and three players, `solve --all --jobs 1` and `2`;
- games: Chopsticks, tic-tac-toe and Connect Four solved;
- lookups: the API's lookup rates and `ghostdb lookup`'s start-up against bare Python
  (`--only startup`);
- verify: `ghostdb verify` of the word list's stored solutions;
- reads: whole plans, a comparison of two rule sets and self-play over the API;
- decisive: decisive words of the stored Ghost/3 and SuperDuperGhost/3;
- packs: the word list's packs, the offline site in Chromium, probes of a pack;
- polish: Debian's Polish list (`--only polish`): solves, kept answers, packs, Parquet,
  verify;
- learning: analysis, puzzles and common players (`--only learning`);
- world: the world store on SQLite and PostgreSQL (`--only world`, `world-postgres`);
- postgres: the solves and lookups on a PostgreSQL server (`--postgres URL`);
- scaling: the big English list's rows, and `--scale`'s table and figure;
- hooks: the other scripts/bench_*.py that `--all` runs;
- rooms: the rooms' load (`--only rooms`), a placeholder without rows yet.

Every module imports only the standard library at its top (ghostdb inside the child
tasks): the measuring process stays small, as a child inherits its parent's peak.
"""
