// The table: one seat's view, live over a WebSocket. The server decides everything; this
// page only shows the view it is sent and offers the legal actions that view lists.
"use strict";

const tableId = window.location.pathname.split("/").pop();
const query = new URLSearchParams(window.location.search);
const token = query.get("token") || "";
let seatNumber = query.get("seat");  // a seat this browser claimed (from "my tables")
const watching = query.has("watch");  // a spectator: the public view, no hand, no actions
if (watching) document.body.classList.add("watching");
const key = browserKey();
let state = null;          // the last message from the server
let order = [];            // the hand in the order the player arranged it
let selected = new Set();  // indices into `order`
let focus = 0;             // keyboard focus in the hand
let socket = null;
let retry = 0;
let shownDeal = 0;         // the deal whose summary was shown last
let shownMatchEnd = false;
let hinted = null;         // the last hint: {seq, action, reason}
let fresh = [];            // cards of the hand that arrived with this seat's last draw

function legal() { return (state && state.view.legal_actions) || []; }
function selectedCards() { return [...selected].sort((a, b) => a - b).map((i) => order[i]); }
function sameCards(a, b) { return a.length === b.length && [...a].sort().join() === [...b].sort().join(); }
function nameOf(seat) { return state.table.seats[seat].name; }

// Who this page is, for the server: the seat's link (its token) or the seat this browser
// claimed, with this browser's key. It is the connection's first message (the hello),
// never part of an address.
function hello() {
  const message = { type: "hello", key };
  if (token) message.token = token;
  else if (seatNumber !== null) message.seat = /^[0-9]+$/.test(seatNumber) ? Number(seatNumber) : seatNumber;
  return message;
}

let closedFor = null;  // why the server closed this page's connection for another

