// The page's panels beside the game: lines and plans, the explorer, decisive words,
// puzzles, the report and the comparison. Loaded before app.js, which wires them to the
// page and whose helpers (api, el, table, mark, …) they call once the page is running.

// -- analysis: lines and plans -------------------------------------------------------------

async function showLine() {
  const out = $("#analysis");
  try {
    const found = await api(`/api/${enc(game.name)}/line`, { ...game.options, position: current().fragment });
    const lengthText = found.game_length === null ? "never ends" : plural(found.game_length, "move");
    const winner = winnerOf(found, game.moves.length);
    const verdict = winner === null ? `${found.outcome === "draw" ? "a draw" : "a tie"}` : `player ${winner} wins`;
    const player = (p) => (p === null || p === undefined ? "—" : `player ${p}`);
    fill(out,
      el("p", {}, `From ${label(found.from)}: ${verdict}${found.game_length === null ? "" : ` in ${lengthText}`}; ${plural(found.endings.length, "principal line")}${found.cycle ? " (it comes back to a position it passed: play goes on for ever)" : ""}.`),
      table(["ends on", "moves", "completed by", "winner"], found.endings.map((e) =>
        [el("span", { class: "words" }, e.word), e.moves.join(" "), player(e.completed_by), player(e.winner)])));
  } catch (error) { fill(out, el("p", { class: "error" }, error.message)); }
}

async function showPlan() {
  const out = $("#analysis");
  try {
    const plan = await api(`/api/${enc(game.name)}/strategy`, { ...game.options, position: current().fragment });
    const kind = !game.wordGame ? "outcome" : variantOf(game.rules) === "ghost" ? "word" : "sequence";
    const unit = plan.endings.length === 1 ? kind : `${kind}s`;
    const verdict = plan.winning ? "a winning plan," : `no winning plan; the best one loses ${plan.losses} of its`;
    fill(out,
      el("p", {}, `Player ${plan.player} from ${label(plan.from)}: ${verdict} ${plan.endings.length} ${unit} to memorise.`),
      el("p", { class: "words" }, plan.endings.map((e) => e.word).join(" ")),
      el("details", { open: plan.endings.length <= 40 }, el("summary", {}, "The plan as a tree"),
        el("ul", { class: "tree" }, treeNode(plan.tree, plan.player, { left: 600 }))));
  } catch (error) { fill(out, el("p", { class: "error" }, error.message)); }
}

// The game so far judged move by move (/api/NAME/analyse): each move's value for its
// mover before and after, the verdict, the best moves instead; the notes name the word
// behind each mistake.
async function showAnalysis(record = null) {
  const out = $("#analysis");
  // A pasted record (as `ghostdb play` prints it, or the game record's moves) is read from
  // the start; the game on the board from where it started.
  const moves = record === null ? game.moves : record.split(/[\s,]+/).filter(Boolean);
  if (!moves.length) { fill(out, el("p", {}, "No moves yet: play some, then analyse the game.")); return; }
  try {
    const found = await api(`/api/${enc(game.name)}/analyse`, { ...game.options, moves: moves.join(","), from: record === null ? game.from : "" });
    const accuracy = found.accuracy.map((a) => `player ${a.player}: ${a.kept} of ${plural(a.moves, "move")}${a.accuracy === null ? "" : ` (${Math.round(a.accuracy * 100)}%)`}`);
    fill(out,
      table(["#", "by", "move", "before", "after", "verdict", "best instead"], found.moves.map((m) => [
        String(m.number), `player ${m.player}`, m.move, mark(m.value_before, m.length_before),
        mark(m.value_after, m.length_after), el("span", { class: `verdict ${m.verdict}` }, m.verdict),
        m.verdict === "best" ? "" : m.best.slice(0, 4).join(" ") + (m.best.length > 4 ? " …" : ""),
      ]), [0]),
      found.moves.filter((m) => m.note).map((m) => el("p", {}, `Move ${m.number}: ${m.note}.`)),
      el("p", {}, `Moves that kept the value — ${accuracy.join("; ")}.`),
      el("p", {}, found.decisive === null ? "No move changed the value: the game went as best play has it." : `Decided at move ${found.decisive}.`));
  } catch (error) { fill(out, el("p", { class: "error" }, error.message)); }
}

function treeNode(node, player, budget) {
  budget.left -= 1;
  const head = [node.move ? `${node.move} → ` : "", label(node.fragment)];
  if (node.word) {
    const won = node.result === "win";
    head.push(" ", el("span", { class: won ? "won" : "lost" }, won ? "✓ won" : "✗ lost"));
    return el("li", {}, head);
  }
  head.push(el("span", { class: `who${node.to_move}` }, ` · player ${node.to_move} to move`));
  const kids = [];
  for (const child of node.children || []) {
    if (budget.left <= 0) { kids.push(el("li", {}, "…")); break; }
    kids.push(treeNode(child, player, budget));
  }
  return el("li", {}, head, kids.length ? el("ul", {}, kids) : null);
}

