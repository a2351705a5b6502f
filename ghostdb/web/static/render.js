// Drawing the game in play: the board (each kind's drawing is in boards/), the keys, the
// status, the record of moves and the chart. Loaded before app.js, whose game state
// (game, current(), seat(), …) these read once the page is running.

// -- rendering the game --------------------------------------------------------------------

function render() {
  const pos = current();
  if (!pos) return;
  renderBoard(pos);
  renderKeys(pos);
  renderStatus(pos);
  renderRecord();
  renderChart();
  $("#undo").disabled = !game.moves.length;
  $("#redo").disabled = !game.redo.length;
  $("#pause").hidden = isOver() || !(game.paused || !hasHuman());
  $("#pause").textContent = game.paused ? "Resume" : "Pause";
  $("#legend").hidden = !$("#show-values").checked;
  $("#show-plan").hidden = !game.wordGame;  // plans to memorise are a word-game notion
  saveState();
}

function valuesShown() { return $("#show-values").checked; }
function humanToMove() { return !isOver() && seat(turn()) === "human" && !game.busy; }

function renderBoard(pos) {
  const board = $("#board");
  const super_ = letterKeys() && variantOf(game.rules) !== "ghost";
  $("#form-picker").hidden = !super_;
  $("#reverse-label").hidden = variantOf(game.rules) !== "superduper";
  // Each board kind a game declares is drawn by its own file in boards/ (BOARDS).
  fill(board, (BOARDS[game.board] || BOARDS.letters)(pos));
  if (game.board === "columns") game.justDropped = null;  // a disc falls once
}

function keyButton(text, play, extra = {}) {
  const show = valuesShown();
  const category = play ? play.category : "loss";
  const cls = ["key"];
  if (show) cls.push(category);
  if (show && !play) cls.push("dead");
  if (show && play && play.move === current().best_move) cls.push("best");
  const value = show ? (play ? MARK[category] + (play.game_length ?? "") : "L") : "";
  const title = play
    ? `${play.move}: ${show ? `${category} for the player making it, ${movesLeft(play.game_length)}` : play.fragment}`
    : `${text}: no word continues ${show ? "(loses at once)" : ""}`;
  return el("button", { type: "button", class: cls.join(" "), title, disabled: !humanToMove(), ...extra },
    el("span", {}, text), show ? el("span", { class: "val" }, value) : null);
}

// Whether the game's board takes the moves itself (its squares, columns or hands: no list
// of moves beside it), as its drawing says (boards/).
function boardTakesMoves() { return Boolean((BOARDS[game.board] || {}).takesMoves); }

function renderKeys(pos) {
  const keys = $("#keys");
  keys.className = "keys";
  if (letterKeys()) {
    const form = chosenForm();
    const byFragment = new Map(pos.plays.map((p) => [p.fragment, p]));
    const letters = [...new Set([...game.alphabet, ...pos.plays.map((p) => parseGhostMove(p.move)[0])])].sort();
    // In the Super variants a letter can go at either end (and after a reversal): its key
    // shows the best any of them gives; the side chosen below says where a click puts it.
    const best = new Map();
    for (const play of [...pos.plays].sort(byValue)) {
      const letter = parseGhostMove(play.move)[0];
      if (!best.has(letter)) best.set(letter, play);
    }
    const several = variantOf(game.rules) !== "ghost";
    fill(keys, ...(isOver() ? [] : letters.map((letter) => {
      const chosen = byFragment.get(applyForm(pos.fragment, letter, form)) || null;
      const play = several ? best.get(letter) || null : chosen;
      const extra = several && play ? { "data-best": play.move } : {};
      return keyButton(letter, play, { onclick: () => playGhostLetter(letter, chosenForm()), "data-letter": letter, ...extra });
    })));
  } else if (!boardTakesMoves()) {
    keys.classList.add("moves-list");
    const plays = valuesShown() ? pos.plays : [...pos.plays].sort((a, b) => a.move.localeCompare(b.move));
    fill(keys, ...(isOver() ? [] : plays.map((play) =>
      keyButton(play.move, play, { onclick: () => humanMove(play), "data-move": play.move }))));
  } else {
    fill(keys);
  }
}

// How to play the chosen rule set only, in words (the server words it: `Game.explain`).
function showHowToPlay(decl, rules) {
  fill($("#how-to-play"),
    el("strong", {}, `${decl.title || ""}: `), (decl.explained || {})[rules] || decl.how_to_play || "");
}

function renderStatus(pos) {
  const status = $("#status");
  if (isOver(pos)) { status.textContent = "Game over."; $("#result").textContent = resultText(pos); return; }
  $("#result").textContent = "";
  const player = turn();
  let text = `${who(player)} to move`;
  if (game.busy && seat(player) === "computer") text += ": thinking…";
  if (game.paused) text += " (paused)";
  if (valuesShown()) {
    const winner = winnerOf(pos, game.moves.length);
    const value = winner === null
      ? `${pos.outcome === "draw" ? "a draw" : "a tie"} with best play, ${movesLeft(pos.game_length)}; best move ${pos.best_move}`
      : `player ${winner} wins with best play, ${movesLeft(pos.game_length)}; best move ${pos.best_move}`;
    text += ` — ${value}`;
  }
  status.textContent = text;
}

