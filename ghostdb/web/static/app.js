// ghostdb's page: plays and explores stored solutions through the JSON API.
// Plain JavaScript, no build step, nothing loaded from anywhere but this server.
"use strict";

const $ = (sel) => document.querySelector(sel);
const MARK = { win: "W", loss: "L", tie: "T", draw: "D" };
const CATEGORY_OF = { loss: "win", win: "loss", tie: "tie", draw: "draw" };
const DELAY = { vsHuman: 300, selfplay: 650 };

// -- the API -------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(path, params = {}) {
  // The offline copy (`ghostdb export site`) answers from packs beside the page.
  if (window.ghostdbOffline) return window.ghostdbOffline(path, params);
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(key, value);
  }
  const response = await fetch(url);
  let body;
  try { body = await response.json(); } catch { body = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new ApiError(body.error || `HTTP ${response.status}`, response.status);
  return body;
}

const enc = encodeURIComponent;

// Replace a node's children, skipping the null, undefined and false that conditional
// children give (the DOM's own replaceChildren would print them as text).
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

// -- small DOM helpers ---------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function table(headers, rows, numeric = []) {
  // A wide table scrolls sideways on a phone: focusable, so the keyboard can scroll it too.
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Table" }, el("table", {},
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell, i) =>
      el("td", { class: numeric.includes(i) ? "num" : null }, cell)))))));
}

function notice(message) {
  const box = $("#notice");
  box.textContent = message || "";
  box.hidden = !message;
}

const label = (fragment) => (fragment === "" ? "(start)" : fragment);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const movesLeft = (n) => (n === null || n === undefined ? "never ends" : n === 0 ? "game over" : plural(n, "more move"));

function mark(category, length) {
  const text = MARK[category] + (length === null || length === undefined ? "" : length);
  return el("span", { class: `mark ${category}`, title: `${category} for the mover; ${movesLeft(length)}` }, text);
}

// -- the catalogue -------------------------------------------------------------------------

// What is stored (/api/solutions) and how each game declares itself (/api/games): the page
// asks no game by name, it draws each by its declared board kind.
const catalogue = { solutions: [], games: [] };

function solved() { return catalogue.solutions.filter((s) => s.rule_sets.length > 0); }
function solution(name) { return catalogue.solutions.find((s) => s.name === name); }
function ruleSet(name, key) {
  const found = solution(name);
  return found && found.rule_sets.find((r) => r.rules === key);
}

function declared(name) {
  const found = solution(name);
  return catalogue.games.find((g) => found && g.game === found.game) || catalogue.games.find((g) => g.word_game) || {};
}

// Ghost's dictionaries first (the game the page is for), then the other games.
function fillNames(select, chosen) {
  const wordGamesFirst = [...solved()].sort((a, b) =>
    Number(Boolean(declared(b.name).word_game)) - Number(Boolean(declared(a.name).word_game)));
  fill(select, ...wordGamesFirst.map((s) => {
    const decl = declared(s.name);
    return el("option", { value: s.name, selected: s.name === chosen }, decl.word_game ? `${s.name} (${decl.title})` : s.name);
  }));
}

// The word game over its biggest stored dictionary, else the first solved entry.
function firstChoice() {
  const words = solved().filter((s) => declared(s.name).word_game).sort((a, b) => (b.words || 0) - (a.words || 0));
  return (words[0] || solved()[0]).name;
}

// The page plays two-player games; the explorer and the tables take every rule set.
const twoPlayers = (r) => !/\/\d+p(\/|$)/.test(r.rules);

function fillRules(select, name, chosen, keep = () => true) {
  const found = solution(name);
  fill(select, ...(found ? found.rule_sets.filter(keep) : []).map((r) =>
    el("option", { value: r.rules, selected: r.rules === chosen }, r.description || r.rules)));
}

function pairSelects(nameSel, rulesSel, name, key, keep = () => true) {
  fillNames(nameSel, name);
  fillRules(rulesSel, nameSel.value, key, keep);
  nameSel.addEventListener("change", () => fillRules(rulesSel, nameSel.value, undefined, keep));
}

// -- moves of the Ghost family ------------------------------------------------------------

const FORMS = { end: "append", start: "prepend" };

function variantOf(rulesKey) { return rulesKey.split("/")[0]; }
// A choice the game declares (a Ghost variant) names its moves: a letter at one end, maybe
// reversed first. Those are typed on a keyboard of letters.
const choices = () => (declared(game.name).options || []).flatMap((o) => o.choices);
const letterKeys = () => game.board === "letters" && choices().includes(variantOf(game.rules));