// -- explorer, report, compare --------------------------------------------------------------

async function explore(fragment) {
  const out = $("#ex-out");
  const name = $("#ex-name").value;
  const found = ruleSet(name, $("#ex-ruleset").value);
  if (!found) return;
  try {
    const pos = await api(`/api/${enc(name)}/position`, { rules: found.rules, position: fragment });
    const head = pos.final
      ? `${label(pos.fragment)}: the game is over${pos.ending ? ` (${pos.ending})` : ""}; ${pos.winner === null ? "nobody wins" : `player ${pos.winner} has won`}.`
      : `${label(pos.fragment)}: ${pos.to_move === null ? "the player to move" : `player ${pos.to_move} to move`} ${{ win: "wins", loss: "loses", tie: "ties", draw: "draws" }[pos.outcome]}; best move ${pos.best_move}; ${movesLeft(pos.game_length)} with best play.`;
    const link = `#${new URLSearchParams({ tab: "explore", name, rules: found.rules, position: fragment })}`;
    if (!$("#explore").hidden && location.hash !== link) history.replaceState(null, "", link);
    const playable = pos.reachable && !pos.final && twoPlayers(found);
    // Each move against a player who knows only the common words, beside perfect play.
    const versus = $("#ex-against").value;
    let practice = null;
    if (versus && declared(name).word_game && twoPlayers(found) && !pos.final) {
      const valued = await api(`/api/${enc(name)}/against`, { rules: found.rules, position: fragment, player: versus });
      practice = new Map(valued.plays.map((p) => [p.move, p]));
    }
    const against = (p) => (practice && practice.has(p.move) ? [mark(practice.get(p.move).outcome, practice.get(p.move).game_length)] : []);
    fill(out, el("p", {}, head),
      el("p", { class: "bar" },
        el("a", { href: link, class: "explore-link" }, "Link to this position"),
        playable ? el("button", { type: "button", id: "play-from-here", onclick: () => playFrom(name, found.rules, fragment) }, "Play from here") : null),
      pos.reachable ? null : el("p", {}, "Not reachable in a game: an earlier position already ended it."),
      pos.plays.length ? table(["move", "leads to", pos.to_move === null ? "for the player to move" : `for player ${pos.to_move}`, "then", ...(practice ? [`against ${versus}`] : [])], pos.plays.map((p) => [
        p.move,
        el("button", { type: "button", class: "link", onclick: () => { $("#ex-fragment").value = p.fragment; explore(p.fragment); } }, label(p.fragment)),
        mark(p.category, p.game_length),
        movesLeft(p.game_length) + (p.final ? " (ends the game)" : ""),
        ...against(p),
      ])) : null);
    offerDecisive(name, found, pos);
  } catch (error) {
    fill(out, el("p", { class: "error" }, error.message));
    $("#decisive").hidden = true;
  }
}

// -- decisive words -------------------------------------------------------------------------

// The panel is offered where the rule set says it has decisive words (/api/solutions), so
// the page names no game. Its answers are kept by the command line; the server only reads
// them, and answers 404 with the command to run for one nobody has worked out yet.
const SHOWN = 40;
const VERBS = { win: "wins", loss: "loses", tie: "ties", draw: "draws" };
// A move's state for whoever plays it, from the state kept for the player to move after it.
const AS_MOVE = { loss: "winning", win: "losing", gone: "gone", tie: "tying", draw: "drawing" };
const explored = { name: "", rules: "", position: "", asked: 0 };

function offerDecisive(name, found, pos) {
  const panel = $("#decisive");
  explored.asked += 1;  // an answer still on its way is for another position
  fill($("#dec-out"));
  panel.hidden = !found.decisive || pos.final;
  if (panel.hidden) return;
  Object.assign(explored, { name, rules: found.rules, position: pos.fragment });
  const pool = $("#dec-pool");
  const kept = pool.value;
  const others = catalogue.solutions.filter((s) => s.name !== name && declared(s.name).word_game);
  fill(pool, el("option", { value: "" }, "none: deletions only"),
    others.map((s) => el("option", { value: s.name, selected: s.name === kept }, s.name)));
}

async function showDecisive() {
  const out = $("#dec-out");
  const asked = explored.asked;
  const pool = $("#dec-pool").value;
  fill(out, el("p", {}, "Reading the kept answer…"));
  let view;
  try {
    const found = await api(`/api/${enc(explored.name)}/decisive`, { rules: explored.rules, position: explored.position, pool });
    view = decisiveView(found);
  } catch (error) { view = problem(error); }
  if (asked === explored.asked) fill(out, view);
}