function connect() {
  closedFor = null;
  document.getElementById("notice").classList.add("hidden");
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}${watching ? "?watch=1" : ""}`);
  document.getElementById("conn").textContent = t("conn.connecting");
  socket.onopen = () => {
    retry = 0;
    document.getElementById("conn").textContent = t("conn.connected");
    if (!watching) socket.send(JSON.stringify(hello()));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4410) {  // a table this version can no longer rebuild: do not retry
      document.getElementById("conn").textContent = t("conn.broken");
      return;
    }
    if (event.code === 4409) {  // another tab of this browser has the seat now
      document.getElementById("conn").textContent = t("conn.elsewhere");
      showNotice(t(`closed.${closedFor || "replaced"}`), closedFor !== "revoked");
      return;
    }
    if (event.code === 4403 || event.code === 4404 || event.code === 4400) {  // a bad link: do not retry
      document.getElementById("conn").textContent = t("conn.bad_link");
      return;
    }
    document.getElementById("conn").textContent = t("conn.reconnecting");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  };
}

function send(action) {
  hideError();
  if (!socket || socket.readyState !== WebSocket.OPEN) { showError(t("err.not_connected")); return; }
  socket.send(JSON.stringify({ type: "action", action }));
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.classList.remove("hidden");
}
function hideError() { document.getElementById("error").classList.add("hidden"); }

// A message over the whole table: this page no longer plays (another tab has the seat,
// or the seat is someone else's); "play here" takes the seat back where that is allowed.
function showNotice(text, canReturn) {
  const box = document.getElementById("notice");
  box.replaceChildren(el("p", { text }));
  if (canReturn) box.append(el("button", { type: "button", id: "play-here", onclick: connect }, t("btn.play_here")));
  box.classList.remove("hidden");
}

function receive(message) {
  if (message.type === "error") {
    showError(refusalText(message));
    if (!state) document.getElementById("status").textContent = refusalText(message);
    if (message.code === "seat-claimed") showNotice(t("notice.claimed"), false);
    if (message.code === "seat-link") showNotice(t("notice.no_seat"), false);
    if (message.code === "one-seat") import("/static/invite.js").then((invite) => invite.showLinkOfAnother(message, { tableId }));
    return;
  }
  if (message.type === "closed") { closedFor = message.reason; return; }
  if (message.type === "chat") { chatLines.push(message); chatLines = chatLines.slice(-50); renderChat(); return; }
  if (message.type === "chat-log") { chatLines = message.messages; renderChat(); return; }
  if (message.type === "presence") {
    if (!state) return;
    message.seats.forEach((here, i) => Object.assign(state.table.seats[i], here));
    state.table.watchers = message.watchers;
    renderWatchers();
    renderSeats(); renderInvites(); renderAway(); tick();
    return;
  }
  if (message.type === "hint") { showHint(message); return; }
  if (message.type === "why") { showWhy(message.legal ? t("why.legal") : refusalText(message)); return; }
  if (message.type !== "view") return;
  const before = state;
  state = message;
  if (token && !before && !watching) {
    // The link has done its work: this browser's key opens the seat from now on, and the
    // address bar shows no reusable link.
    seatNumber = String(state.view.seat);
    history.replaceState(null, "", `/t/${tableId}?seat=${seatNumber}`);
  }
  yourTurn(before);
  const hand = state.view.hand;
  if (hinted && hinted.seq !== state.table.seq) clearHint();
  if (whySeq !== null && whySeq !== state.table.seq) hideWhy();  // said of a position gone by
  if (before && before.table.seq !== state.table.seq) deepChoice = null;
  fresh = freshCards(before, state);
  // Keep the player's arrangement: cards still held stay in place, new ones go last.
  const left = [...hand];
  const kept = [];
  for (const card of order) {
    const i = left.indexOf(card);
    if (i >= 0) { kept.push(card); left.splice(i, 1); }
  }
  const changed = !before || before.view.hand.join() !== hand.join();
  order = kept.concat(left);
  if (!before) order = savedOrder(hand) || order;  // the arrangement survives a reload
  if (changed) selected = new Set();
  focus = Math.min(focus, Math.max(order.length - 1, 0));
  render();
  announce(before);
  summaries();
}

// A table event (the stock turned over or refilled) shown for a moment over the table.
function banner(text) {
  const box = document.getElementById("banner");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(banner.timer);
  banner.timer = setTimeout(() => box.classList.add("hidden"), 4000);
}

// For screen readers: what the others did since the last message, in words.
function announce(before) {
  const v = state.view;
  if (!before || before.view.deal_number !== v.deal_number) return;
  const added = v.history_length - before.view.history_length;
  if (added <= 0) return;
  const events = v.events.filter(([index]) => index >= before.view.history_length);
  if (events.length) banner(t(`event.${events[events.length - 1][1]}`));
  const lines = logLines().slice(-added).filter((line) => line.seat !== v.seat);
  if (!lines.length) return;
  document.getElementById("announce").textContent = lines.map((line) =>
    line.what).join(" ");
}

// The cards this seat just drew: what its hand gained with its own last draw.
function freshCards(before, now) {
  const v = now.view, h = v.history;
  if (!before || !h.length) return [];
  if (before.view.history_length === v.history_length && before.view.deal_number === v.deal_number) return fresh;
  const [seat, text] = h[h.length - 1];
  if (seat !== v.seat || text.startsWith("discard")) return [];  // the turn is over
  if (!text.startsWith("draw")) return fresh.filter((c) => v.hand.includes(c));
  const left = [...before.view.hand];
  const gained = [];
  for (const card of v.hand) {
    const i = left.indexOf(card);
    if (i >= 0) left.splice(i, 1); else gained.push(card);
  }
  return gained;
}

// -- motion ---------------------------------------------------------------------------
// Cards move as at a real table: every face-up card has a key (its name, and which copy
// of it where two decks have twins); after each render a card that was on the page
// slides from where it was, a card that comes into view slides from where it came from
// (the stock, or the seat of the player who showed it), and a card that leaves view (an
// opponent's draw) slides face down to that player's seat. Only the last few actions
// move; the page's state never depends on the motion.

const MOTION_MS = 380;
const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function keyCards() {
  const seen = new Map();
  for (const node of document.querySelectorAll("#hand .card, #pile .card, #melds .card")) {
    const card = node.dataset.card, n = seen.get(card) || 0;
    seen.set(card, n + 1);
    node.dataset.key = `${card}/${n}`;
  }
}

function positions() {
  const out = new Map();
  for (const node of document.querySelectorAll("[data-key]")) out.set(node.dataset.key, node.getBoundingClientRect());
  return out;
}

function slide(node, from) {
  const to = node.getBoundingClientRect();
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: MOTION_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

// A face-down (or face-up) card that flies from one place to another and is gone.
function ghost(card, from, to) {
  const node = card ? cardEl(card, { small: true }) : backEl(true);
  node.classList.add("ghost");
  node.removeAttribute("data-card");
  Object.assign(node.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`, margin: 0, zIndex: 50 });
  document.body.append(node);
  const dx = to.left + to.width / 2 - from.left - node.offsetWidth / 2, dy = to.top + to.height / 2 - from.top - node.offsetHeight / 2;
  const motion = node.animate([{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px)` }],
    { duration: MOTION_MS, easing: "ease-in-out" });
  motion.finished.then(() => node.remove(), () => node.remove());
}

function animate(before, old) {
  if (reduced || !old || !before.size) return;
  const v = state.view, prev = old.view;
  if (prev.deal_number !== v.deal_number) return;
  const added = v.history_length - prev.history_length;
  if (added <= 0 || added > 4) return;
  const movers = v.history.slice(-added);
  const seatRect = (seat) => { const n = document.querySelector(`.seat[data-seat="${seat}"]`); return n && n.getBoundingClientRect(); };
  const stockNode = document.querySelector("#stock .card");
  const stockRect = stockNode && stockNode.getBoundingClientRect();
  const lastOther = movers.map(([seat]) => seat).reverse().find((seat) => seat !== v.seat);
  for (const node of document.querySelectorAll("[data-key]")) {
    const from = before.get(node.dataset.key);
    if (from) { slide(node, from); continue; }
    if (node.closest("#hand")) { if (stockRect) slide(node, stockRect); continue; }
    const seat = seatRect(lastOther !== undefined ? lastOther : v.seat);
    if (seat) slide(node, seat);
  }
  // Opponents' draws: a card comes off the stock face down, or the pile cards they took
  // fly face up to their seat.
  let draws = v.pile_draws.length - movers.filter(([, text]) => text.startsWith("draw pile")).length;
  for (const [seat, text] of movers) {
    const taken = text.startsWith("draw pile") ? (v.pile_draws[draws++] || [null, []])[1] : [];
    if (seat === v.seat || !text.startsWith("draw")) continue;
    const to = seatRect(seat);
    if (!to) continue;
    if (text === "draw stock" && stockRect) ghost(null, stockRect, to);
    for (const card of taken) {
      const rect = before.get(`${card}/0`);
      if (rect) ghost(card, rect, to);
    }
  }
}

function render() {
  const before = positions();
  const old = rendered;
  rendered = state;
  renderAll();
  keyCards();
  animate(before, old);
}

let rendered = null;  // the state the page shows now (for motion)

function renderAll() {
  const v = state.view, tb = state.table;
  document.getElementById("rules").textContent = t("status.rules", { rules: tb.rules });
  document.getElementById("deal").textContent = t("status.deal", { n: v.deal_number });
  document.getElementById("status").textContent = statusText();
  renderSeats(); renderMiddle(); renderMelds(); renderHandCards(); renderButtons(); renderLog(); renderInvites();
  renderAway(); startClock(); renderWatchers(); renderMutes();
}

// How many are watching, and the link that lets anyone watch (the public view only).
function renderWatchers() {
  const n = state.table.watchers || 0;
  document.getElementById("watchers").textContent = watching ? t("watch.you", { n }) : n ? tn("n.watchers", n) : "";
}

function statusText() {
  const v = state.view, tb = state.table;
  if (tb.status === "waiting") {
    const missing = tb.seats.filter((s) => !s.joined).map((s) => s.name);
    return t("status.waiting", { names: missing.join(", ") });
  }
  if (v.match_over) {
    if (tb.abandoned) return t("status.abandoned");
    return v.match_winner === null ? t("status.over_tie") : t("status.over", { name: nameOf(v.match_winner) });
  }
  if (tb.ended_by !== null && tb.ended_by !== undefined) return t("status.ended_left", { name: nameOf(tb.ended_by) });
  if (v.to_move === v.seat) {
    if (v.must_use) return t("status.must_use", { card: cardText(v.must_use) });
    return v.phase === "draw" ? t("status.draw") : t("status.play");
  }
  const reading = (tb.reading || []).filter((seat) => seat !== v.seat);
  if (reading.length && tb.seats[v.to_move].kind === "bot") {
    return t("status.reading", { names: reading.map(nameOf).join(", ") });
  }
  return t("status.playing", { name: nameOf(v.to_move) });
}

// The others sit across the table in the order they play after you (the next player
// first); your own seat sits with your hand.
function renderSeats() {
  const v = state.view, tb = state.table, box = document.getElementById("seats");
  const me = document.getElementById("me");
  box.replaceChildren();
  me.replaceChildren();
  const n = tb.seats.length;
  const order = tb.seats.map((_, i) => i).sort((a, b) => ((a - v.seat + n) % n) - ((b - v.seat + n) % n));
  const lines = logLines();
  for (const i of order) {
    const seat = tb.seats[i];
    let last = "";
    for (let k = lines.length - 1; k >= 0; k--) if (lines[k].seat === i) { last = lines[k].short; break; }
    const fan = el("div", { class: "fan", "aria-hidden": "true" });
    if (i !== v.seat) for (let k = 0; k < Math.min(v.hand_sizes[i], 14); k++) fan.append(backEl(true));
    else fan.classList.add("hidden");
    const facts = [];
    if (tb.opening) facts.push(v.opened[i] ? t("seat.opened") : t("seat.not_opened", { n: tb.opening }));
    if (tb.melded) facts.push(t("seat.melded", { n: tb.melded[i] }));
    const node = el("div", { class: "seat" + (v.to_move === i && !v.match_over ? " turn" : ""), "data-seat": i,
      "aria-label": t(v.to_move === i ? "seat.aria_moving" : "seat.aria", { name: seat.name, cards: tn("n.cards", v.hand_sizes[i]), score: v.totals[i] }) },
      el("div", { class: "name" }, presenceDot(seat), (i === v.seat ? t("seat.you", { name: seat.name }) : seat.name) + (seat.kind === "bot" ? " · " + botText(seat.level) : "")),
      seat.standin ? el("div", { class: "standin", text: t(seat.away ? "seat.handed" : "seat.standin", { level: levelName(tb.standin) }) }) : null,
      v.to_move === i && tb.time_left !== null && tb.time_left !== undefined && !seat.standin ? el("div", { class: "clock", "data-seat": i }) : null,
      fan,
      el("div", {}, tn("n.cards", v.hand_sizes[i]) + " · " + t("seat.score", { score: v.totals[i] }) + (v.dealer === i ? " · " + t("seat.dealer") : "") + (v.active[i] ? "" : " · " + t("seat.out"))),
      facts.length ? el("div", { class: "facts", text: facts.join(" · ") }) : null,
      el("div", { class: "last" }, last ? t("seat.last", { what: last }) : (seat.joined ? "" : t("seat.absent"))));
    if (i === v.seat) { node.classList.add("me"); me.append(node); } else box.append(node);
  }
}

// Whether a person is at the table now (a bot always is).
function presenceDot(seat) {
  if (seat.kind === "bot") return null;
  const here = seat.connected;
  return el("span", { class: "presence" + (here ? " here" : ""), role: "img",
    "aria-label": t(here ? "presence.here" : "presence.away"), title: t(here ? "presence.here" : "presence.away") });
}

// When it becomes this person's turn: the tab's title says so, and a short tone sounds
// if they asked for it.
function yourTurn(before) {
  const v = state.view;
  const mine = v.to_move === v.seat && !v.match_over && state.table.status === "playing";
  document.title = (mine ? t("title.your_turn") + " · " : "") + t("title.table");
  const was = before && before.view.to_move === before.view.seat && !before.view.match_over && before.table.status === "playing";
  if (mine && !was && localStorage.getItem("rummykit.sound") === "on") beep();
}

function beep() {
  try {
    const audio = new AudioContext(), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(); tone.stop(audio.currentTime + 0.25);
  } catch (e) { /* no sound on this device */ }
}

function renderSound() {
  const on = localStorage.getItem("rummykit.sound") === "on";
  const button = document.getElementById("btn-sound");
  button.textContent = t(on ? "btn.sound_on" : "btn.sound_off");
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

// The browser that made the table sees each seat's link and whether it was claimed, and
// can give a seat whose person is not here a new link.
function renderInvites() {
  const links = createdLinks(tableId);
  document.getElementById("btn-invites").classList.toggle("hidden", !links);
  const dialog = document.getElementById("invites");
  if (!links || !dialog.open) return;
  const body = document.getElementById("invites-body");
  body.replaceChildren();
  state.table.seats.forEach((seat, i) => {
    if (seat.kind !== "person") return;
    const status = seat.connected ? "invites.here" : seat.claimed ? "invites.claimed" : "invites.unclaimed";
    const url = links[i] ? new URL(links[i], window.location.href).href : "";
    const field = el("input", { readonly: true, value: url, class: "invite-link", "aria-label": t("invites.link", { name: seat.name }) });
    const copy = el("button", { type: "button", class: "secondary copy", onclick: async () => {
      field.select();
      try { await navigator.clipboard.writeText(url); copy.textContent = t("invites.copied"); } catch (e) { document.execCommand("copy"); }
    } }, t("invites.copy"));
    const renew = el("button", { type: "button", class: "secondary renew", disabled: seat.connected && seat.claimed,
      title: seat.connected && seat.claimed ? t("invites.in_use") : "", onclick: () => newLink(i) }, t("invites.new"));
    body.append(el("div", { class: "invite-row", "data-seat": i },
      el("strong", { text: seat.name }), " ", el("span", { class: "muted invite-status", text: t(status) }),
      el("div", {}, field, " ", copy, " ", renew)));
  });
}

async function newLink(seat) {
  try {
    const answer = await api(`/api/tables/${tableId}/seats/${seat}/link`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key }) });
    const links = createdLinks(tableId) || {};
    links[seat] = answer.link;
    saveCreated(tableId, links);
    renderInvites();
  } catch (err) { showError(refusalText({ message: err.message, code: err.code, params: err.params })); }
}

// The table's chat: each line as text (never markup); a person muted on this browser is
// not shown.
let chatLines = [];
function mutedSeats() {
  try { return new Set(JSON.parse(localStorage.getItem(`rummykit.muted.${tableId}`)) || []); } catch (e) { return new Set(); }
}
function renderChat() {
  const box = document.getElementById("chat");
  const muted = mutedSeats();
  box.replaceChildren(...chatLines.filter((line) => !muted.has(line.seat)).map((line) =>
    el("div", { class: "chat-line", "data-seat": line.seat }, el("strong", { text: line.name + ": " }), el("span", { text: line.text }))));
  box.scrollTop = box.scrollHeight;
  renderMutes();
}
function renderMutes() {
  if (!state) return;
  // Chat is for tables with more than one person; a spectator reads it.
  const people = state.table.seats.filter((seat) => seat.kind === "person").length;
  document.getElementById("chat-panel").classList.toggle("hidden", people < 2);
  document.getElementById("chat-form").classList.toggle("hidden", watching);
  const muted = mutedSeats();
  const box = document.getElementById("mutes");
  box.replaceChildren();
  state.table.seats.forEach((seat, i) => {
    if (seat.kind !== "person" || i === state.view.seat) return;
    box.append(el("button", { type: "button", class: "secondary small-button mute", "data-seat": i, "aria-pressed": muted.has(i) ? "true" : "false",
      onclick: () => {
        const now = mutedSeats();
        if (now.has(i)) now.delete(i); else now.add(i);
        localStorage.setItem(`rummykit.muted.${tableId}`, JSON.stringify([...now]));
        renderChat();
      } }, t(muted.has(i) ? "chat.unmute" : "chat.mute", { name: seat.name })), " ");
  });
}

// The clock of the person to move: the seconds the server gave, counted down here.
let clockEnd = null;
function startClock() {
  const left = state.table.time_left;
  clockEnd = left === null || left === undefined ? null : performance.now() + left * 1000;
  tick();
}
function tick() {
  const node = document.querySelector(".seat .clock");
  if (!node || clockEnd === null) return;
  const seconds = Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000));
  node.textContent = t("clock.left", { s: seconds });
  node.classList.toggle("short", seconds <= 10);
}
setInterval(tick, 500);

// Someone left: the others choose between the computer in that seat and ending the match.
function renderLeft() {
  const tb = state.table, box = document.getElementById("left-box");
  const leaver = tb.left && tb.left.length ? tb.left[tb.left.length - 1] : null;
  const me = state.view.seat;
  if (watching || leaver === null || leaver === me || tb.status !== "playing" || tb.seats[me].away) { box.classList.add("hidden"); return; }
  const mine = (tb.votes || {})[String(me)];
  document.getElementById("left-text").textContent = t("left.ask", { name: nameOf(leaver), level: levelName(tb.standin) }) +
    (mine === undefined ? "" : " " + t(mine ? "left.chose_end" : "left.chose_keep"));
  box.classList.remove("hidden");
}

// The stand-in: this person can hand their seat over and leave, and take it back.
function renderAway() {
  renderLeft();
  if (watching) return;
  const me = state.table.seats[state.view.seat];
  const playing = state.table.status === "playing" && !state.view.match_over;
  document.getElementById("btn-away").classList.toggle("hidden", !playing || me.standin);
  const box = document.getElementById("standin");
  if (playing && me.standin) {
    document.getElementById("standin-text").textContent = t(me.away ? "standin.handed" : "standin.timeout", { level: levelName(state.table.standin) });
    box.classList.remove("hidden");
  } else box.classList.add("hidden");
}

function message(body) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(body));
}

function canDo(text) { return legal().includes(text); }

function renderMiddle() {
  const v = state.view;
  const stock = document.getElementById("stock");
  stock.replaceChildren();
  const stockCard = backEl();
  stockCard.append(el("span", { text: String(v.stock_size) }));
  if (canDo("draw stock")) { stockCard.classList.add("clickable"); stockCard.title = t("stock.title"); stockCard.onclick = () => send("draw stock"); }
  stockCard.setAttribute("aria-label", t("stock.aria", { cards: tn("n.cards", v.stock_size) }));
  focusable(stockCard, canDo("draw stock"));
  if (hinted && hinted.action === "draw stock") stockCard.classList.add("hinted");
  stock.append(stockCard);
  const pile = document.getElementById("pile");
  pile.replaceChildren();
  if (!v.pile.length) pile.append(el("span", { class: "muted", text: t("pile.empty") }));
  const spread = v.pile.length > 1;  // rummy500: the whole pile is shown
  // A card twice on the pile (two decks) is taken from its upper place, as the engine does.
  const deepAt = deepChoice === null ? -1 : v.pile.lastIndexOf(deepChoice);
  v.pile.forEach((card, i) => {
    const node = cardEl(card, { small: spread && i < v.pile.length - 1 });
    const top = i === v.pile.length - 1;
    const action = top ? "draw pile" : `draw pile ${card}`;
    if (hinted && hinted.action === action) node.classList.add("hinted");
    if (deepAt >= 0 && i >= deepAt) node.classList.add("taking");
    const usable = canDo(action) && (top || v.pile.lastIndexOf(card) === i);
    focusable(node, usable);
    if (usable) {
      node.classList.add("clickable");
      node.title = top ? t("pile.title") : t("pile.deep", { card: cardText(card) });
      // A card below the top takes every card above it too: the first click says so and
      // marks them, the second takes them.
      node.onclick = top ? () => send(action) : () => {
        if (deepChoice === card) { deepChoice = null; send(action); return; }
        deepChoice = card;
        renderMiddle();
        keyCards();
        document.querySelectorAll("#pile .card")[i]?.focus();  // for a second Enter
      };
    }
    pile.append(node);
  });
  // Said beside the pile, where the eyes are (a live region that stays on the page).
  document.getElementById("pile-note").textContent = deepAt < 0 ? "" :
    t("pile.confirm_deep", { card: cardText(deepChoice), more: tn("n.cards", v.pile.length - 1 - deepAt) });
  if (v.pile_size > v.pile.length) pile.prepend(el("span", { class: "muted", text: t("pile.more", { n: v.pile_size - v.pile.length }) + " " }));
}

function renderMelds() {
  const v = state.view, box = document.getElementById("melds");
  box.replaceChildren();
  if (!v.table.length) { box.append(el("span", { class: "muted", text: t("meld.none") })); return; }
  const cards = selectedCards();
  const owners = [...new Set(v.table.map((m) => m.owner))];
  for (const owner of owners) {
    box.append(el("div", { class: "owner", text: t("meld.owner", { name: nameOf(owner) }) }));
    const row = el("div");
    for (const meld of v.table.filter((m) => m.owner === owner)) {
      const node = el("span", { class: "meld", "data-meld": meld.number,
        "aria-label": t("meld.aria", { n: meld.number, name: nameOf(meld.owner), cards: meld.cards.map(cardName).join(", ") }) },
        el("span", { class: "num", text: meld.number, "aria-hidden": "true" }));
      meld.cards.forEach((c, k) => {
        const card = cardEl(c, { small: true });
        if (c === "JK" && meld.represents[k] && meld.represents[k] !== "JK") {  // the card the joker stands for, in sight
          card.title = t("meld.joker", { card: cardName(meld.represents[k]) });
          card.setAttribute("aria-label", card.title);
          card.append(el("span", { class: "stands", text: "=" + cardText(meld.represents[k]) }));
        }
        const by = meld.laid_by[k];
        if (by !== undefined && by !== meld.owner) {  // a lay-off by someone else: whose
          card.append(el("span", { class: "by", text: initials(nameOf(by)), title: t("meld.laid_by", { name: nameOf(by) }) }));
          card.setAttribute("aria-label", `${card.getAttribute("aria-label")}, ${t("meld.laid_by", { name: nameOf(by) })}`);
        }
        node.append(card);
      });
      const options = layoffOptions(cards, meld.number);
      if (options.length) {
        node.classList.add("target");
        node.title = t("meld.target");
        node.onclick = () => choose(options);
      }
      focusable(node, options.length > 0);
      row.append(node);
    }
    box.append(row);
  }
}

// "master bot · thinks 0.3 s a move": a bot's level, and its thinking time where set.
function botText(level) {
  const think = /think=([\d.]+)/.exec(String(level || ""));
  const text = t("seat.bot", { level: levelName(level) });
  return think ? `${text} · ${t("think.option", { s: think[1] })}` : text;
}

// Reachable with Tab, and pressed with Enter or space, as a button is; named for screen
// readers. ``active``: whether pressing it does something now.
function focusable(node, active) {
  node.removeAttribute("aria-hidden");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", active ? "button" : "img");
  if (active) node.setAttribute("aria-disabled", "false");
  node.addEventListener("keydown", (event) => {
    if (active && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      event.stopPropagation();
      node.click();
    }
  });
}

function initials(name) {
  return [...name.trim()].slice(0, 2).join("");
}

function layoffOptions(cards, number) {
  if (cards.length !== 1) return [];
  return legal().filter((a) => a === `layoff ${cards[0]} ${number}` || a === `layoff ${cards[0]} ${number} low`);
}

function meldOptions(cards) {
  return legal().filter((a) => a.startsWith("meld ") && sameCards(a.split(" ").slice(1), cards));
}

function choose(options) {
  const box = document.getElementById("choices");
  box.replaceChildren();
  if (options.length === 1) { send(options[0]); return; }
  for (const option of options) box.append(el("button", { type: "button", class: "secondary", onclick: () => { box.replaceChildren(); send(option); } }, option));
}

// The player's own order of the hand, kept in this browser for the current deal only.
function orderKey() { return `rummykit/order/${tableId}/${state.view.seat}`; }
function saveOrder() {
  try { localStorage.setItem(orderKey(), JSON.stringify({ deal: state.view.deal_number, order })); } catch (e) { /* storage off: order lives in the page */ }
}
function savedOrder(hand) {
  try {
    const saved = JSON.parse(localStorage.getItem(orderKey()) || "null");
    if (!saved || saved.deal !== state.view.deal_number) return null;
    if ([...saved.order].sort().join() !== [...hand].sort().join()) return null;
    return saved.order;
  } catch (e) { return null; }
}

function renderHand() {
  renderHandCards();
  keyCards();
}

function renderHandCards() {
  const box = document.getElementById("hand");
  saveOrder();
  box.replaceChildren();
  order.forEach((card, i) => {
    const node = cardEl(card);
    node.classList.add("clickable");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "-1");
    node.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
    node.draggable = true;
    if (selected.has(i)) node.classList.add("selected");
    if (fresh.includes(card) && order.indexOf(card) === i) { node.classList.add("new"); node.setAttribute("aria-label", t("card.new", { card: cardName(card) })); }
    if (hinted && hintCards().includes(card)) node.classList.add("hinted");
    if (i === focus && document.body.classList.contains("keyboard")) node.classList.add("focus");
    node.onclick = () => { toggle(i); };
    node.ondragstart = (e) => { e.dataTransfer.setData("text/plain", String(i)); };
    node.ondragover = (e) => e.preventDefault();
    node.ondrop = (e) => { e.preventDefault(); move(Number(e.dataTransfer.getData("text/plain")), i); };
    box.append(node);
  });
}

function move(from, to) {
  if (from === to || Number.isNaN(from)) return;
  const picked = selectedCards();
  const [card] = order.splice(from, 1);
  order.splice(to, 0, card);
  selected = new Set(picked.map((c) => order.indexOf(c)).filter((i) => i >= 0));
  renderHand();
}

function toggle(i) {
  if (selected.has(i)) selected.delete(i); else selected.add(i);
  focus = i;
  document.getElementById("choices").replaceChildren();
  renderHand(); renderButtons(); renderMelds(); keyCards();
}

function renderButtons() {
  const cards = selectedCards();
  // A button that cannot be used now stays focusable and says why when pressed.
  const set = (id, enabled, handler) => {
    const b = document.getElementById(id);
    b.setAttribute("aria-disabled", enabled ? "false" : "true");
    b.onclick = enabled ? () => { hideWhy(); handler(); } : () => explain(id);
  };
  set("btn-stock", canDo("draw stock"), () => send("draw stock"));
  set("btn-pile", canDo("draw pile"), () => send("draw pile"));
  const melds = meldOptions(cards);
  set("btn-meld", melds.length > 0, () => choose(melds));
  const anyLayoff = cards.length === 1 && legal().some((a) => a.startsWith(`layoff ${cards[0]} `));
  set("btn-layoff", anyLayoff, () => {
    const options = legal().filter((a) => a.startsWith(`layoff ${cards[0]} `));
    choose(options);
  });
  set("btn-discard", cards.length === 1 && canDo(`discard ${cards[0]}`), () => send(`discard ${cards[0]}`));
  const end = document.getElementById("btn-end");
  end.classList.toggle("hidden", !canDo("end"));
  set("btn-end", canDo("end"), () => send("end"));
  const mine = state.view.to_move === state.view.seat && !state.view.match_over;
  set("btn-hint", mine && state.table.status === "playing", askHint);
  set("btn-undo", Boolean(state.table.undo), () => socket.send(JSON.stringify({ type: "undo" })));
}

// Why a button cannot be used now: said here where the page knows (nothing selected), else
// the engine's own refusal of the action the button would play, asked of the server.
function explain(id) {
  const v = state.view, tb = state.table, cards = selectedCards();
  if (state.table.status !== "playing" || v.match_over) return showWhy(statusText());
  if (v.to_move !== v.seat) return showWhy(t("why.not_turn", { name: nameOf(v.to_move) }));
  const ask = (action) => { socket.send(JSON.stringify({ type: "why", action })); };
  switch (id) {
    case "btn-stock": return ask("draw stock");
    case "btn-pile": return ask("draw pile");
    case "btn-end": return ask("end");
    case "btn-hint": return showWhy(t("why.hint_turn"));
    case "btn-undo":
      return showWhy(tb.seats.some((seat, i) => i !== v.seat && seat.kind === "person") ? t("why.undo_seen") : t("why.undo_nothing"));
    case "btn-meld":
      if (cards.length < 3) return showWhy(t("why.select_meld"));
      return ask(`meld ${cards.join(" ")}`);
    case "btn-layoff":
      if (cards.length !== 1) return showWhy(t("why.select_layoff"));
      if (!v.table.length) return showWhy(t("why.no_melds"));
      return ask(`layoff ${cards[0]} 1`);
    case "btn-discard":
      if (cards.length !== 1) return showWhy(t("why.select_discard"));
      return ask(`discard ${cards[0]}`);
  }
}

// The position a shown "why" was said of: it goes when the game moves on.
let whySeq = null;
// A pile card below the top clicked once (rummy500): the second click takes it.
let deepChoice = null;
function showWhy(message) {
  const box = document.getElementById("why");
  box.textContent = message;
  box.classList.remove("hidden");
  whySeq = state ? state.table.seq : null;
}
function hideWhy() {
  document.getElementById("why").classList.add("hidden");
  whySeq = null;
}

function askHint() {
  if (!socket || socket.readyState !== WebSocket.OPEN) { showError(t("err.not_connected")); return; }
  const box = document.getElementById("hint");
  box.textContent = t("hint.thinking");
  box.classList.remove("hidden");
  socket.send(JSON.stringify({ type: "hint" }));
}

function showHint(message) {
  if (!state || message.seq !== state.table.seq) return;  // the game moved on meanwhile
  hinted = message;
  const box = document.getElementById("hint");
  // The reason in pieces, each translated: what to do, then why; what the search measured
  // goes on a quieter line of its own (it is for the curious).
  const said = message.parts.filter(([code]) => !code.startsWith("more.search"));
  const searched = message.parts.filter(([code]) => code.startsWith("more.search"));
  const texts = said.map(([code, params]) => t(`reason.${code}`, reasonParams(params)));
  const reason = texts.length > 1 ? t("reason.join", { verb: texts[0], why: texts.slice(1).join("") }) : texts[0];
  const note = searched.map(([code, params]) => t(`reason.${code}`, reasonParams(params)).trim()).join(" ");
  box.replaceChildren(el("strong", { text: t("hint.label") + " " }), reason.charAt(0).toUpperCase() + reason.slice(1) + ".");
  if (note) {
    const plain = note.replace(/^\((.*)\)$/, "$1");
    box.append(el("span", { class: "hint-search", text: plain.charAt(0).toUpperCase() + plain.slice(1) + "." }));
  }
  box.dataset.action = message.action;
  box.setAttribute("aria-label", `${t("hint.label")} ${reason}${note ? " " + note : ""}`);
  box.classList.remove("hidden");
  renderHand(); renderMiddle(); keyCards();
}

function clearHint() {
  hinted = null;
  document.getElementById("hint").classList.add("hidden");
}

// The cards of the hand the hint names (none for a draw).
function hintCards() {
  if (!hinted) return [];
  const words = hinted.action.split(" ");
  if (words[0] === "meld") return words.slice(1);
  if (words[0] === "layoff" || words[0] === "discard") return [words[1]];
  return [];
}

// A hint's params for the page: cards in the page's language, an action in words.
function reasonParams(params) {
  const out = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "card") out[name] = cardText(value);
    else if (name === "cards") out[name] = value.split(" ").map(cardText).join(" ");
    else if (name === "baseline") out[name] = phrase(value, null, "do");
    else out[name] = value;
  }
  return out;
}

// An action in words, for the log ("you" or "other", with {name}) or as a thing to do
// ("do"), with the cards a pile draw took (everyone saw them).
function phrase(text, taken, who, name = "") {
  const words = text.split(" ");
  const cards = (list) => list.map(cardText).join(" ");
  const say = (kind, params = {}) => t(`act.${who}.${kind}`, { name, ...params });
  switch (words[0]) {
    case "draw":
      if (words[1] === "stock") return say("draw_stock");
      if (taken && taken.length > 1) return say("take_more", { card: cardText(taken[0]), more: tn("n.cards", taken.length - 1) });
      if (taken && taken.length) return say("take", { card: cardText(taken[0]) });
      return words[2] ? say("take_deep", { card: cardText(words[2]) }) : say("take_top");
    case "meld": return say("meld", { cards: cards(words.slice(1)) });
    case "layoff": return say(words[3] === "low" ? "layoff_low" : "layoff", { card: cardText(words[1]), meld: words[2] });
    case "discard": return say("discard", { card: cardText(words[1]) });
    case "end": return say("end");
    default: return text;
  }
}

// The recent actions in words, oldest first, with the stock's turn-overs and refills.
function logLines() {
  const v = state.view, lines = [];
  const first = v.history_length - v.history.length;
  const pileDraws = v.history.filter(([, text]) => text.startsWith("draw pile")).length;
  let k = v.pile_draws.length - pileDraws;
  const events = new Map(v.events.map(([index, kind]) => [index, kind]));
  v.history.forEach(([seat, text], i) => {
    const event = events.get(first + i);
    if (event) lines.push({ seat: null, event: true, what: t(`event.${event}`) });
    const taken = text.startsWith("draw pile") ? (v.pile_draws[k++] || [null, []])[1] : null;
    lines.push({ seat, what: phrase(text, taken, seat === v.seat ? "you" : "other", nameOf(seat)),
      short: phrase(text, taken, "short") });
  });
  return lines;
}

function renderLog() {
  const v = state.view, box = document.getElementById("log");
  box.replaceChildren();
  for (const line of logLines().slice(-40).reverse()) {
    box.append(el("div", { class: line.event ? "event" : "", text: line.what }));
  }
}

// Where melded cards score (rummy500), ``melded`` gives each seat's melded points: the
// deal's points are those less the cards left in hand, and the table shows both.
function handTable(names, hands, points, totals, melded = null) {
  const table = el("table", { class: "data hands" });
  const heads = [t("th.player"), t("th.hand"), ...(melded ? [t("th.melded")] : []), t("th.points"), t("th.total")];
  table.append(el("tr", {}, ...heads.map((text) => el("th", { text }))));
  names.forEach((name, i) => {
    const cell = el("td");
    for (const c of hands[i]) cell.append(cardEl(c, { small: true }));
    if (!hands[i].length) cell.append("–");
    const laid = melded ? [el("td", { text: melded[i] })] : [];
    table.append(el("tr", {}, el("td", { text: name }), cell, ...laid, el("td", { text: points[i] }), el("td", { text: totals[i] })));
  });
  return table;
}

function summaries() {
  const v = state.view, tb = state.table;
  const names = tb.seats.map((s) => s.name);
  const body = document.getElementById("summary-body");
  const dialog = document.getElementById("summary");
  const endedEarly = tb.ended_by !== null && tb.ended_by !== undefined;
  if ((v.match_over || endedEarly) && !shownMatchEnd) {
    shownMatchEnd = true;
    const result = v.match_over ? v.deal_result : null;
    body.replaceChildren(el("h2", { text: endedEarly ? t("status.ended_left", { name: names[tb.ended_by] })
        : tb.abandoned ? t("status.abandoned")
        : v.match_winner === null ? t("match.tie") : t("match.winner", { name: names[v.match_winner] }) }),
      el("p", { class: "match-end", text: endedEarly ? t("match.ended_left", { name: names[tb.ended_by] })
        : tb.abandoned ? t("match.abandoned") : matchEndText() }));
    if (result) {
      body.append(el("p", { text: dealEndText(result, names) }));
      body.append(handTable(names, v.revealed_hands, result.points, v.totals, tb.melded), hintsLine(v.deal_number));
    }
    if (tb.settlement) body.append(el("p", { class: "settlement", text: settlementText(names, tb.settlement) }));
    body.append(sheetTable());
    // A finished match's record and replay are open to whoever has the table's link:
    // these links hold no secret.
    const record = `/api/tables/${tableId}/record`;
    const replay = `/replay?table=${tableId}`;
    if (!watching) {  // the record and the rematch are the players'
      body.append(el("p", {}, el("a", { href: record, download: `rummykit-${tableId}.json`, id: "download" }, t("link.download")), " · ",
        el("a", { href: replay, id: "watch" }, t("link.replay"))));
      body.append(el("p", {}, el("button", { type: "button", id: "rematch", onclick: rematch }, t("btn.rematch"))));
    }
    if (!dialog.open) dialog.showModal();
    return;
  }
  if (v.last_deal && v.deal_number > shownDeal + 1 && !v.match_over) {
    shownDeal = v.deal_number - 1;
    const r = v.last_deal;
    body.replaceChildren(el("h2", { text: t("deal.over", { n: v.deal_number - 1 }) }),
      el("p", { text: dealEndText(r, names) }),
      handTable(names, r.hands, r.points, v.totals, tb.last_melded), hintsLine(v.deal_number - 1));
    if (!dialog.open) dialog.showModal();
  }
  if (state.table.rematch && !watching) {
    const link = document.getElementById("rematch-link") || el("a", { id: "rematch-link" }, t("link.rematch"));
    link.href = `${state.table.rematch}?seat=${state.view.seat}`;  // this browser keeps its seat
    if (!link.isConnected) body.append(el("p", {}, link));
  }
}

// How a deal ended: who went out (with a rummy), or why nobody did.
function dealEndText(result, names) {
  if (result.winner !== null) return t(result.rummy ? "deal.rummy" : "deal.out", { name: names[result.winner] });
  const why = result.end ? t(`end.deal.${result.end}`, { repetition: repetitionOf() }) : t("end.deal.none");
  return t("deal.nobody", { why });
}

function repetitionOf() {
  const match = /repetition=(\d+)/.exec(state.table.rules);
  return match ? match[1] : "3";
}

// A refusal in the page's language: from its code and params where the catalog has the
// code, else the server's own words.
function refusalText(message) {
  if (!message.code || !has(`refusal.${message.code}`)) return message.message;
  const params = {};
  for (const [name, value] of Object.entries(message.params || {})) {
    if (name === "card" && typeof value === "string") params[name] = cardText(value);
    else if (name === "cards" && typeof value === "string") params[name] = value.split(" ").map(cardText).join(" ");
    else if (name === "player" || name === "name") params[name] = typeof value === "number" ? nameOf(value) : value;
    else params[name] = Array.isArray(value) ? value.join(" ") : value;
  }
  return t(`refusal.${message.code}`, params);
}


// Why the match ended, in words.
function matchEndText() {
  const v = state.view, tb = state.table;
  const best = Math.max(...v.totals), leader = v.totals.indexOf(best);
  switch (v.match_end) {
    case "one-deal": return t("end.match.one-deal");
    case "target": return t("end.match.target", { target: tb.target, name: nameOf(leader), points: best });
    case "dealt-once": return t("end.match.dealt-once");
    case "deals": return t("end.match.deals", { n: v.sheet.length });
    case "elimination": return t("end.match.elimination");
    default: return "";
  }
}

// 500 Rum: the winner collects from each opponent the difference of their totals.
function settlementText(names, pay) {
  const winner = pay.findIndex((p) => p > 0);
  const payers = names.map((n, i) => (pay[i] < 0 ? t("settlement.pays", { name: n, n: -pay[i] }) : null)).filter(Boolean);
  if (winner < 0) return t("settlement.none");
  return t("settlement.text", { name: names[winner], n: pay[winner], payers: payers.join(", ") });
}

// Every finished deal's points for each player, then the totals.
function sheetTable() {
  const v = state.view, names = state.table.seats.map((s) => s.name);
  const table = el("table", { class: "data sheet", id: "sheet-table" });
  table.append(el("tr", {}, el("th", { text: t("th.deal") }), ...names.map((n) => el("th", { text: n }))));
  v.sheet.forEach((points, i) => table.append(el("tr", {}, el("td", { text: String(i + 1) }), ...points.map((p) => el("td", { text: String(p) })))));
  table.append(el("tr", { class: "total" }, el("td", { text: t("th.total") }), ...v.totals.map((p) => el("td", { text: String(p) }))));
  return table;
}

function showSheet() {
  if (!state) return;
  const body = document.getElementById("sheet-body");
  body.replaceChildren(sheetNote(), sheetTable());
  const dialog = document.getElementById("sheet");
  if (!dialog.open) dialog.showModal();
}

function sheetNote() {
  const v = state.view;
  return el("p", { class: "muted", text: !v.sheet.length ? t("sheet.empty") : v.match_over ? tn("sheet.over", v.sheet.length) : tn("sheet.after", v.sheet.length, { deal: v.deal_number }) });
}

// "Hints used: Anna 2": who asked for hints in a deal (nothing when nobody did).
function hintsLine(deal) {
  const counts = (state.table.hints || {})[String(deal)];
  if (!counts || !counts.some((n) => n)) return el("p", { class: "hints-used", text: t("hints.none") });
  const names = state.table.seats.map((s) => s.name);
  return el("p", { class: "hints-used", text: t("hints.used", { list: names.map((n, i) => counts[i] ? `${n} ${counts[i]}` : null).filter(Boolean).join(", ") }) });
}

async function rematch() {
  try {
    const answer = await api(`/api/tables/${tableId}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(token ? { token, key } : { seat: Number(seatNumber), key }),
    });
    window.location.href = answer.link;
  } catch (err) { showError(err.message); }
}

