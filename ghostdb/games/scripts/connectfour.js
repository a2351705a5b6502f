// Connect Four's moves, for the offline site (`ghostdb export site`): the JavaScript twin
// of ghostdb/games/connectfour.py; tests/test_site.py checks that the two list the same
// moves for every position of the board it exports.
"use strict";

(function register(moves) {
  moves.connectfour = (rulesKey) => {
    const [width, height] = rulesKey.split("/")[1].split("x").map(Number);
    const lines = [];
    for (let r = 0; r < height; r += 1) {
      for (let c = 0; c < width; c += 1) {
        for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
          const cells = [0, 1, 2, 3].map((i) => [r + i * dr, c + i * dc]);
          if (cells.every(([rr, cc]) => rr >= 0 && rr < height && cc >= 0 && cc < width)) {
            lines.push(cells.map(([rr, cc]) => rr * width + cc));
          }
        }
      }
    }
    const level = (key) => [...key].filter((ch) => ch === "x" || ch === "o").length;
    const connected = (key) => {
      const cells = key.replace(/\//g, "");
      return lines.some(([a, b, c, d]) => cells[a] !== "." && cells[a] === cells[b]
        && cells[a] === cells[c] && cells[a] === cells[d]);
    };
    const start = Array(height).fill(".".repeat(width)).join("/");
    return {
      start: () => start,
      toMove: (key) => level(key) % 2,
      ending: (key) => (connected(key) ? `${"xo"[(level(key) - 1) % 2].toUpperCase()} connected four` : "the board is full"),
      cleanKey(text) {
        const cells = text.trim().toLowerCase().replace(/[-_]/g, ".");
        let rows = cells.split(/[/\s]+/).filter(Boolean);
        if (rows.length === 1 && rows[0].length === width * height) {
          rows = Array.from({ length: height }, (_, i) => rows[0].slice(i * width, (i + 1) * width));
        }
        if (rows.length !== height || rows.some((r) => r.length !== width || /[^xo.]/.test(r))) {
          throw new ApiError(`'${text}' is not a ${width} × ${height} Connect Four board: write its ${height} rows from the top, separated by '/', each cell x, o or '.', e.g. ${start}`, 400);
        }
        for (let c = 0; c < width; c += 1) {
          const column = rows.map((r) => r[c]).join("");
          if (/[xo]\./.test(column)) throw new ApiError(`'${text}' has a disc above an empty cell: discs fall down`, 400);
        }
        const key = rows.join("/");
        const count = (mark) => [...key].filter((ch) => ch === mark).length;
        if (![0, 1].includes(count("x") - count("o"))) {
          throw new ApiError(`'${text}' cannot arise: X moves first and the players alternate`, 400);
        }
        return key;
      },
      candidates(key) {
        if (connected(key) || !key.includes(".")) return [];
        const mark = "xo"[level(key) % 2];
        const rows = key.split("/").map((r) => [...r]);
        const found = [];
        for (let c = 0; c < width; c += 1) {
          let r = height - 1;
          while (r >= 0 && rows[r][c] !== ".") r -= 1;
          if (r >= 0) {
            rows[r][c] = mark;
            found.push([String(c + 1), rows.map((row) => row.join("")).join("/")]);
            rows[r][c] = ".";
          }
        }
        return found;
      },
      notStored: (key, name) => `${key} is not a position of ${name}`,
    };
  };
}(window.GAME_MOVES = window.GAME_MOVES || {}));