function applyForm(fragment, letter, form) {
  const base = form.startsWith("reverse") ? [...fragment].reverse().join("") : fragment;
  return form.endsWith("append") ? base + letter : letter + base;
}

function notation(variant, letter, form) {
  if (variant === "ghost") return letter;
  return { append: `${letter}+`, prepend: `+${letter}`, reverse_append: `~${letter}+`,
    reverse_prepend: `+${letter}~` }[form];
}

function chosenForm() {
  const side = document.querySelector("input[name=side]:checked").value;
  return ($("#reverse").checked ? "reverse_" : "") + FORMS[side];
}

// -- the game ------------------------------------------------------------------------------

const game = {
  name: "", rules: "", options: {}, board: "letters", wordGame: true, alphabet: "",
  seats: ["human", "computer"], strategy: "optimal", skill: 1,
  positions: [], moves: [], by: [], redo: [],
  generation: 0, busy: false, paused: false, selected: null, first: 0, from: "", marks: [], inARow: null,
};

const current = () => game.positions[game.positions.length - 1];
// The player who made move i (0-based): a game started from a position ("play from here")
// starts with whoever is to move there.
const playerAt = (i) => (game.first + i) % 2;
const turn = () => playerAt(game.moves.length);
const seat = (player) => game.seats[player];
const hasHuman = () => game.seats.includes("human");

function who(player) {
  const s = seat(player);
  const tag = s === "human" ? (hasHuman() && game.seats[1 - player] !== "human" ? "you" : "human") : "computer";
  return `player ${player} (${tag})`;
}

// The winner with best play from position i (the key may not say whose turn it is).
function winnerOf(pos, i) {
  if (pos.winner !== null && pos.winner !== undefined) return pos.winner;
  if (pos.outcome === "win") return playerAt(i);
  if (pos.outcome === "loss") return 1 - playerAt(i);
  return null;
}

function isOver(pos = current()) {
  return Boolean(pos && (pos.final || pos.dead || pos.repeated || pos.plays.length === 0));
}

async function lookup(fragment) {
  return api(`/api/${enc(game.name)}/position`, { ...game.options, position: fragment });
}

async function startGame(moves = [], from = "") {
  game.generation += 1;
  const gen = game.generation;
  const found = ruleSet(game.name, game.rules);
  if (!found) { notice("Nothing is solved yet: run `ghostdb solve NAME`, then reload."); return; }
  game.options = { rules: found.rules };
  const decl = declared(game.name);
  game.board = decl.board || "text";
  game.marks = decl.marks || [];
  game.inARow = decl.in_a_row || null;
  game.wordGame = Boolean(decl.word_game);
  // A player who knows only the common words is for word games.
  for (const option of document.querySelectorAll("#strategy .words-only")) option.disabled = !game.wordGame;
  if (!game.wordGame && game.strategy.startsWith("common:")) { game.strategy = "optimal"; $("#strategy").value = "optimal"; }
  showHowToPlay(decl, found.rules);
  game.alphabet = solution(game.name).alphabet || "abcdefghijklmnopqrstuvwxyz";
  game.positions = []; game.moves = []; game.by = []; game.redo = [];
  game.paused = false; game.selected = null;
  fill($("#analysis"));
  notice("");
  try {
    game.positions.push(await lookup(from));
    game.from = from;
    game.first = from ? (game.positions[0].to_move ?? 0) : 0;
    for (const move of moves) {
      if (gen !== game.generation || isOver()) break;
      const pos = current();
      const play = pos.plays.find((p) => p.move === move);
      if (play) await advance(play, "record", gen);
      else if (game.wordGame) deadMove(move);
      else throw new ApiError(`the link's move ${move} is not legal at ${label(pos.fragment)}`);
    }
  } catch (error) {
    notice(error.message);
  }
  if (gen !== game.generation) return;
  render();
  computerTurn();
}

async function advance(play, by, gen = game.generation) {
  let next;
  try {
    next = await lookup(play.fragment);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    next = { fragment: play.fragment, final: true, plays: [], winner: null, game_length: 0,
      ending: error.message };
  }
  if (gen !== game.generation) return false;
  if (!game.wordGame && !isOver(next) && game.positions.some((p) => p.fragment === next.fragment)) {
    next = { ...next, repeated: true };
  }
  game.positions.push({ ...next, category: play.category });  // the move's value, for the record
  game.moves.push(play.move);
  game.justDropped = game.board === "columns" ? Number(play.move) - 1 : null;  // it falls once
  game.by.push(by);
  return true;
}

