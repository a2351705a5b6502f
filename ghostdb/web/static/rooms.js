// Rooms: Ghost played together, each person at their own screen, over the room's
// WebSocket (the protocol: docs/reference/rooms.md). "Play with friends" makes a room;
// its link, /rooms/ID, opens the room alone: join it with a name, or watch it. A seat's
// token is kept in sessionStorage under the room's id, never in a URL. Loaded before
// app.js, whose helpers ($, el, fill, table, label, solution, …) it calls once the page
// runs; app.js calls roomsStart() once it has read the catalogue.
"use strict";

const ghostdbRooms = (() => {
  const ROOM_PATH = /^\/rooms\/([A-Za-z0-9_-]{1,32})\/?$/;
  const SEAT_KINDS = [
    ["human", "a person"], ["optimal", "computer: optimal"], ["fastest", "computer: fastest"],
    ["rational", "computer: rational"], ["random", "computer: random"], ["trap", "computer: sets traps"],
    ["common:2000", "computer: knows 2,000 words"], ["common:10000", "computer: knows 10,000 words"],
  ];
  const MAX_SEATS = 8;
  const SECTIONS = ["play", "explore", "puzzles", "tables", "friends"];
  const room = {
    id: null, token: null, seat: null, state: null, online: [], socket: null, greeted: false,
    retry: 0, retryTimer: null, stopped: true, sent: 0, pending: false, keys: "", plays: null,
    answering: false, heard: false, drawn: "",
  };

  // -- the seat's token, kept in this tab only --------------------------------------------

  const tokenKey = (id) => `ghostdb-room:${id}`;
  const saved = (id) => {
    try { return JSON.parse(sessionStorage.getItem(tokenKey(id)) || "null"); } catch { return null; }
  };
  const keep = (id, seated) => sessionStorage.setItem(tokenKey(id), JSON.stringify({ token: seated.token, seat: seated.seat }));
  const forget = (id) => sessionStorage.removeItem(tokenKey(id));

  // The rooms' HTTP routes: JSON in and out; errors are {"error": one line}.
  async function call(path, body) {
    const init = body === undefined ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const response = await fetch(path, init);
    let data = {};
    try { data = await response.json(); } catch { /* not JSON: the status says it */ }
    if (!response.ok) {
      const text = data.error || (typeof data.detail === "string" ? data.detail : "") || `HTTP ${response.status}`;
      throw new ApiError(text, response.status);
    }
    return data;
  }

  // -- making a room: the "Play with friends" tab -----------------------------------------

  function seatRow(kind) {
    const n = $("#rm-seats").children.length + 1;
    return el("li", {}, el("label", {}, `Seat ${n} `,
      el("select", { class: "rm-seat" }, SEAT_KINDS.map(([value, text]) =>
        el("option", { value, selected: value === kind }, text)))));
  }

  function seatButtons() {
    const n = $("#rm-seats").children.length;
    $("#rm-add").disabled = n >= MAX_SEATS;
    $("#rm-remove").disabled = n <= 2;
  }

  function setupFriends() {
    if (!solved().length) return;
    pairSelects($("#rm-name"), $("#rm-rules"), firstChoice());
    fill($("#rm-seats"));
    for (const kind of ["human", "human"]) $("#rm-seats").append(seatRow(kind));
    seatButtons();
    $("#rm-add").addEventListener("click", () => { $("#rm-seats").append(seatRow("optimal")); seatButtons(); });
    $("#rm-remove").addEventListener("click", () => {
      if ($("#rm-seats").children.length > 2) $("#rm-seats").lastElementChild.remove();
      seatButtons();
    });
    $("#room-form").addEventListener("submit", makeRoom);
  }

  async function makeRoom(event) {
    event.preventDefault();
    const out = $("#rm-out");
    const clock = $("#rm-clock").value;
    const body = {
      name: $("#rm-name").value, rules: $("#rm-rules").value || null,
      seats: [...document.querySelectorAll("#rm-seats select")].map((s) => s.value),
      lives: Number($("#rm-lives").value), clock: clock ? Number(clock) : null,
      player: $("#rm-player").value.trim() || null,
    };
    out.textContent = "Making the room…";
    try {
      const made = await call("/api/rooms", body);
      if (made.token) keep(made.room, made);
      location.assign(made.url || `/rooms/${made.room}`);
    } catch (error) { out.textContent = `No room made: ${error.message}`; }
  }

  // -- the room's page --------------------------------------------------------------------

  function start() {
    if (window.ghostdbOffline) return false;  // the offline copy has no rooms
    setupFriends();
    const match = ROOM_PATH.exec(location.pathname);
    if (!match) return false;
    openRoom(match[1]);
    return true;
  }

  async function openRoom(id) {
    room.id = id;
    for (const section of SECTIONS) $(`#${section}`).hidden = true;
    for (const tab of document.querySelectorAll(".tab")) tab.hidden = true;
    $("#home-link").hidden = false;
    $("#room").hidden = false;
    $("#room-link").value = `${location.origin}/rooms/${id}`;
    $("#room-download").href = `/api/rooms/${enc(id)}/record`;
    wire();
    const mine = saved(id);
    if (mine && mine.token) { room.token = mine.token; room.seat = mine.seat; connect(); return; }
    try {
      room.state = await call(`/api/rooms/${enc(id)}`);
      room.online = room.state.online || [];
    } catch (error) {
      notice(error.status === 404 ? "There is no such room: make one under Play with friends." : error.message);
      return;
    }
    render();
    offerSeat();
  }

  // Without a token: join (a free seat, by name) or watch.
  function offerSeat() {
    const s = room.state;
    const free = s && s.status === "waiting" && s.seats.some((seat) => seat.player === "human" && !seat.name);
    $("#room-join").hidden = false;
    $("#room-join-button").disabled = !free;
    $("#room-name").disabled = !free;
    say(free ? "Type your name and join, or watch." : "Every seat is taken: you may watch.");
  }

  async function join(event) {
    event.preventDefault();
    const name = $("#room-name").value.trim();
    if (!name) { say("Type your name to join, or watch."); $("#room-name").focus(); return; }
    try {
      const seated = await call(`/api/rooms/${enc(room.id)}/join`, { name });
      keep(room.id, seated);
      room.token = seated.token;
      room.seat = seated.seat;
      $("#room-join").hidden = true;
      connect();
    } catch (error) { say(`Not seated: ${error.message}`); }
  }

  function watch() {
    room.token = null;
    room.seat = null;
    $("#room-join").hidden = true;
    connect();
  }

  let wired = false;
  function wire() {
    if (wired) return;
    wired = true;
    $("#room-join").addEventListener("submit", join);
    $("#room-watch").addEventListener("click", watch);
    $("#room-copy").addEventListener("click", copyLink);
    $("#room-challenge").addEventListener("click", () => act("challenge"));
    $("#room-concede").addEventListener("click", () => act("concede"));
    $("#room-word").addEventListener("submit", (event) => {
      event.preventDefault();
      const word = $("#room-word-text").value.trim();
      if (!word) { say("Type the word the position can become, or concede."); return; }
      if (act("word", { word })) $("#room-word-text").value = "";
    });
    $("#room-move").addEventListener("submit", (event) => {
      event.preventDefault();
      const move = $("#room-move-text").value.trim();
      if (move && act("move", { move })) $("#room-move-text").value = "";
    });
    $("#room-rematch").addEventListener("click", rematch);
    document.addEventListener("keydown", onKey);
    window.addEventListener("online", () => { if (!room.socket && !room.stopped) connect(); });
    window.addEventListener("offline", () => { if (room.socket) room.socket.close(); });
    window.addEventListener("pagehide", () => { room.stopped = true; });
    setInterval(tick, 500);
  }

  function copyLink() {
    const link = $("#room-link").value;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link).then(() => say("Link copied."), () => selectLink());
    } else selectLink();
  }

  function selectLink() {
    $("#room-link").focus();
    $("#room-link").select();
    say("Copy the selected link (Ctrl+C).");
  }

  // -- the socket: hello, then events; after a drop, again with since ---------------------

  function connect() {
    clearTimeout(room.retryTimer);
    room.stopped = false;
    if (!navigator.onLine) { say("Offline: the room reconnects when the network is back."); return; }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${enc(room.id)}/socket`);
    room.socket = socket;
    room.greeted = false;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ op: "hello", token: room.token, since: room.state ? room.state.v : 0 }));
    });
    socket.addEventListener("message", (message) => { if (room.socket === socket) receive(message.data); });
    socket.addEventListener("close", () => dropped(socket));
  }

  function dropped(socket) {
    if (room.socket !== socket) return;
    room.socket = null;
    room.greeted = false;
    room.pending = false;
    room.online = [];
    render();
    if (room.stopped) return;
    if (!navigator.onLine) { say("Offline: the room reconnects when the network is back."); return; }
    const wait = Math.min(10000, 500 * 2 ** room.retry) * (0.8 + Math.random() * 0.4);
    room.retry += 1;
    say(`Connection lost: reconnecting in ${Math.ceil(wait / 1000)} s…`);
    room.retryTimer = setTimeout(connect, wait);
  }

  function receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (message.type === "welcome") {
      const back = room.heard;
      room.heard = true;
      room.seat = message.seat;
      room.retry = 0;
      room.greeted = true;
      if (message.state) room.state = message.state;
      if (room.state && "deadline" in message) room.state.deadline = message.deadline;
      say(back ? "Connected again." : message.seat === null ? "You are watching." : "");
    } else if (message.type === "presence") {
      room.online = message.online || [];
    } else if (message.type === "error") {
      refused(message);
    } else if (message.type === "ack") {
      room.pending = false;
    } else {
      apply(message);
    }
    render();
  }

  function refused(message) {
    room.pending = false;
    if (message.code === "bad_token") {  // the server closes the socket
      forget(room.id);
      room.token = null;
      room.seat = null;
      room.stopped = true;
      call(`/api/rooms/${enc(room.id)}`).then((state) => {
        room.state = state;
        render();
        offerSeat();
        say("This seat is not yours any more: join again, or watch.");
      }, (error) => notice(error.message));
      return;
    }
    say(message.message || message.code);
  }

  // The room's events, folded into its state as the server's RoomState.apply does: each
  // once, in order (one seen already is skipped; a gap asks again from the last seen).
  function apply(e) {
    const s = room.state;
    if (!s || typeof e.v !== "number" || e.v <= s.v) return;
    if (e.v !== s.v + 1) { resync(); return; }
    s.v = e.v;
    room.pending = false;
    if ("deadline" in e) s.deadline = e.deadline;
    const r = s.round;
    if (e.type === "joined") s.seats[e.seat].name = e.name;
    else if (e.type === "started") s.status = "playing";
    else if (e.type === "round") {
      s.round = { round: e.round, starter: e.starter, seats: e.seats, position: e.position ?? "",
        turn: e.starter, phase: "move", challenger: null, moves: [] };
    } else if (e.type === "moved" && r) {
      r.moves.push({ seat: e.seat, move: e.move, position: e.position, text: e.text, auto: e.auto });
      r.position = e.position;
      r.turn = r.seats[(r.seats.indexOf(e.seat) + 1) % r.seats.length];
    } else if (e.type === "challenged" && r) {
      Object.assign(r, { phase: "answer", challenger: e.seat, turn: e.target });
    } else if (e.type === "round_over") {
      e.letters.forEach((count, i) => {
        Object.assign(s.seats[i], { letters: count, spelled: s.letters.slice(0, count), out: count >= s.lives });
      });
      s.rounds.push(e);
      s.round = null;
    } else if (e.type === "match_over") {
      Object.assign(s, { status: "over", winners: e.winners, round: null, said: e.text });
    } else if (e.type === "rematch") s.rematch = e.room;
    const line = happened(e);
    if (line) say(line);
  }

  function resync() {
    room.retry = 0;
    if (room.socket) room.socket.close();
  }

  function happened(e) {
    const who = nameOf;
    switch (e.type) {
      case "joined": return `${e.name} took a seat.`;
      case "started": return "Every seat is taken: the match begins.";
      case "round": return `Round ${e.round}: ${who(e.starter)} starts.`;
      case "moved": return `${who(e.seat)} played ${e.move}${e.auto ? " (the computer, standing in)" : ""}.`;
      case "challenged": return `${who(e.seat)} challenges ${who(e.target)}.`;
      case "answered": return `${who(e.seat)} named ‘${e.word}’.`;
      case "conceded": return `${who(e.seat)} conceded the round.`;
      case "timed_out": return `${who(e.seat)} ran out of time.`;
      case "round_over": return sentence(e.text);
      case "match_over": return sentence(e.text);
      case "rematch": return "A rematch is ready.";
      default: return "";
    }
  }

  // -- playing ------------------------------------------------------------------------------

  function act(op, fields = {}) {
    const socket = room.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || !room.greeted) {
      say("Not connected: wait a moment and try again.");
      return false;
    }
    room.sent += 1;
    room.pending = true;
    socket.send(JSON.stringify({ op, ...fields, id: `${op}-${room.state.v}-${room.sent}` }));
    render();
    return true;
  }

  function turnOf() {
    const s = room.state;
    const r = s && s.round;
    const seated = room.seat !== null && room.seat !== undefined && room.token;
    const mine = Boolean(seated && s.status === "playing" && r && r.turn === room.seat
      && room.greeted && !room.pending);
    return { r, moving: mine && r.phase === "move", answering: mine && r.phase === "answer", mine };
  }

  const letterGame = () => room.state.word_game && room.state.rules.split("/")[0] === "ghost";
  const alphabet = () => [...((solution(room.state.name) || {}).alphabet || "abcdefghijklmnopqrstuvwxyz")];

  function onKey(event) {
    if ($("#room").hidden || !room.state) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const { r, moving } = turnOf();
    if (event.key === "!" && moving && room.state.word_game && r.moves.length) {
      event.preventDefault();
      act("challenge");
    } else if (moving && letterGame() && event.key.length === 1 && /\p{L}/u.test(event.key)) {
      event.preventDefault();
      act("move", { move: event.key.toLowerCase() });
    }
  }

  async function rematch() {
    $("#room-rematch").disabled = true;
    try {
      const seated = await call(`/api/rooms/${enc(room.id)}/rematch`, { token: room.token });
      keep(seated.room, seated);
      room.stopped = true;
      location.assign(`/rooms/${enc(seated.room)}`);
    } catch (error) {
      say(`No rematch: ${error.message}`);
      $("#room-rematch").disabled = false;
    }
  }

  // -- drawing the room ---------------------------------------------------------------------

  function nameOf(i) {
    const seat = room.state && room.state.seats[i];
    if (!seat) return `seat ${i}`;
    return seat.name || (seat.player === "human" ? `free seat ${i + 1}` : `computer (${seat.player})`);
  }

  const you = (i) => (i === room.seat ? " (you)" : "");
  const sentence = (text) => (text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "");
  const quoted = (position) => `‘${position}’`;

  function say(text) { $("#room-status").textContent = text; }

  function render() {
    const s = room.state;
    if (!s) return;
    $("#room-view").hidden = false;
    const found = ruleSet(s.name, s.rules);
    const lives = s.word_game ? `; ${s.lives === 1 ? "one life (G)" : `${s.lives} lives (${s.letters})`}` : "";
    $("#room-about").textContent = `${s.name}, ${found ? found.description : s.rules}${lives}; `
      + `clock ${s.clock ? `${s.clock} s a turn` : "off"}.`;
    renderPosition(s);
    renderSeats(s);
    renderControls(s);
    renderMoves(s);
    renderRounds(s);
    tick();
  }

  function renderPosition(s) {
    const r = s.round;
    const last = r && r.moves.length ? r.moves[r.moves.length - 1] : null;
    const text = r ? (last ? last.text : r.position) : null;
    const node = $("#room-position");
    const shown = text === null ? (s.status === "over" ? "Match over" : "Waiting for players")
      : text === "" ? "(start)" : text;
    if (node.textContent !== shown) {
      node.classList.toggle("quiet", text === null || text === "");
      node.textContent = shown;
    }
    const whose = $("#room-whose");
    const missing = s.seats.filter((seat) => seat.player === "human" && !seat.name).length;
    if (s.status === "waiting") {
      whose.textContent = `Waiting for ${missing} more ${missing === 1 ? "player" : "players"}: send them the link.`;
    } else if (s.status === "over") {
      whose.textContent = "";
    } else if (r && r.phase === "answer") {
      whose.textContent = r.turn === room.seat
        ? `${nameOf(r.challenger)} challenges you: name a word that ${quoted(r.position)} can become, or concede.`
        : `${nameOf(r.challenger)} challenges ${nameOf(r.turn)}, who must name a word.`;
    } else if (r) {
      whose.textContent = r.turn === room.seat ? "Your turn: play a letter, challenge (!) or concede."
        : `${nameOf(r.turn)} to move.`;
    }
  }

  function renderSeats(s) {
    const r = s.round;
    fill($("#room-seats"), s.seats.map((seat, i) => {
      const turn = Boolean(r && r.turn === i && s.status === "playing");
      const here = seat.player !== "human" ? "computer" : !seat.name ? "free" : room.online.includes(i) ? "online" : "offline";
      const spelled = `${seat.spelled || ""}${"_".repeat(Math.max(0, s.lives - seat.letters))}`;
      return el("li", { class: `room-seat${turn ? " turn" : ""}${seat.out ? " out" : ""}`, "data-seat": String(i),
        "aria-current": turn ? "true" : null },
      el("span", { class: "seat-name" }, nameOf(i), you(i)),
      s.word_game ? [el("span", { class: "spelled", "aria-hidden": "true" }, spelled),
        el("span", { class: "visually-hidden" }, `${seat.letters} of ${s.lives} letters`)] : null,
      el("span", { class: `presence ${here}` }, here),
      turn ? el("span", { class: "to-move" }, r.phase === "answer" ? "to answer" : "to move") : null,
      seat.out ? el("span", { class: "is-out" }, "out") : null);
    }));
  }

  function renderControls(s) {
    const { r, moving, answering, mine } = turnOf();
    const seated = room.seat !== null && room.seat !== undefined && Boolean(room.token);
    const playing = seated && s.status === "playing";
    const letters = playing && letterGame();
    $("#room-keys").hidden = !playing || (s.word_game && !letters);
    $("#room-move").hidden = !playing || letters;
    $("#room-actions").hidden = !playing;
    $("#room-challenge").hidden = !s.word_game;
    $("#room-challenge").disabled = !(moving && r.moves.length);
    $("#room-concede").disabled = !mine;
    $("#room-move-text").disabled = !moving;
    $("#room-move").querySelector("button").disabled = !moving;
    $("#room-word").hidden = !answering;
    if (answering && !room.answering) $("#room-word-text").focus();
    room.answering = answering;
    if (letters) drawKeys(alphabet(), moving);
    else if (playing && !s.word_game) drawPlays(s, moving);
    if (drawBoard(s, moving)) $("#room-keys").hidden = true;  // its squares are the keys
    $("#room-rematch").hidden = !(seated && s.status === "over");
    $("#room-next").hidden = !(s.rematch && !seated);
    if (s.rematch) $("#room-next").href = `/rooms/${enc(s.rematch)}`;
  }

  // The keys are made once and only enabled or not: a key pressed keeps its place.
  function drawKeys(moves, enabled) {
    const keys = $("#room-keys");
    const signature = moves.join(" ");
    if (room.keys !== signature) {
      room.keys = signature;
      fill(keys, moves.map((move) => el("button", { type: "button", class: "key", "data-move": move,
        onclick: () => act("move", { move }) }, move)));
    }
    for (const key of keys.children) key.disabled = !enabled;
  }

  // A board game's legal moves, asked of the stored solution (nothing to bluff there).
  function drawPlays(s, enabled) {
    const r = s.round;
    const at = r ? r.position : null;
    if (!room.plays || room.plays.at !== at) {
      room.plays = { at, moves: [] };
      if (at !== null) {
        api(`/api/${enc(s.name)}/position`, { rules: s.rules, position: at }).then((pos) => {
          if (room.plays.at === at) { room.plays.moves = pos.plays.map((p) => p.move); render(); }
        }, () => {});
      }
    }
    drawKeys(room.plays.moves, enabled);
  }

  // A board game's board (roomviews.js), a legal square or column pressed to move; once the
  // game is over, its last position.
  function drawBoard(s, moving) {
    const node = $("#room-board");
    const r = s.round;
    const ended = s.rounds.length ? s.rounds[s.rounds.length - 1].verdicts.filter((v) => "move" in v) : [];
    const at = r ? r.position : ended.length ? ended[ended.length - 1].position : null;  // the last board stays
    const legal = r && room.plays && room.plays.at === at ? room.plays.moves : [];
    const kind = s.word_game || at === null ? null : declared(s.name).board;
    const signature = `${kind} ${at} ${moving} ${legal.join(",")}`;
    if (room.board === signature) return !node.hidden;  // drawn again only when it changes: focus stays
    room.board = signature;
    const board = kind ? roomBoard(kind, at, legal, moving, (move) => act("move", { move })) : null;
    node.hidden = !board;
    fill(node, board);
    return Boolean(board);
  }

  function renderMoves(s) {
    const r = s.round;
    const items = r ? r.moves.map((m) => el("li", {}, `${nameOf(m.seat)}: ${m.move} → ${label(m.text)}`,
      m.auto ? " (the computer, standing in)" : "")) : [];
    if (r && r.phase === "answer") items.push(el("li", { class: "challenge" }, `${nameOf(r.challenger)} challenges ${nameOf(r.turn)}`));
    fill($("#room-moves"), items);
  }

  // Verdicts come with each round's end, never before: a bluff is told once it is over.
  function renderRounds(s) {
    const signature = `${s.rounds.length} ${s.status} ${s.seats.map((seat) => seat.name).join(" ")}`;
    if (room.drawn === signature) return;  // drawn again only when it changes: focus stays
    room.drawn = signature;
    fill($("#room-rounds"), s.rounds.length ? [...s.rounds].reverse().map((e) => roundView(e, nameOf))
      : el("p", { class: "how" }, "Each round is judged here when it ends."));
    fill($("#room-record"), s.rounds.length && s.word_game ? table(["round", "lost by", "letters after"],
      s.rounds.map((e) => [String(e.round), e.losers.map(nameOf).join(", ") || "nobody",
        s.seats.map((seat, i) => `${nameOf(i)}: ${s.letters.slice(0, e.letters[i]) || "–"}`).join("; ")]), [0]) : null);
    let result = "";
    if (s.status === "over") {
      result = s.said ? sentence(s.said) : !s.winners || !s.winners.length ? "The match ends with no winner."
        : `${s.winners.map(nameOf).join(" and ")} won the match.`;
    }
    $("#room-result").textContent = result;
  }

  // The turn's clock, counted down from the server's deadline (epoch seconds).
  function tick() {
    const s = room.state;
    const node = $("#room-clock");
    if (!s || s.status !== "playing" || !s.deadline || !s.round) { node.textContent = ""; return; }
    const left = Math.max(0, Math.ceil(s.deadline - Date.now() / 1000));
    const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle("low", left <= 10);
  }

  return { start };
})();

function roomsStart() { return ghostdbRooms.start(); }