function sortHand(bySuit) {
  order.sort((a, b) => compareCards(a, b, bySuit));
  selected = new Set();
  renderHand(); renderButtons();
}

function onKey(event) {
  if (!state || event.target.tagName === "INPUT") return;  // typing (an action, the chat)
  const key = event.key;
  const click = (id) => document.getElementById(id).click();
  document.body.classList.add("keyboard");
  if (event.shiftKey && (key === "ArrowRight" || key === "ArrowLeft")) {  // move the focused card
    const to = key === "ArrowRight" ? Math.min(focus + 1, order.length - 1) : Math.max(focus - 1, 0);
    move(focus, to); focus = to; renderHand();
  }
  else if (key === "ArrowRight") { focus = Math.min(focus + 1, order.length - 1); renderHand(); }
  else if (key === "ArrowLeft") { focus = Math.max(focus - 1, 0); renderHand(); }
  else if (key === " ") { event.preventDefault(); if (order.length) toggle(focus); }
  else if (key === "Escape") {
    selected = new Set();
    if (deepChoice !== null) { deepChoice = null; renderMiddle(); }
    renderHand(); renderButtons(); renderMelds(); keyCards();
  }
  else if (key === "s") click("btn-stock");
  else if (key === "p") click("btn-pile");
  else if (key === "m") click("btn-meld");
  else if (key === "d") click("btn-discard");
  else if (key === "e") click("btn-end");
  else if (key === "h") click("btn-hint");
  else if (key === "u") click("btn-undo");
  else if (key === "t") showSheet();
  else if (/^[1-9]$/.test(key)) { const options = layoffOptions(selectedCards(), Number(key)); if (options.length) choose(options); }
  else if (key === "/") { event.preventDefault(); document.getElementById("command").focus(); }
  else return;
  event.preventDefault();
}