// An error answer as a line: a 404 (nothing kept yet, or nothing of that name) is a note,
// its `command` shown as code, since the reader is to run it.
function problem(error) {
  const parts = error.message.split("`").map((part, i) => (i % 2 ? el("code", {}, part) : part));
  return el("p", { class: error.status === 404 ? "note" : "error" }, parts);
}

function outcomeFor(who, outcome) {
  return outcome === "gone" ? "no word begins with it" : `${who} ${VERBS[outcome]}`;
}

function decisiveView(d) {
  const who = d.to_move === null ? "the player to move" : `player ${d.to_move} to move`;
  const f = d.fewest;
  const edits = d.pool ? `deletions and additions from ${d.pool}` : "deletions";
  return [
    el("p", {}, `Now, at ${label(d.position)}: ${outcomeFor(who, d.outcome)}.`),
    editList(`Deleting one word alone changes it: ${plural(d.deletions.length, "word")}`, d.deletions),
    d.additions ? editList(`Adding one word of ${d.pool} alone changes it: ${plural(d.additions.length, "word")}`, d.additions) : null,
    f.count === null
      ? el("p", {}, `No set of ${edits} changes it (each leaves no game, or the same).`)
      : editList(`Fewest edits that change it: ${f.exact ? "" : "at most "}${f.count.toLocaleString("en")}, then ${outcomeFor(who, f.outcome)}`, f.edits),
  ].flat();
}

// The first SHOWN edits, a line each naming the move it changes for whoever plays it.
function editList(head, edits, where = () => "") {
  if (!edits.length) return el("p", {}, `${head}.`);
  const more = edits.length - SHOWN;
  return [el("p", {}, `${head}:`), el("ul", { class: "edits" },
    edits.slice(0, SHOWN).map((e) => el("li", {}, editLine(e, where(e)))),
    more > 0 ? el("li", {}, `and ${more.toLocaleString("en")} more`) : null)];
}

function editLine(e, where) {
  const verb = e.edit ? `${e.edit} ` : "";
  const gone = !e.edit && e.outcome === "gone" ? " (then no word begins with the position)" : "";
  return [verb, el("span", { class: "words" }, e.word), where,
    ` — the move ${label(e.move)}: ${AS_MOVE[e.move_before]} → ${AS_MOVE[e.move_after]}${gone}`];
}

// compare --why: which of two dictionaries' differing words account for their different
// outcomes at the start (asked only of two dictionaries under one rule set that has them).
function whyView(w, a, b) {
  if (w instanceof Error) return problem(w);
  const differing = (w.only_a + w.only_b).toLocaleString("en");
  const f = w.fewest;
  if (f === null) return el("p", {}, `Why: ${a} and ${b} agree at the start (player 0 ${VERBS[w.outcome_a]} in both): nothing to explain.`);
  const head = `Why: player 0 ${VERBS[w.outcome_a]} in ${a} and ${VERBS[w.outcome_b]} in ${b}`;
  if (f.count === null) return el("p", {}, `${head}, but no set of their ${differing} differing words alone accounts for it.`);
  const where = (e) => ` (only in ${e.edit === "add" ? b : a})`;
  return editList(`${head}; ${f.exact ? "" : "at most "}${f.count.toLocaleString("en")} of their ${differing} differing words account${f.count === 1 ? "s" : ""} for it`, f.edits, where);
}

// Start a game at an explored position, the seats as the Play tab has them.
function playFrom(name, rules, fragment) {
  $("#name").value = name;
  fillRules($("#ruleset"), name, rules, twoPlayers);
  showTab("play");
  setupFromForm();
  startGame([], fragment);
}

// -- puzzles ----------------------------------------------------------------------------------

// A kept puzzle (/api/NAME/puzzle): a position where exactly one move wins. Each move is a
// button; the answer is checked here, and the streak of puzzles solved in a row is kept in
// this browser.
const STREAK = "ghostdb-puzzle-streak";
function streak() { return Number(localStorage.getItem(STREAK) || 0); }
function showStreak() { $("#pz-streak").textContent = `Solved in a row: ${streak()}.`; }

async function newPuzzle() {
  const out = $("#pz-out");
  const name = $("#pz-name").value;
  const found = ruleSet(name, $("#pz-ruleset").value);
  if (!found) return;
  try {
    const p = await api(`/api/${enc(name)}/puzzle`, { rules: found.rules, difficulty: $("#pz-difficulty").value });
    const who = p.to_move === null ? "The player to move" : `Player ${p.to_move} to move`;
    const verdict = el("p", { role: "status" });
    const answer = (move, button) => {
      for (const b of out.querySelectorAll(".puzzle-move")) b.disabled = true;
      const right = move === p.answer;
      localStorage.setItem(STREAK, String(right ? streak() + 1 : 0));
      button.classList.add(right ? "win" : "loss");
      const ends = p.word ? ` The game ends on ${p.word}.` : "";
      verdict.textContent = right ? `Right: ${move} wins.${ends}` : `No: ${move} does not win; the winning move was ${p.answer}.${ends}`;
      showStreak();
    };
    fill(out,
      el("p", {}, `${label(p.position)} — ${who}: exactly one of these ${p.moves.length} moves wins (a ${p.difficulty} puzzle).`),
      el("div", { class: "keys", role: "group", "aria-label": "Moves" }, p.moves.map((m) =>
        el("button", { type: "button", class: "key puzzle-move", onclick: (event) => answer(m, event.currentTarget) }, m))),
      verdict);
  } catch (error) { fill(out, problem(error)); }
  showStreak();
}