function deadMove(move) {
  // A Ghost play that no word continues: the player who made it loses at once.
  const before = current();
  const [letter, form] = parseGhostMove(move);
  const after = applyForm(before.fragment, letter, form);
  const verb = variantOf(game.rules) === "ghost" ? "begins with" : "contains";
  game.positions.push({ fragment: after, dead: true, final: true, plays: [], game_length: 0,
    winner: 1 - turn(), ending: `no word ${verb} '${after}'`, category: "loss" });
  game.moves.push(move);
  game.by.push("human");
}

// Best first for the mover, as the API lists moves: wins soonest, ties, draws, losses latest.
const RANK = { win: 0, tie: 1, draw: 2, loss: 3 };
function byValue(a, b) {
  const ra = RANK[a.category], rb = RANK[b.category];
  if (ra !== rb) return ra - rb;
  const la = a.game_length ?? 0, lb = b.game_length ?? 0;
  return ra === 3 ? lb - la : la - lb;
}

function parseGhostMove(move) {
  const letter = move.replace(/[~+]/g, "");
  if (move.startsWith("~")) return [letter, "reverse_append"];
  if (move.endsWith("~")) return [letter, "reverse_prepend"];
  if (move.startsWith("+")) return [letter, "prepend"];
  return [letter, "append"];
}

async function humanMove(play, deadNotation = null) {
  if (game.busy || isOver() || seat(turn()) !== "human") return;
  game.busy = true;
  game.redo = [];
  try {
    if (play) await advance(play, "human");
    else deadMove(deadNotation);
  } catch (error) {
    notice(error.message);
  } finally {
    game.busy = false;
  }
  render();
  computerTurn();
}

function playGhostLetter(letter, form) {
  const pos = current();
  const after = applyForm(pos.fragment, letter, form);
  const play = pos.plays.find((p) => p.fragment === after);
  humanMove(play || null, play ? null : notation(variantOf(game.rules), letter, form));
}

async function computerTurn() {
  if (isOver() || seat(turn()) !== "computer" || game.paused || game.redo.length) return;
  const gen = game.generation;
  game.busy = true;
  render();
  await new Promise((resolve) => setTimeout(resolve, hasHuman() ? DELAY.vsHuman : DELAY.selfplay));
  if (gen !== game.generation || game.paused) { game.busy = false; render(); return; }
  try {
    const reply = await api(`/api/${enc(game.name)}/move`, {
      ...game.options, position: current().fragment, strategy: game.strategy, skill: game.skill,
    });
    if (gen !== game.generation) return;
    await advance(reply.play, reply.by, gen);
  } catch (error) {
    notice(error.message);
    return;
  } finally {
    if (gen === game.generation) game.busy = false;
  }
  if (gen !== game.generation) return;
  render();
  computerTurn();
}

function undo() {
  if (!game.moves.length) return;
  game.generation += 1;
  game.busy = false;
  do {
    game.redo.push({ move: game.moves.pop(), by: game.by.pop(), pos: game.positions.pop() });
  } while (game.moves.length && hasHuman() && seat(turn()) !== "human");
  if (seat(turn()) === "computer") game.paused = true;
  render();
}

function redo() {
  const step = game.redo.pop();
  if (!step) return;
  game.generation += 1;
  game.busy = false;
  game.moves.push(step.move); game.by.push(step.by); game.positions.push(step.pos);
  render();
  computerTurn();
}

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
    ? `${play.move}: ${show ? `${category} for the mover, ${movesLeft(play.game_length)}` : play.fragment}`
    : `${text}: no word continues ${show ? "(loses at once)" : ""}`;
  return el("button", { type: "button", class: cls.join(" "), title, disabled: !humanToMove(), ...extra },
    el("span", {}, text), show ? el("span", { class: "val" }, value) : null);
}

