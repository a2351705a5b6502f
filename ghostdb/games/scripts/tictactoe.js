// tic-tac-toe's moves, for the offline site (`ghostdb export site`): the JavaScript twin
// of ghostdb/games/tictactoe.py; tests/test_site.py checks that the two list the same
// moves for every position.
"use strict";

(function register(moves) {
  const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
  const winner = (board) => {
    const line = LINES.find(([a, b, c]) => board[a] !== "." && board[a] === board[b] && board[a] === board[c]);
    return line ? board[line[0]] : null;
  };
  const level = (key) => 9 - [...key].filter((c) => c === ".").length;

  moves.tictactoe = () => ({
    start: () => ".........",
    toMove: (key) => level(key) % 2,
    ending: (key) => (winner(key) ? `${winner(key).toUpperCase()} completed a line` : "the board is full"),
    cleanKey(text) {
      const board = text.trim().toLowerCase().replace(/[-_]/g, ".").replace(/ /g, "");
      if (board.length !== 9 || /[^xo.]/.test(board)) {
        throw new ApiError(`'${text}' is not a tic-tac-toe board: write nine of x, o and '.' row by row, e.g. x...o....`, 400);
      }
      const count = (mark) => [...board].filter((c) => c === mark).length;
      if (![0, 1].includes(count("x") - count("o"))) {
        throw new ApiError(`'${text}' cannot arise: X moves first and the players alternate`, 400);
      }
      return board;
    },
    candidates(key) {
      if (winner(key) || !key.includes(".")) return [];
      const mark = "xo"[level(key) % 2];
      const found = [];
      for (let i = 0; i < 9; i += 1) {
        if (key[i] === ".") found.push([String(i + 1), key.slice(0, i) + mark + key.slice(i + 1)]);
      }
      return found;
    },
    notStored: (key, name) => `${key} is not a position of ${name}`,
  });
}(window.GAME_MOVES = window.GAME_MOVES || {}));
