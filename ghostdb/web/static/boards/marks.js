// What boards with marks share: one of the page's board drawings (app.js draws with BOARDS[kind], the board
// kind a game declares). Tic-tac-toe and Connect Four say who plays which mark and mark the winning line.
"use strict";

var BOARDS = window.BOARDS || {};  // shared by every board file, loaded before app.js
window.BOARDS = BOARDS;

// Board games with marks (x, o): who plays which, and the line that won, found on the
// drawn board (rows of cells) as the game declares it: so many of one mark in a row.
function whoIsWho() {
  if (!game.marks.length) return null;
  return el("p", { class: "marks" }, ...game.marks.flatMap((mark, player) => [
    player ? " · " : "", el("span", { class: `disc ${mark}`, "aria-hidden": "true" }, mark.toUpperCase()),
    ` ${mark.toUpperCase()}: ${who(player)}`]));
}

function winningLine(rows) {
  const k = game.inARow;
  if (!k) return new Set();
  const at = (r, c) => (r >= 0 && r < rows.length && c >= 0 && c < rows[r].length ? rows[r][c] : ".");
  for (let r = 0; r < rows.length; r += 1) {
    for (let c = 0; c < rows[r].length; c += 1) {
      const mark = rows[r][c];
      if (mark === ".") continue;
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const cells = [...Array(k).keys()].map((i) => [r + i * dr, c + i * dc]);
        if (cells.every(([rr, cc]) => at(rr, cc) === mark)) return new Set(cells.map(([rr, cc]) => `${rr},${cc}`));
      }
    }
  }
  return new Set();
}