// Boards whose squares or columns are the moves themselves: no list of moves beside them.
const CLICKED_BOARDS = ["grid", "columns", "hands"];

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
  } else if (!CLICKED_BOARDS.includes(game.board)) {
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

// -- state in the URL ----------------------------------------------------------------------

function saveState() {
  const params = new URLSearchParams({
    name: game.name, rules: game.rules, players: game.seats.join(","),
    strategy: game.strategy, skill: String(game.skill),
  });
  if (valuesShown()) params.set("values", "1");
  if (game.from) params.set("from", game.from);
  if (game.moves.length) params.set("moves", game.moves.join(","));
  const hash = `#${params}`;
  $("#permalink").href = hash;
  // The Explore tab keeps its own link in the address bar while it is shown.
  if (location.hash !== hash && $("#play").hidden === false) history.replaceState(null, "", hash);
}

function readState() {
  const params = new URLSearchParams(location.hash.slice(1));
  const moves = params.get("moves");
  return {
    name: params.get("name"), rules: params.get("rules"), players: params.get("players"),
    strategy: params.get("strategy"), skill: params.get("skill"), values: params.get("values") === "1",
    moves: moves ? moves.split(",").filter(Boolean) : [],
    from: params.get("from") || "", tab: params.get("tab"), position: params.get("position") || "",
  };
}

function setupFromForm() {
  game.name = $("#name").value;
  game.rules = $("#ruleset").value;
  game.seats = $("#players").value.split(",");
  game.strategy = $("#strategy").value;
  game.skill = Number($("#skill").value);
}

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
      pos.plays.length ? table(["move", "leads to", "for the mover", "then", ...(practice ? [`against ${versus}`] : [])], pos.plays.map((p) => [
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
    const found = await api(`/api/${enc($("#rep-name").value)}/report`);
    const plan = (p) => (p ? `${plural(p.outcomes, "outcome")}, ${p.losses ? `${p.losses} lost` : "all won"}${p.words.length <= 8 ? `: ${p.words.join(" ")}` : ""}` : "—");
    const value = (r) => (r.winner === null || r.winner === undefined ? `${r.outcome} for player 0` : `player ${r.winner} wins`);
    const counts = (r) => (r.positions_by_outcome ? Object.entries(r.positions_by_outcome).map(([k, v]) => `${k} ${v}`).join(", ") : "");
    const words = found.solutions.some((r) => r.first_player_plan);
    fill(out, words
      ? table(["rules", "shortest word", "winner", "player 0's plan", "player 1's plan", "positions"],
        found.solutions.map((r) => [r.rules, r.shortest_word, value(r), plan(r.first_player_plan), plan(r.second_player_plan), r.fragments.toLocaleString("en")]),
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
    const plan = (plans, i) => (plans ? `${plans[i].outcomes} (${["all won", "mixed", "all lost"][plans[i].lossiness]})` : "—");
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
        ["player 0's best plan", plan(c.a.plans, 0), plan(c.b.plans, 0)],
        ["player 1's best plan", plan(c.a.plans, 1), plan(c.b.plans, 1)],
      ]),
      el("p", {}, `Positions in both: ${n(c.common_fragments)}; with different outcomes: ${n(c.different_outcomes)} (${n(c.different_reachable)} reachable in both).`),
      c.examples.length ? el("p", {}, "e.g. ", c.examples.map((e) => `${label(e.fragment)} (${e.a}/${e.b})`).join(", ")) : null,
      el("p", {}, `Game words only in a: ${n(c.only_a.count)} ${c.only_a.examples.join(" ")}`),
      el("p", {}, `Game words only in b: ${n(c.only_b.count)} ${c.only_b.examples.join(" ")}`),
      why ? whyView(why, a, b) : null);
  } catch (error) { fill(out, el("p", { class: "error" }, error.message)); }
}

// -- wiring ----------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-pressed", String(tab.dataset.tab === name));
  for (const id of ["play", "explore", "puzzles", "tables"]) $(`#${id}`).hidden = id !== name;
  if (name === "play" && game.name) saveState();  // the address bar shows the game again
}

function onKey(event) {
  const target = event.target;
  if (target.closest && target.closest("input[type=text], input:not([type]), select, textarea")) return;
  if ($("#play").hidden) return;
  if ((event.ctrlKey || event.metaKey) && !event.altKey) {
    const key = event.key.toLowerCase();
    if (key === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
    else if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); redo(); }
    return;
  }
  if (event.altKey) return;
  if (event.key === "Backspace") { event.preventDefault(); undo(); return; }
  if (letterKeys()) {
    if (event.key === "~" && variantOf(game.rules) === "superduper") {
      $("#reverse").checked = !$("#reverse").checked; render(); return;
    }
    if (event.key.length === 1 && /\p{L}/u.test(event.key) && humanToMove()) {
      event.preventDefault();
      const letter = event.key.toLowerCase();
      let form = event.shiftKey && variantOf(game.rules) !== "ghost" ? "prepend" : "append";
      if (variantOf(game.rules) === "ghost") { playGhostLetter(letter, "append"); return; }
      if (!event.shiftKey) form = FORMS[document.querySelector("input[name=side]:checked").value];
      if ($("#reverse").checked) form = `reverse_${form}`;
      playGhostLetter(letter, form);
    }
  } else if (CLICKED_BOARDS.includes(game.board) && /^[1-9]$/.test(event.key) && humanToMove()) {
    const play = current().plays.find((p) => p.move === event.key);
    if (play) humanMove(play);
  }
}