document.getElementById("command-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("command");
  if (input.value.trim()) send(input.value.trim());
  input.value = "";
});
document.getElementById("btn-sheet").addEventListener("click", showSheet);
document.getElementById("btn-sound").addEventListener("click", () => {
  localStorage.setItem("rummykit.sound", localStorage.getItem("rummykit.sound") === "on" ? "off" : "on");
  renderSound();
});
i18nReady.then(renderSound);
document.getElementById("btn-back").addEventListener("click", () => message({ type: "back" }));
document.getElementById("btn-keep").addEventListener("click", () => message({ type: "vote", end: false }));
document.getElementById("btn-end-match").addEventListener("click", () => message({ type: "vote", end: true }));
document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  if (input.value.trim()) message({ type: "chat", text: input.value.trim() });
  input.value = "";
});
document.getElementById("btn-watch-link").addEventListener("click", async () => {
  const url = new URL(`/t/${tableId}?watch=1`, window.location.href).href;
  const button = document.getElementById("btn-watch-link");
  try { await navigator.clipboard.writeText(url); button.textContent = t("invites.copied"); }
  catch (e) { showWhy(t("watch.link", { url })); }
});
document.getElementById("btn-away").addEventListener("click", () => {
  if (confirm(t("away.confirm", { level: levelName(state.table.standin) }))) message({ type: "away" });
});
document.getElementById("btn-invites").addEventListener("click", () => {
  document.getElementById("invites").showModal();
  renderInvites();
});
// Closing a deal's summary tells the table this person has read it: the bots wait for
// everyone (a short while at most) before the next deal goes on.
document.getElementById("summary").addEventListener("close", () => {
  if (!watching && socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "seen" }));
});
document.getElementById("sort-suit").addEventListener("click", () => sortHand(true));
document.getElementById("sort-rank").addEventListener("click", () => sortHand(false));
document.addEventListener("keydown", onKey);
i18nReady.then(connect);
