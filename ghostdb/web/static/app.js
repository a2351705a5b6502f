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
// How a best plan's outcomes end, in the words of the command line (`plan_verdict`).
const planVerdict = (outcomes, lost) => (lost === 0 ? "all won" : lost === outcomes ? "all lost" : `${lost.toLocaleString("en")} lost`);
const movesLeft = (n) => (n === null || n === undefined ? "never ends" : n === 0 ? "game over" : plural(n, "more move"));

function mark(category, length) {
  const text = MARK[category] + (length === null || length === undefined ? "" : length);
  return el("span", { class: `mark ${category}`, title: `${category} for the player making the move; ${movesLeft(length)}` }, text);
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

// Best first for the player to move, as the API lists moves: wins soonest, ties, draws, losses latest.
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
    moves: moves ? moves.split(/[\s,]+/).filter(Boolean) : [],  // as `play` prints them, or commas
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

// -- wiring ----------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-pressed", String(tab.dataset.tab === name));
  for (const id of ["play", "explore", "puzzles", "tables", "friends"]) $(`#${id}`).hidden = id !== name;
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
  } else if (boardTakesMoves() && /^[1-9]$/.test(event.key) && humanToMove()) {
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
  if (typeof roomsStart === "function" && roomsStart()) return;  // /rooms/ID: the room alone (rooms.js)
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