async function main() {
  try {
    const [stored, games] = await Promise.all([api("/api/solutions"), api("/api/games")]);
    catalogue.solutions = stored.solutions;
    catalogue.games = games;
  } catch (error) { notice(`Cannot read the store: ${error.message}`); return; }
  if (!solved().length) {
    notice("Nothing is solved yet: run `ghostdb ingest …` and `ghostdb solve …`, then reload.");
    return;
  }
  const saved = readState();
  const name = solution(saved.name) ? saved.name : firstChoice();
  pairSelects($("#name"), $("#ruleset"), name, saved.rules, twoPlayers);
  if (saved.players) {
    const option = [...$("#players").options].find((o) => o.value === saved.players);
    if (option) $("#players").value = saved.players;
  }
  if (saved.strategy && [...$("#strategy").options].some((o) => o.value === saved.strategy)) $("#strategy").value = saved.strategy;
  if (saved.skill !== null && !Number.isNaN(Number(saved.skill))) $("#skill").value = saved.skill;
  $("#skill-out").value = `${Math.round(Number($("#skill").value) * 100)}%`;
  $("#show-values").checked = saved.values;
  pairSelects($("#ex-name"), $("#ex-ruleset"), name);
  fillNames($("#rep-name"), name);
  pairSelects($("#pz-name"), $("#pz-ruleset"), name, undefined, twoPlayers);
  pairSelects($("#cmp-a"), $("#cmp-a-rules"), name);
  pairSelects($("#cmp-b"), $("#cmp-b-rules"), name);
  if ($("#cmp-b-rules").options.length > 1) $("#cmp-b-rules").selectedIndex = 1;

  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("#setup").addEventListener("submit", (event) => { event.preventDefault(); setupFromForm(); startGame(); });
  // Choosing a game or its rules starts it at once (after pairSelects refills the rules).
  for (const select of [$("#name"), $("#ruleset")]) {
    select.addEventListener("change", () => { setupFromForm(); startGame(); });
  }
  $("#skill").addEventListener("input", () => {
    $("#skill-out").value = `${Math.round(Number($("#skill").value) * 100)}%`;
    game.skill = Number($("#skill").value);
    saveState();
  });
  $("#strategy").addEventListener("change", () => { game.strategy = $("#strategy").value; saveState(); });
  $("#show-values").addEventListener("change", render);
  for (const radio of document.querySelectorAll("input[name=side], #reverse")) radio.addEventListener("change", render);
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#pause").addEventListener("click", () => { game.paused = !game.paused; render(); computerTurn(); });
  $("#show-line").addEventListener("click", showLine);
  $("#show-plan").addEventListener("click", showPlan);
  $("#show-analysis").addEventListener("click", () => showAnalysis());
  $("#record-form").addEventListener("submit", (event) => { event.preventDefault(); showAnalysis($("#record-text").value); });
  $("#explore-form").addEventListener("submit", (event) => { event.preventDefault(); explore($("#ex-fragment").value.trim()); });
  $("#decisive-form").addEventListener("submit", (event) => { event.preventDefault(); showDecisive(); });
  $("#puzzle-form").addEventListener("submit", (event) => { event.preventDefault(); newPuzzle(); });
  $("#report-form").addEventListener("submit", (event) => { event.preventDefault(); report(); });
  $("#compare-form").addEventListener("submit", (event) => { event.preventDefault(); compare(); });
  $("#permalink").addEventListener("click", (event) => {
    // Copy the link where the browser allows it; following it works everywhere.
    if (navigator.clipboard && window.isSecureContext) {
      event.preventDefault();
      navigator.clipboard.writeText(location.href).then(() => { $("#status").textContent = "Link copied."; }, () => {});
    }
  });
  window.addEventListener("hashchange", () => {
    const state = readState();
    if (state.tab === "explore" || state.moves.join(",") !== game.moves.join(",") || state.name !== game.name
      || state.rules !== game.rules || state.from !== game.from) restore();
  });
  document.addEventListener("keydown", onKey);
  restore();
}

function restore() {
  const saved = readState();
  if (saved.name && solution(saved.name)) {
    $("#name").value = saved.name;
    fillRules($("#ruleset"), saved.name, saved.rules, twoPlayers);
  }
  if (saved.players && [...$("#players").options].some((o) => o.value === saved.players)) $("#players").value = saved.players;
  setupFromForm();
  startGame(saved.moves, saved.from);
  if (saved.tab === "explore" && saved.name && solution(saved.name)) {
    showTab("explore");
    pairSelects($("#ex-name"), $("#ex-ruleset"), saved.name, saved.rules);
    $("#ex-fragment").value = saved.position;
    explore(saved.position);
  }
}

main();