async function report() {
  const out = $("#rep-out");
  try {
    const name = $("#rep-name").value;
    const found = await api(`/api/${enc(name)}/report`);
    const unit = (r) => (ruleSet(name, r.rules) || {}).plan_unit || "outcome";
    const plan = (p, r) => (p ? `${plural(p.outcomes, unit(r))}, ${planVerdict(p.outcomes, p.losses)}${p.words.length <= 8 ? `: ${p.words.join(" ")}` : ""}` : "—");
    const value = (r) => (r.winner === null || r.winner === undefined ? `${r.outcome} for player 0` : `player ${r.winner} wins`);
    const counts = (r) => (r.positions_by_outcome ? Object.entries(r.positions_by_outcome).map(([k, v]) => `${k} ${v}`).join(", ") : "");
    const words = found.solutions.some((r) => r.first_player_plan);
    fill(out, words
      ? table(["rules", "shortest word", "winner", "player 0's plan", "player 1's plan", "positions"],
        found.solutions.map((r) => [r.rules, r.shortest_word, value(r), plan(r.first_player_plan, r), plan(r.second_player_plan, r), r.fragments.toLocaleString("en")]),
        [1, 5])
      : table(["rules", "from the start", "game length", "positions by value", "positions"],
        found.solutions.map((r) => [r.rules, value(r), movesLeft(r.game_length), counts(r), r.fragments.toLocaleString("en")]),
        [4]));
  } catch (error) { fill(out, el("p", { class: "error" }, error.message)); }
}

async function compare() {
  const out = $("#cmp-out");
  const a = $("#cmp-a").value, b = $("#cmp-b").value;
  const ra = ruleSet(a, $("#cmp-a-rules").value), rb = ruleSet(b, $("#cmp-b-rules").value);
  if (!ra || !rb) return;
  const params = { a, b, rules: ra.rules, vs_rules: rb.rules };
  const whyToo = a !== b && ra.rules === rb.rules && ra.decisive && declared(a).word_game && declared(b).word_game;
  try {
    const [c, why] = await Promise.all([api("/api/compare", params),
      whyToo ? api("/api/why", { a, b, rules: ra.rules }).catch((error) => error) : null]);
    const plan = (side, i) => (side.plans && side.lost ? `${plural(side.plans[i].outcomes, (side === c.a ? ra : rb).plan_unit)}, ${planVerdict(side.plans[i].outcomes, side.lost[i])}` : "—");
    const winner = (side) => (side.winner === null || side.winner === undefined ? side.outcome : `player ${side.winner}`);
    const n = (v) => v.toLocaleString("en");
    fill(out,
      table(["", "a", "b"], [
        ["dictionary", c.a.dictionary, c.b.dictionary], ["rules", c.a.rules, c.b.rules],
        ["game words", n(c.a.words), n(c.b.words)], ["fragments", n(c.a.fragments), n(c.b.fragments)],
        ["reachable", n(c.a.reachable), n(c.b.reachable)],
        ["winner (or value)", winner(c.a), winner(c.b)],
        ["winning first moves", c.a.winning_first_moves.join(" ") || "none", c.b.winning_first_moves.join(" ") || "none"],
        ["game length from start", c.a.game_length, c.b.game_length],
        ["player 0's best plan", plan(c.a, 0), plan(c.b, 0)],
        ["player 1's best plan", plan(c.a, 1), plan(c.b, 1)],
      ]),
      el("p", {}, `Positions in both: ${n(c.common_fragments)}; with different outcomes: ${n(c.different_outcomes)} (${n(c.different_reachable)} reachable in both).`),
      c.examples.length ? el("p", {}, "e.g. ", c.examples.map((e) => `${label(e.fragment)} (${e.a}/${e.b})`).join(", ")) : null,
      el("p", {}, `Game words only in a: ${n(c.only_a.count)} ${c.only_a.examples.join(" ")}`),
      el("p", {}, `Game words only in b: ${n(c.only_b.count)} ${c.only_b.examples.join(" ")}`),
      why ? whyView(why, a, b) : null);
  } catch (error) { fill(out, el("p", { class: "error" }, error.message)); }
}
