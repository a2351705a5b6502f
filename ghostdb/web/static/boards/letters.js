// Ghost's fragment: one of the page's board drawings (app.js draws with BOARDS[kind], the board
// kind a game declares). The letters are played on the keys below it (app.js).
"use strict";

var BOARDS = window.BOARDS || {};  // shared by every board file, loaded before app.js
window.BOARDS = BOARDS;

BOARDS.letters = (pos) => {
  const text = pos.fragment === "" ? el("span", { class: "empty" }, "(start: type a letter)") : pos.say || pos.fragment;
  return el("div", { class: "fragment", "aria-label": `Fragment ${label(pos.fragment)}` }, text);
};
