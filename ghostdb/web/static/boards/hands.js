// Chopsticks' hands: one of the page's board drawings (app.js draws with BOARDS[kind], the board
// kind a game declares).
"use strict";

var BOARDS = window.BOARDS || {};  // shared by every board file, loaded before app.js
window.BOARDS = BOARDS;

// Chopsticks: two pairs of hands drawn with their fingers up (SVG), the opponent's above.
// A tap is a click on one of your hands, then on a hand of your opponent's; with values
// shown, each hand carries the best value of the taps it can make or receive.
const SVG = "http://www.w3.org/2000/svg";
function svgNode(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function handPicture(fingers, slots) {
  const svg = svgNode("svg", { viewBox: "0 0 60 66", width: "60", height: "66", "aria-hidden": "true", class: "hand-svg" });
  const gap = 44 / slots;
  for (let k = 0; k < slots; k += 1) {
    const up = k < fingers;
    svg.append(svgNode("rect", {
      x: String(8 + k * gap + gap * 0.12), y: up ? "4" : "26", width: String(gap * 0.76), height: up ? "34" : "12",
      rx: String(gap * 0.38), class: up ? "finger" : "finger down",
    }));
  }
  svg.append(svgNode("rect", { x: "6", y: "34", width: "48", height: "28", rx: "10", class: "palm" }));
  return svg;
}

function handsBoard(pos) {
  const [mine, theirs] = pos.fragment.split("-").map((pair) => [...pair].map(Number));
  const mover = turn();
  const hands = { [mover]: mine, [1 - mover]: theirs };
  const canPlay = humanToMove();
  const show = valuesShown();
  const slots = Math.max(4, ...mine, ...theirs);
  const taps = pos.plays.filter((p) => p.move.includes(">"));
  const bestTap = (test) => taps.filter(test).sort(byValue)[0] || null;
  const row = (player) => el("div", { class: "row" },
    el("span", { class: `who who${player}` }, who(player)),
    hands[player].map((fingers, i) => {
      const own = player === mover;
      const pressed = own && game.selected === i;
      const [from, to] = [mine[game.selected], fingers];
      // The value on a hand: of the best tap it makes (yours), or of the tap it would
      // receive from the hand you picked (your opponent's).
      const tap = !show || fingers === 0 ? null
        : own ? bestTap((p) => p.move.startsWith(`${fingers}>`))
          : game.selected === null ? null : bestTap((p) => p.move === `${from}>${to}`);
      const cls = ["hand"];
      if (fingers === 0) cls.push("dead");
      if (tap) cls.push(tap.category);
      return el("button", {
        type: "button", class: cls.join(" "),
        "aria-pressed": own ? String(pressed) : null,
        "aria-label": `player ${player}'s ${i ? "right" : "left"} hand: ${fingers} finger${fingers === 1 ? "" : "s"}`
          + (tap ? `; ${own ? "its best tap" : "this tap"}: ${tap.category} for the player making it, ${movesLeft(tap.game_length)}` : ""),
        disabled: !canPlay || fingers === 0 || (!own && game.selected === null),
        onclick: () => {
          if (own) { game.selected = pressed ? null : i; render(); return; }
          const move = `${from}>${to}`;
          const play = pos.plays.find((p) => p.move === move);
          game.selected = null;
          if (play) humanMove(play); else { notice(`${move} is not a legal move here`); render(); }
        },
      }, handPicture(fingers, slots),
      el("span", { class: "count" }, `${i ? "right" : "left"} ${fingers}`),
      tap ? el("span", { class: "val" }, MARK[tap.category] + (tap.game_length ?? "")) : null);
    }));
  const transfers = pos.plays.filter((p) => !p.move.includes(">"));
  return el("div", { class: "hands" }, row(1), row(0),
    transfers.length && !isOver() ? el("div", { class: "transfers", role: "group", "aria-label": "Transfers" },
      el("span", { class: "legend" }, "Transfer between your hands:"),
      transfers.map((play) => keyButton(`${play.move.slice(1, 2)} | ${play.move.slice(2)}`, play, {
        onclick: () => humanMove(play), "data-move": play.move,
        "aria-label": `transfer to ${play.move.slice(1, 2)} and ${play.move.slice(2)} fingers`,
      }))) : null,
    el("p", { class: "legend" }, "Tap: click one of your hands, then a hand of your opponent's."));
}

BOARDS.hands = Object.assign(handsBoard, { takesMoves: true });  // played by clicking it
