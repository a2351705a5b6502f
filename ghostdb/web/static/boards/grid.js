// A square grid (tic-tac-toe): one of the page's board drawings (app.js draws with BOARDS[kind], the board
// kind a game declares). Uses marks.js.
"use strict";

var BOARDS = window.BOARDS || {};  // shared by every board file, loaded before app.js
window.BOARDS = BOARDS;

function gridBoard(pos) {
  const show = valuesShown();
  const byMove = new Map(pos.plays.map((p) => [p.move, p]));
  const side = Math.round(Math.sqrt(pos.fragment.length));
  const rows = [...Array(side).keys()].map((r) => pos.fragment.slice(r * side, (r + 1) * side));
  const line = winningLine(rows);
  return el("div", {}, whoIsWho(), el("div", { class: "ttt", role: "group", "aria-label": "Board" },
    [...pos.fragment].map((cell, i) => {
      const play = byMove.get(String(i + 1));
      const filled = cell !== ".";
      const cls = ["key"];
      if (filled) cls.push("filled");
      if (line.has(`${Math.floor(i / side)},${i % side}`)) cls.push("won");
      if (show && play) cls.push(play.category);
      return el("button", {
        type: "button", class: cls.join(" "), "data-move": String(i + 1),
        "aria-label": `square ${i + 1}: ${filled ? cell.toUpperCase() : "empty"}${line.has(`${Math.floor(i / side)},${i % side}`) ? ", in the winning line" : ""}${show && play ? `, ${play.category} for the player making it, ${movesLeft(play.game_length)}` : ""}`,
        disabled: filled || !play || !humanToMove(), onclick: () => humanMove(play),
      }, el("span", {}, filled ? cell.toUpperCase() : ""),
      show && play ? el("span", { class: "val" }, MARK[play.category] + (play.game_length ?? "")) : null);
    })));
}

BOARDS.grid = Object.assign(gridBoard, { takesMoves: true });  // played by clicking it
