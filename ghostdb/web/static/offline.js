// The offline copy's API: answers the page's questions from packs in its own folder, with
// no server (`ghostdb export site`).  Loaded before app.js, whose `api()` hands every
// request here.  A position is built as ghostdb/positions.py builds it (its plays are the
// stored positions the game's moves reach, counted and ranked the same way), a computer
// move is chosen as ghostdb/play/engine.py chooses it, a principal line walked as
// ghostdb/store/answers/walks.py walks it; tests/test_site.py holds each answer to the store's.
"use strict";

(function offline() {
  document.documentElement.classList.add("offline");
  const RANK = { win: 0, tie: 1, draw: 2, loss: 3 };
  const CATEGORY = { loss: "win", win: "loss", tie: "tie", draw: "draw" };
  const site = { catalogue: null, packs: new Map() };

  const fail = (message, status = 400) => { throw new ApiError(message, status); };

  async function catalogue() {
    if (!site.catalogue) {
      site.catalogue = (async () => {
        if (location.protocol === "file:") {
          fail("this offline copy must be served, not opened as a file (browsers do not let a page read files beside it): run `python3 -m http.server` in its folder and open the address it prints", 503);
        }
        const response = await fetch("site.json");
        if (!response.ok) fail(`cannot read site.json: HTTP ${response.status}`, 503);
        return response.json();
      })();
      site.catalogue.catch(() => { site.catalogue = null; });
    }
    return site.catalogue;
  }

  // The pack of a name and rule set, opened once.
  async function packOf(name, rules) {
    const found = await catalogue();
    const files = found.packs[name];
    if (!files) fail(`nothing called ${name} is in this offline copy: it has ${Object.keys(found.packs).join(", ")}`, 404);
    const key = rules || Object.keys(files)[0];
    if (!files[key]) fail(`${name} has no ${key} in this offline copy: it has ${Object.keys(files).join(", ")}`, 404);
    const id = `${name}\n${key}`;
    if (!site.packs.has(id)) {
      const opening = Pack.open(files[key]).then((pack) => {
        const make = GAME_MOVES[pack.header.game];
        if (!make) throw new PackError(`this page does not know the moves of ${pack.header.game}`);
        pack.moves = make(pack.header.rules, pack.header.alphabet || "");
        return pack;
      });
      site.packs.set(id, opening);
      opening.catch(() => site.packs.delete(id));
    }
    try { return await site.packs.get(id); } catch (error) {
      if (error instanceof PackError) fail(error.message, 503);
      throw error;
    }
  }

  const seats = (mask) => {
    if (mask === null) return null;
    const found = [];
    for (let s = 0; mask >> s; s += 1) if ((mask >> s) & 1) found.push(s);
    return found;
  };

  function playBody(move, fragment, r) {
    // As the server's Play.as_dict: each value named by whose view it is in, then the older names.
    const body = { move, position: fragment, fragment, outcome_for_mover: CATEGORY[r.outcome],
      outcome_for_next_player: r.outcome, outcome: r.outcome, category: CATEGORY[r.outcome],
      wins: r.outcome === "loss", game_length: r.game_length, final: r.game_length === 0 };
    if (r.safe_seats !== null) body.safe_seats = seats(r.safe_seats);
    if (r.label !== null) body.say = r.label;
    return body;
  }

  // Best first for the player to move: wins soonest, ties soonest, draws, losses latest (stable).
  function ranked(plays) {
    const sortKey = (p) => {
      const rank = RANK[p.category], length = p.game_length ?? 0;
      return [rank, rank === 3 ? -length : length];
    };
    return plays.map((p, i) => [sortKey(p), i, p])
      .sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1] || a[1] - b[1]).map((x) => x[2]);
  }

  // The best play by the solvers' rule (ghostdb.positions.derived_best): for two players
  // the first in move order that achieves the value and the length; with more, the first
  // that keeps the mover safe, else the first.
  function derivedBest(plays, toMove) {
    if (plays[0].safe_seats !== undefined) return plays.find((p) => p.safe_seats.includes(toMove)) || plays[0];
    return ranked(plays)[0];
  }

  // The position as `ghostdb lookup --json` answers it.
  async function position(name, rules, text) {
    const pack = await packOf(name, rules);
    const moves = pack.moves;
    const key = text ? moves.cleanKey(text) : moves.start();
    const head = await pack.record(key);
    if (!head) fail(moves.notStored(key, pack.header.name));
    const isFinal = head.game_length === 0;
    const plays = [];
    if (!isFinal) {
      const candidates = moves.candidates(key);
      const records = await Promise.all(candidates.map(([, child]) => pack.record(child)));
      candidates.forEach(([move, child], i) => {
        if (records[i] && child !== key) plays.push(playBody(move, child, records[i]));
      });
    }
    const toMove = moves.toMove(key);
    const safe = seats(head.safe_seats);
    let winning, drawing = 0;
    if (plays.length && plays[0].safe_seats !== undefined) {
      winning = plays.filter((p) => p.safe_seats.includes(toMove)).length;
    } else {
      winning = plays.filter((p) => p.outcome === "loss").length;
      drawing = plays.filter((p) => p.outcome === "draw").length;
    }
    const best = plays.length ? derivedBest(plays, toMove).move : null;
    const decided = toMove !== null && (head.outcome === "win" || head.outcome === "loss") && safe === null;
    const body = {
      name: pack.header.name, game: pack.header.game, rules: pack.header.rules, position: key, fragment: key,
      to_move: toMove, outcome: head.outcome,
      winner: decided ? (head.outcome === "win" ? toMove : 1 - toMove) : null,
      game_length: head.game_length, best_move: best, winning_moves: winning,
      drawing_moves: drawing, final: isFinal, ending: isFinal ? moves.ending(key) : null,
      reachable: head.reachable,
    };
    if (head.label !== null) body.say = head.label;
    if (safe !== null) body.safe_seats = safe;
    body.plays = ranked(plays);
    Object.defineProperty(body, "inOrder", { value: plays });  // move order, for the walks
    return body;
  }

  const pick = (list) => list[Math.floor(Math.random() * list.length)];

  // The computer's move, as ghostdb.play.engine.choose makes it for two players.
  function choose(strategy, pos) {
    const plays = pos.inOrder;
    if (!plays.length) fail(`'${pos.fragment}' is a finished game: there is no move`);
    if (strategy === "random") return pick(plays);
    if (strategy === "rational") return pick(plays.filter((p) => p.wins).length ? plays.filter((p) => p.wins) : plays);
    if (strategy === "fastest") return plays.find((p) => p.move === pos.best_move);
    if (strategy !== "optimal") fail(`'${strategy}' is not a computer strategy: use one of optimal, fastest, rational, random`);
    if (pos.outcome === "win") return pick(plays.filter((p) => p.wins));
    if (pos.outcome === "tie") return pick(plays.filter((p) => p.outcome === "tie" && p.game_length === pos.game_length - 1));
    if (pos.outcome === "draw") return pick(plays.filter((p) => p.outcome === "draw"));
    const longest = Math.max(...plays.map((p) => p.game_length || 0));
    return pick(plays.filter((p) => p.game_length === longest));
  }

  async function move(name, params) {
    const pos = await position(name, params.rules, params.position || "");
    const skill = params.skill === undefined ? 1 : Number(params.skill);
    const strategy = params.strategy || "optimal";
    const by = skill >= 1 || Math.random() < skill ? "strategy" : "random";
    const play = choose(by === "strategy" ? strategy : "random", pos);
    return { name, rules: pos.rules, position: pos.fragment, fragment: pos.fragment, strategy, skill, seed: null, by, play };
  }

  // The principal lines from a position (ghostdb/store/answers/walks.py): in a two-player word
  // game every play that keeps the value and ends a move sooner, elsewhere the best move.
  async function line(name, params) {
    const found = await catalogue();
    const start = await position(name, params.rules, params.position || "");
    const pack = await packOf(name, start.rules);
    const declared = found.games.find((g) => g.game === start.game) || {};
    const ties = declared.word_game && !/\/\d+p(\/|$)/.test(start.rules);
    const follow = (pos) => (ties
      ? pos.inOrder.filter((p) => p.outcome !== pos.outcome && p.game_length === pos.game_length - 1)
      : pos.inOrder.filter((p) => p.move === pos.best_move).slice(0, 1));
    const limit = found.walk_limit;
    const node = (fragment, move, toMove, outcome, length) => ({ fragment, move, to_move: toMove, outcome, game_length: length, children: [] });
    const root = node(start.fragment, null, start.to_move, start.outcome, start.game_length);
    let frontier = [[root, start, null]], nodes = 1, cycle = false;
    const tooLarge = () => fail(`that line from '${start.fragment}' passes more than ${limit.toLocaleString("en")} positions: ask from a position further on, or run \`ghostdb line ${name}\` for the whole of it`);
    const onPath = (key, entry) => { for (; entry; entry = entry[2]) if (entry[0].fragment === key) return true; return false; };
    while (frontier.length) {
      if (nodes + frontier.filter(([n]) => n.game_length !== 0).length > limit) tooLarge();
      const following = [];
      for (const entry of frontier) {
        const [n] = entry;
        if (n.game_length === 0) continue;
        const pos = entry[1] || await position(name, start.rules, n.fragment);
        for (const play of follow(pos)) {
          const child = node(play.fragment, play.move, pack.moves.toMove(play.fragment), play.outcome, play.game_length);
          n.children.push(child);
          nodes += 1;
          if (nodes > limit) tooLarge();
          if (onPath(play.fragment, entry)) { cycle = true; continue; }
          following.push([child, null, entry]);
        }
      }
      frontier = following;
    }
    const endings = [];
    const leaves = (n, path) => {
      const here = [...path, n];
      if (!n.children.length) endings.push(here);
      for (const c of n.children) leaves(c, here);
    };
    leaves(root, []);
    const winnerOf = (n) => (n.to_move === null || !["win", "loss"].includes(n.outcome) ? null : n.outcome === "win" ? n.to_move : 1 - n.to_move);
    const tree = (n) => {
      const data = { fragment: n.fragment, move: n.move, to_move: n.to_move, outcome: n.outcome, game_length: n.game_length };
      if (n.game_length === 0) data.word = true; else data.children = n.children.map(tree);
      return data;
    };
    return {
      dictionary: start.name, rules: start.rules, from: start.fragment, to_move: root.to_move,
      outcome: root.outcome, winner: winnerOf(root), game_length: root.game_length, cycle,
      endings: endings.map((path) => {
        const last = path[path.length - 1];
        return { word: last.fragment, path: path.map((n) => n.fragment), moves: path.slice(1).map((n) => n.move || ""),
          completed_by: last.to_move === null ? null : 1 - last.to_move, winner: winnerOf(last) };
      }),
      tree: tree(root),
    };
  }

  const ROUTE = /^\/api\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/(position|move|line)$/;

  window.ghostdbOffline = async (path, params = {}) => {
    if (path === "/api/solutions") return { solutions: (await catalogue()).solutions };
    if (path === "/api/games") return (await catalogue()).games;
    const match = ROUTE.exec(path);
    if (!match) fail("this offline copy answers play and lookups only: serve the store with `ghostdb serve` for the rest", 404);
    const [, name, route] = match;
    if (route === "position") {
      const pos = await position(name, params.rules, params.position || "");
      return pos;
    }
    return route === "move" ? move(name, params) : line(name, params);
  };
  window.ghostdbOfflinePosition = position;  // for scripts and tests
}());