function resultText(pos) {
  const last = playerAt(game.moves.length - 1);
  if (pos.repeated) return `The position ${pos.fragment} came back: the game is drawn by repetition.`;
  let why = pos.ending || "";
  if (game.wordGame && !pos.dead) why = `${who(last)} completed the word '${pos.fragment}'`;
  if (pos.dead) why = `${who(last)} played ${game.moves[game.moves.length - 1]}: ${pos.ending}`;
  const winnerIs = pos.dead ? pos.winner : winnerOf(pos, game.moves.length);
  const winner = winnerIs === null ? "Nobody wins." : `${who(winnerIs)} wins.`;
  return `${why ? why.charAt(0).toUpperCase() + why.slice(1) : "The game is over"}. ${winner}`;
}

// The record names every position the same way whoever is to move: Chopsticks keys are
// written from the mover's side (their hands first), so they are turned to player 0's.
function absolute(fragment, mover) {
  if (game.board !== "hands") return label(fragment);
  const [first, second] = fragment.split("-");
  const [p0, p1] = mover === 0 ? [first, second] : [second, first];
  return `player 0: ${p0}, player 1: ${p1}`;
}

function renderRecord() {
  const items = game.moves.map((move, i) => {
    const pos = game.positions[i + 1];
    const by = game.by[i] === "random" ? " (random)" : "";
    const player = playerAt(i);
    const cls = `p${player}${pos.category ? ` ${pos.category}` : ""}`;
    return el("li", { class: cls, title: pos.category ? `${pos.category} for player ${player}` : null },
      el("span", { class: `who${player}` }, `player ${player}`), ` ${move}${by} → ${absolute(pos.fragment, 1 - player)}`,
      pos.category ? el("span", { class: `mark ${pos.category}` }, MARK[pos.category]) : null);
  });
  fill($("#record"), ...items);
  const list = $("#record");
  list.scrollTop = list.scrollHeight;
}

// The value history: one point per position; above the line player 0 is winning, below it
// player 1, by how many moves the game has left; ties and draws sit on the line.
function renderChart() {
  const W = 420, H = 236, left = 34, right = 12, top = 32, bottom = 30;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const s = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const points = game.positions.map((pos, i) => ({ i, pos, winner: pos.dead ? pos.winner : winnerOf(pos, i), len: pos.game_length ?? 0 }));
  const maxLen = Math.max(1, ...points.map((p) => p.len));
  const mid = top + (H - top - bottom) / 2;
  const half = (H - top - bottom) / 2;
  const steps = Math.max(points.length - 1, 8);
  const x = (i) => left + (i * (W - left - right)) / steps;
  const y = (p) => (p.winner === 0 ? mid - (p.len / maxLen) * half : p.winner === 1 ? mid + (p.len / maxLen) * half : mid);
  s("line", { x1: left, x2: W - right, y1: mid, y2: mid, stroke: "#999" });
  s("line", { x1: left, x2: left, y1: top, y2: H - bottom, stroke: "#999" });
  s("text", { x: 2, y: top + 4 }, `${maxLen}`);
  s("text", { x: 2, y: H - bottom + 4 }, `${maxLen}`);
  s("text", { x: 2, y: mid + 4 }, "0");
  s("text", { x: left, y: 12, fill: "#007a59" }, "▲ player 0 wins, in this many moves");
  s("text", { x: left, y: H - 8, fill: "#a4487e" }, "▼ player 1 wins");
  s("text", { x: W - right, y: H - 8, "text-anchor": "end" }, "move →");
  if (points.length > 1) {
    s("polyline", { points: points.map((p) => `${x(p.i)},${y(p)}`).join(" "), fill: "none", stroke: "#555", "stroke-width": 1.5 });
  }
  for (const p of points) {
    const cx = x(p.i), cy = y(p);
    const value = p.winner === 0 ? "player 0 wins" : p.winner === 1 ? "player 1 wins"
      : (p.pos.outcome === "draw" ? "a draw" : "a tie");
    let shape;
    if (p.winner === 0) shape = s("circle", { cx, cy, r: 5, fill: "var(--p0)" });
    else if (p.winner === 1) shape = s("rect", { x: cx - 4.5, y: cy - 4.5, width: 9, height: 9, fill: "var(--p1)" });
    else shape = s("path", { d: `M${cx},${cy - 6}L${cx + 6},${cy}L${cx},${cy + 6}L${cx - 6},${cy}Z`, fill: p.pos.outcome === "draw" ? "var(--draw)" : "var(--tie)", stroke: "#333" });
    const title = document.createElementNS(ns, "title");
    title.textContent = `after move ${p.i}: ${value}, ${movesLeft(p.len)}`;
    shape.append(title);
    if (points.length <= 24) s("text", { x: cx, y: p.winner === 1 ? cy + 17 : cy - 9, "text-anchor": "middle" }, String(p.i));
  }
  const last = points[points.length - 1];
  svg.setAttribute("aria-label", `Value history over ${points.length - 1} moves; now ${last.winner === null ? "no winner" : `player ${last.winner} wins`}, ${movesLeft(last.len)}`);
  fill($("#chart"), svg);
}
