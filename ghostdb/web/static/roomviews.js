// What a room shows that needs nothing of its socket (rooms.js draws with these): a board
// game's board, and a round's verdicts. Loaded before rooms.js; uses app.js's el and label
// once the page runs.
"use strict";

// Tic-tac-toe's grid and Connect Four's columns (the board kind a game declares) at the key
// `at`, each legal square or column a button that calls play(move) when `moving`; null for
// any other kind (the room keeps its keys).
function roomBoard(kind, at, legal, moving, play) {
  if (kind !== "grid" && kind !== "columns") return null;
  const side = Math.round(Math.sqrt(at.length));
  const rows = at.includes("/") ? at.split("/")
    : [...Array(side).keys()].map((i) => at.slice(i * side, (i + 1) * side));
  const mark = (cell) => (cell === "." ? "" : cell.toUpperCase());
  const key = (move, cls, text, ...inside) => el("button", { type: "button", class: cls, "data-move": move,
    "aria-label": text, disabled: !moving || !legal.includes(move), onclick: () => play(move) }, ...inside);
  if (kind === "grid") {
    return el("div", { class: "ttt", role: "group", "aria-label": "Board" }, [...rows.join("")].map((cell, i) =>
      key(String(i + 1), `key${cell === "." ? "" : " filled"}`, `square ${i + 1}: ${mark(cell) || "empty"}`, mark(cell))));
  }
  const width = rows[0].length;
  return el("div", { class: "columns", role: "group", "aria-label": `Board of ${width} columns` },
    [...Array(width).keys()].map((c) => key(String(c + 1), "key column",
      `column ${c + 1}: ${rows.filter((row) => row[c] !== ".").length} of ${rows.length} full`,
      el("span", { class: "val" }, String(c + 1)),
      rows.map((row) => el("span", { class: `cell${row[c] === "." ? "" : ` disc ${row[c]}`}` }, mark(row[c]))))));
}

// A finished round's verdicts (its round_over event), each seat named by nameOf(seat).
function roundView(e, nameOf) {
  const sentence = (text) => (text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "");
  const moves = e.verdicts.filter((v) => !("ending" in v));
  const end = e.verdicts.find((v) => "ending" in v);
  const said = end ? endVerdict(end, nameOf) : "";
  return el("div", { class: "round-verdicts" },
    el("h4", {}, `Round ${e.round}`),
    el("p", {}, sentence(e.text)),
    el("ol", { class: "room-moves" }, moves.map((v) => moveVerdict(v, nameOf))),
    said ? el("p", { class: "round-end" }, said) : null);
}

function moveVerdict(v, nameOf) {
  const missed = v.missed && v.missed.length;
  return el("li", {}, `${nameOf(v.seat)}: ${v.move} → ${label(v.position)}`,
    v.bluff ? [" ", el("strong", { class: "bluff" }, "bluff")] : null,
    v.verdict ? [" ", el("span", { class: `verdict ${v.verdict}` }, v.verdict)] : null,
    missed ? ` (the winning ${missed === 1 ? "move was" : "moves were"} ${v.missed.join(", ")})` : null);
}

function endVerdict(end, nameOf) {
  const quoted = (position) => `‘${position}’`;
  if (end.challenger !== undefined && end.challenger !== null) {
    const named = end.word ? ` ${nameOf(end.target)} named ‘${end.word}’${end.valid ? "" : ", which does not count"}.` : "";
    if (end.right) {
      return `${nameOf(end.challenger)}'s challenge of ${nameOf(end.target)} was right: no word continues ${quoted(end.position)}.${named}`;
    }
    const example = end.example ? `: ${quoted(end.position)} can become ‘${end.example}’` : "";
    return `${nameOf(end.challenger)}'s challenge of ${nameOf(end.target)} was wrong${example}.${named}`;
  }
  if (end.ending === "word" && end.word) return `${nameOf(end.seat)} completed ‘${end.word}’.`;
  if (end.ending === "final") return "";  // a board game's end: the round's line says it
  return { conceded: "Conceded.", timeout: "The clock ran out.", repeat: "A position came again: a draw." }[end.ending]
    || `The game ended (${end.ending}).`;
}
