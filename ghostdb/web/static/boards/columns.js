// Columns that discs fall into (Connect Four): one of the page's board drawings (app.js draws with BOARDS[kind], the board
// kind a game declares). Uses marks.js.
"use strict";

var BOARDS = window.BOARDS || {};  // shared by every board file, loaded before app.js
window.BOARDS = BOARDS;

// Connect Four and its kin: W columns of H cells, rows from the top in the key; a click on a
// column (or its digit key) drops a disc there.
function columnsBoard(pos) {
  const show = valuesShown();
  const rows = pos.fragment.split("/");
  const width = rows[0].length;
  const byMove = new Map(pos.plays.map((p) => [p.move, p]));
  const line = winningLine(rows);
  const columns = [...Array(width).keys()].map((c) => {
    const play = byMove.get(String(c + 1));
    const cells = rows.map((row) => row[c]);
    const discs = cells.filter((cell) => cell !== ".").length;
    const cls = ["key", "column"];
    if (show && play) cls.push(play.category);
    return el("button", {
      type: "button", class: cls.join(" "), "data-move": String(c + 1),
      "aria-label": `column ${c + 1}: ${discs} of ${rows.length} full${show && play ? `, ${play.category} for the player making it, ${movesLeft(play.game_length)}` : ""}`,
      disabled: !play || !humanToMove(), onclick: () => humanMove(play),
    }, el("span", { class: "val" }, show && play ? MARK[play.category] + (play.game_length ?? "") : String(c + 1)),
    cells.map((cell, r) => el("span", {
      class: `cell${cell === "." ? "" : ` disc ${cell}`}${line.has(`${r},${c}`) ? " won" : ""}${r === rows.length - discs && game.justDropped === c ? " drop" : ""}`,
    }, cell === "." ? "" : cell.toUpperCase())));
  });
  return el("div", {}, whoIsWho(), el("div", { class: "columns", role: "group", "aria-label": `Board of ${width} columns` }, columns));
}

BOARDS.columns = Object.assign(columnsBoard, { takesMoves: true });  // played by clicking it
