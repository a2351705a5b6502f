// Chopsticks' moves, for the offline site (`ghostdb export site`): the JavaScript twin of
// ghostdb/games/chopsticks.py (taps, then transfers, one move a child); tests/test_site.py
// checks that the two list the same moves for every position of every rule set.
"use strict";

(function register(moves) {
  const handsKey = (mine, theirs) => {
    const [a, b] = [...mine].sort((x, y) => x - y);
    const [c, d] = [...theirs].sort((x, y) => x - y);
    return `${a}${b}-${c}${d}`;
  };

  moves.chopsticks = (rulesKey) => {
    const parts = rulesKey.split("/");
    const fingers = Number(parts[1]);
    const rollover = parts.includes("rollover");
    const transfers = !parts.includes("no-transfers");
    return {
      start: () => "11-11",
      toMove: () => null,
      ending: () => "the player to move has two dead hands",
      cleanKey(text) {
        const match = /^\s*(\d)\s*(\d)\s*[-/ ,]?\s*(\d)\s*(\d)\s*$/.exec(text);
        if (!match) {
          throw new ApiError(`'${text}' is not a Chopsticks position: write your two hands, a dash and the opponent's, e.g. 11-11`, 400);
        }
        const digits = match.slice(1).map(Number);
        if (Math.max(...digits) >= fingers) {
          throw new ApiError(`'${text}' has a hand of ${Math.max(...digits)} fingers: hands show 0 to ${fingers - 1}`, 400);
        }
        return handsKey(digits.slice(0, 2), digits.slice(2));
      },
      candidates(key) {
        const mine = [Number(key[0]), Number(key[1])], theirs = [Number(key[3]), Number(key[4])];
        if (Math.max(...mine) === 0 || Math.max(...theirs) === 0) return [];
        const found = [], seen = new Set();
        const add = (notation, child) => {
          if (!seen.has(child)) { seen.add(child); found.push([notation, child]); }
        };
        const live = (hands) => [...new Set(hands.filter(Boolean))].sort((a, b) => a - b);
        for (const x of live(mine)) {
          for (const y of live(theirs)) {
            const total = x + y;
            const hit = rollover ? total % fingers : (total < fingers ? total : 0);
            const other = theirs[0] === y ? theirs[1] : theirs[0];
            add(`${x}>${y}`, handsKey([hit, other], mine));
          }
        }
        if (transfers) {
          const results = new Map();
          for (const [source, target] of [[mine[0], mine[1]], [mine[1], mine[0]]]) {
            for (let k = 1; k <= Math.min(source - 1, fingers - 1 - target); k += 1) {
              if (source - k !== target) {  // a swap is not a move
                const pair = [source - k, target + k].sort((a, b) => a - b);
                results.set(`${pair[0]}${pair[1]}`, pair);
              }
            }
          }
          for (const name of [...results.keys()].sort()) add(`=${name}`, handsKey(theirs, results.get(name)));
        }
        return found;
      },
      notStored: (key, name) => `${key} is not a position of ${name}`,
    };
  };
}(window.GAME_MOVES = window.GAME_MOVES || {}));
