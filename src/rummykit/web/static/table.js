// The table: one seat's view, live over a WebSocket. The server decides everything; this
// page only shows the view it is sent and offers the legal actions that view lists. This
// module connects, receives and draws the table; table-state.js holds what the page
// knows, table-menu.js the menu over the table, table-end.js the ends of deals.
import { cardEl, backEl, meldEl, meldGroups, seatEl, fitRow, fitMelds } from "./components.js";
import { phrase } from "./words.js";
import { startDrag } from "./drag.js";
import { canDo, game, key, layoffOptions, legal, meldOptions, message, nameOf, refusalText, selectedCards, tableId, token, watching } from "./table-state.js";
import { renderAway, renderChat, renderInvites, renderLog, renderMutes, renderWatchers, showCommand, yourTurn } from "./table-menu.js";
import { holdFinished, showSheet, summaries } from "./table-end.js";

// Who this page is, for the server: the seat's link (its token) or the seat this browser
// claimed, with this browser's key. It is the connection's first message (the hello),
// never part of an address.
function hello() {
  const message = { type: "hello", key };
  if (token) message.token = token;
  else if (game.seatNumber !== null) message.seat = /^[0-9]+$/.test(game.seatNumber) ? Number(game.seatNumber) : game.seatNumber;
  return message;
}

export function connect() {
  game.closedFor = null;
  document.getElementById("notice").classList.add("hidden");
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  game.socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}${watching ? "?watch=1" : ""}`);
  document.getElementById("conn").textContent = t("conn.connecting");
  game.socket.onopen = () => {
    game.retry = 0;
    document.getElementById("conn").textContent = t("conn.connected");
    if (!watching) game.socket.send(JSON.stringify(hello()));
  };
  game.socket.onmessage = (event) => receive(JSON.parse(event.data));
  game.socket.onclose = (event) => {
    if (event.code === 4410) {  // a table this version can no longer rebuild: do not retry
      document.getElementById("conn").textContent = t("conn.broken");
      return;
    }
    if (event.code === 4409) {  // another tab of this browser has the seat now
      document.getElementById("conn").textContent = t("conn.elsewhere");
      showNotice(t(`closed.${game.closedFor || "replaced"}`), game.closedFor !== "revoked");
      return;
    }
    if (event.code === 4403 || event.code === 4404 || event.code === 4400) {  // a bad link: do not retry
      document.getElementById("conn").textContent = game.oneSeat ? "" : t("conn.bad_link");
      return;
    }
    document.getElementById("conn").textContent = t("conn.reconnecting");
    game.retry = Math.min(game.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** game.retry);
  };
}

export function send(action) {
  hideError();
  if (!game.socket || game.socket.readyState !== WebSocket.OPEN) { showError(t("err.not_connected")); return; }
  game.socket.send(JSON.stringify({ type: "action", action }));
}

export function showError(message) {
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
    if (message.code === "one-seat") {
      // Said once, on its own screen: whose link this is and what to do (the header
      // repeats nothing, and the menu of a seat this page does not have is not offered).
      game.oneSeat = true;
      document.getElementById("btn-menu").classList.add("hidden");
      document.getElementById("status").textContent = "";
      import("/static/invite.js").then((invite) => invite.showLinkOfAnother(message, { tableId }));
      return;
    }
    showError(refusalText(message));
    if (!game.state) document.getElementById("status").textContent = refusalText(message);
    if (message.code === "seat-claimed") showNotice(t("notice.claimed"), false);
    if (message.code === "seat-link") showNotice(t("notice.no_seat"), false);
    return;
  }
  if (message.type === "closed") { game.closedFor = message.reason; return; }
  if (message.type === "chat") {
    game.chatLines.push(message);
    game.chatLines = game.chatLines.slice(-50);
    renderChat();
    // A new line while the menu is closed: the menu button says so.
    if (!document.getElementById("menu").open && game.state && message.seat !== game.state.view.seat) {
      document.getElementById("btn-menu").classList.add("unread");
    }
    return;
  }
  if (message.type === "chat-log") { game.chatLines = message.messages; renderChat(); return; }
  if (message.type === "presence") {
    if (!game.state) return;
    message.seats.forEach((here, i) => Object.assign(game.state.table.seats[i], here));
    game.state.table.watchers = message.watchers;
    renderWatchers();
    renderSeats(); renderInvites(); renderAway(); tick();
    return;
  }
  if (message.type === "hint") { showHint(message); return; }
  if (message.type === "why") { showWhy(message.legal ? t("why.legal") : refusalText(message)); return; }
  if (message.type !== "view") return;
  const before = game.state;
  game.state = message;
  if (token && !before && !watching) {
    // The link has done its work: this browser's key opens the seat from now on, and the
    // address bar shows no reusable link.
    game.seatNumber = String(game.state.view.seat);
    history.replaceState(null, "", `/t/${tableId}?seat=${game.seatNumber}`);
  }
  yourTurn(before);
  const hand = game.state.view.hand;
  if ((game.hinted && game.hinted.seq !== game.state.table.seq) ||
      (game.hintAsked !== null && game.hintAsked !== game.state.table.seq)) clearHint();  // asked of a position gone by
  if (game.whySeq !== null && game.whySeq !== game.state.table.seq) hideWhy();  // said of a position gone by
  if (before && before.table.seq !== game.state.table.seq) game.deepChoice = null;
  game.fresh = freshCards(before, game.state);
  // Keep the player's arrangement: cards still held stay in place, new ones go last.
  const left = [...hand];
  const kept = [];
  for (const card of game.order) {
    const i = left.indexOf(card);
    if (i >= 0) { kept.push(card); left.splice(i, 1); }
  }
  const changed = !before || before.view.hand.join() !== hand.join();
  game.order = kept.concat(left);
  if (!before) game.order = savedOrder(hand) || game.order;  // the arrangement survives a reload
  if (changed) game.selected = new Set();
  game.focus = Math.min(game.focus, Math.max(game.order.length - 1, 0));
  holdFinished(before);
  render();
  announce(before);
  summaries();
}

window.receive = receive;

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
  const v = game.state.view;
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
  if (before.view.history_length === v.history_length && before.view.deal_number === v.deal_number) return game.fresh;
  const [seat, text] = h[h.length - 1];
  if (seat !== v.seat || text.startsWith("discard")) return [];  // the turn is over
  if (!text.startsWith("draw")) return game.fresh.filter((c) => v.hand.includes(c));
  // Back to this seat's draw (an undo): the cards that came back are not new.
  if (v.history_length < before.view.history_length) return game.fresh.filter((c) => v.hand.includes(c));
  const left = [...before.view.hand];
  const gained = [];
  for (const card of v.hand) {
    const i = left.indexOf(card);
    if (i >= 0) left.splice(i, 1); else gained.push(card);
  }
  return gained;
}

const MOTION_MS = 380;
export const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

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
  const node = card ? cardEl(card, { small: true }) : backEl({ small: true });
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
  const v = game.shown.view, prev = old.view;
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

export function render() {
  const before = reduced ? new Map() : positions();  // where each card was, to slide from
  const old = game.rendered;
  game.shown = game.finished || game.state;
  game.rendered = game.shown;
  document.body.classList.toggle("deal-done", Boolean(game.finished));
  renderAll();
  keyCards();
  animate(before, old);
}

function renderAll() {
  const v = game.shown.view, tb = game.shown.table;
  document.getElementById("rules").textContent = t("status.rules", { rules: tb.rules }) + (tb.rated ? ` · ${t("rated.badge")}` : "");
  document.getElementById("deal").textContent = t("status.deal", { n: v.deal_number });
  document.getElementById("status").textContent = statusText();
  renderSeats(); renderMiddle(); renderMelds(); renderHandCards(); renderButtons(); renderLog(); renderInvites();
  renderAway(); startClock(); renderWatchers(); renderMutes(); renderLastLine();
  requestAnimationFrame(fitTable);
}

function statusText() {
  const v = game.shown.view, tb = game.shown.table;
  if (game.finished) {
    const last = game.finished.finished.last;
    const said = last ? " " + phrase(last[1], null, last[0] === v.seat ? "you" : "other", nameOf(last[0])) : "";
    return t("deal.over", { n: v.deal_number }) + "." + said;
  }
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
  const v = game.shown.view, tb = game.shown.table, box = document.getElementById("seats");
  const me = document.getElementById("me");
  box.replaceChildren();
  me.replaceChildren();
  const n = tb.seats.length;
  const around = tb.seats.map((_, i) => i).sort((a, b) => ((a - v.seat + n) % n) - ((b - v.seat + n) % n));
  const lines = logLines();
  for (const i of around) {
    const seat = tb.seats[i];
    let last = "";
    for (let k = lines.length - 1; k >= 0; k--) if (lines[k].seat === i) { last = lines[k].short; break; }
    const fan = el("div", { class: "fan", "aria-hidden": "true" });
    const revealed = v.revealed || v.revealed_hands;
    if (revealed) {  // the deal is over: every hand face up
      fan.classList.add("open");
      fan.removeAttribute("aria-hidden");
      for (const card of revealed[i]) fan.append(cardEl(card, { small: true }));
    } else if (i !== v.seat) for (let k = 0; k < Math.min(v.hand_sizes[i], 14); k++) fan.append(backEl({ small: true }));
    else fan.classList.add("hidden");
    const facts = [];
    if (tb.opening) facts.push(v.opened[i] ? t("seat.opened") : t("seat.not_opened", { n: tb.opening }));
    if (tb.melded) facts.push(t("seat.melded", { n: tb.melded[i] }));
    const node = seatEl(i, { turn: v.to_move === i && !v.match_over,
      label: t(v.to_move === i ? "seat.aria_moving" : "seat.aria", { name: seat.name, cards: tn("n.cards", v.hand_sizes[i]), score: v.totals[i] }),
      dot: presenceDot(seat), name: (i === v.seat ? youLabel(seat.name) : seat.name) + (seat.kind === "bot" ? " · " + botText(seat.level) : "") },
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

// The clock of the person to move: the seconds the server gave, counted down here.
function startClock() {
  const left = game.state.table.time_left;
  game.clockEnd = left === null || left === undefined ? null : performance.now() + left * 1000;
  tick();
}

function tick() {
  const node = document.querySelector(".seat .clock");
  if (!node || game.clockEnd === null) return;
  const seconds = Math.max(0, Math.ceil((game.clockEnd - performance.now()) / 1000));
  node.textContent = t("clock.left", { s: seconds });
  node.classList.toggle("short", seconds <= 10);
}

setInterval(tick, 500);

function renderMiddle() {
  const v = game.shown.view;
  const stock = document.getElementById("stock");
  stock.replaceChildren();
  const stockCard = backEl();
  stockCard.append(el("span", { class: "count", text: String(v.stock_size) }));
  if (canDo("draw stock")) { stockCard.classList.add("clickable"); stockCard.title = t("stock.title"); stockCard.onclick = () => send("draw stock"); }
  stockCard.setAttribute("aria-label", t("stock.aria", { cards: tn("n.cards", v.stock_size) }));
  focusable(stockCard, canDo("draw stock"));
  if (game.hinted && game.hinted.action === "draw stock") stockCard.classList.add("hinted");
  stock.append(stockCard);
  const pile = document.getElementById("pile");
  pile.replaceChildren();
  if (!v.pile.length) pile.append(el("span", { class: "muted", text: t("pile.empty") }));
  const spread = v.pile.length > 1;  // rummy500: the whole pile is shown
  // A card twice on the pile (two decks) is taken from its upper place, as the engine does.
  const deepAt = game.deepChoice === null ? -1 : v.pile.lastIndexOf(game.deepChoice);
  v.pile.forEach((card, i) => {
    const node = cardEl(card, { small: spread && i < v.pile.length - 1 });
    const top = i === v.pile.length - 1;
    const action = top ? "draw pile" : `draw pile ${card}`;
    if (game.hinted && game.hinted.action === action) node.classList.add("hinted");
    if (deepAt >= 0 && i >= deepAt) node.classList.add("taking");
    const usable = canDo(action) && (top || v.pile.lastIndexOf(card) === i);
    focusable(node, usable);
    if (usable) {
      node.classList.add("clickable");
      node.title = top ? t("pile.title") : t("pile.deep", { card: cardText(card) });
      // A card below the top takes every card above it too: the first click says so and
      // marks them, the second takes them.
      node.onclick = top ? () => send(action) : () => {
        if (game.deepChoice === card) { game.deepChoice = null; send(action); return; }
        game.deepChoice = card;
        renderMiddle();
        keyCards();
        document.querySelectorAll("#pile .card")[i]?.focus();  // for a second Enter
      };
    }
    pile.append(node);
  });
  // Said beside the pile, where the eyes are (a live region that stays on the page).
  document.getElementById("pile-note").textContent = deepAt < 0 ? "" :
    t("pile.confirm_deep", { card: cardText(game.deepChoice), more: tn("n.cards", v.pile.length - 1 - deepAt) });
  if (v.pile_size > v.pile.length) pile.prepend(el("span", { class: "muted", text: t("pile.more", { n: v.pile_size - v.pile.length }) + " " }));
}

function renderMelds() {
  const v = game.shown.view, box = document.getElementById("melds");
  box.replaceChildren();
  if (!v.table.length) { box.append(el("span", { class: "muted", text: t("meld.none") })); return; }
  const cards = game.finished ? [] : selectedCards();
  const names = game.shown.table.seats.map((seat) => seat.name);
  box.append(...meldGroups(v.table, names, (meld) => {
    const node = meldEl(meld, { names });
    const options = layoffOptions(cards, meld.number);
    if (options.length) {
      node.classList.add("target");
      node.title = t("meld.target");
      node.onclick = () => choose(options);
    } else {
      node.title = t("meld.open");
      node.onclick = () => openMeld(meld, names);
    }
    focusable(node, true);
    return node;
  }));
}

// A meld at full size in a dialog, to read it when the table is crowded.
function openMeld(meld, names) {
  const dialog = document.getElementById("meld-view");
  document.getElementById("meld-view-title").textContent = t("meld.aria", { n: meld.number, name: names[meld.owner], cards: "" }).replace(/[:\s]+$/, "");
  document.getElementById("meld-view-body").replaceChildren(meldEl(meld, { names }));
  if (!dialog.open) dialog.showModal();
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

// Several ways to play the same cards (a joker's place, a meld's end): the page asks which,
// in words.
export function choose(options) {
  const box = document.getElementById("choices");
  box.replaceChildren();
  if (options.length === 1) { send(options[0]); return; }
  for (const option of options) {
    const words = phrase(option, null, "do");
    box.append(el("button", { type: "button", class: "secondary", "data-action": option,
      onclick: () => { box.replaceChildren(); send(option); } }, words.charAt(0).toUpperCase() + words.slice(1)));
  }
}

// An action the page will not play as it stands: why not, as the buttons say it (the page
// knows whose turn it is; the engine's own refusal is asked of the server).
function refuse(action) {
  const v = game.state.view;
  if (game.state.table.status !== "playing" || v.match_over) return showWhy(statusText());
  if (v.to_move !== v.seat) return showWhy(t("why.not_turn", { name: nameOf(v.to_move) }));
  if (game.socket && game.socket.readyState === WebSocket.OPEN) game.socket.send(JSON.stringify({ type: "why", action }));
}

// A card of the hand put down somewhere: on the pile it is discarded, on a meld laid off,
// on the table melded with the other selected cards, in the hand moved there. What the
// rules refuse is explained, and nothing changes.
function dropped(i, target) {
  if (!target || game.finished || !game.state) return;
  const card = game.order[i];
  if (target.kind === "hand") {
    move(i, target.index < 0 ? game.order.length - 1 : target.index);
    return;
  }
  if (watching) return;
  if (target.kind === "pile") {
    if (canDo(`discard ${card}`)) { hideWhy(); send(`discard ${card}`); } else refuse(`discard ${card}`);
    return;
  }
  if (target.kind === "meld") {
    const options = layoffOptions([card], target.number);
    if (options.length) { hideWhy(); choose(options); } else refuse(`layoff ${card} ${target.number}`);
    return;
  }
  if (target.kind === "table") {
    if (!game.selected.has(i)) game.selected.add(i);
    const cards = selectedCards();
    const options = meldOptions(cards);
    if (options.length) { hideWhy(); choose(options); return; }
    if (cards.length < 3) { renderHand(); renderButtons(); return showWhy(t("why.select_meld")); }
    refuse(`meld ${cards.join(" ")}`);
    renderHand(); renderButtons();
  }
}

// The player's own order of the hand, kept in this browser for the current deal only.
function orderKey() { return `rummykit/order/${tableId}/${game.state.view.seat}`; }

function saveOrder() {
  try { localStorage.setItem(orderKey(), JSON.stringify({ deal: game.state.view.deal_number, order: game.order })); } catch (e) { /* storage off: the order lives in the page */ }
}

function savedOrder(hand) {
  try {
    const saved = JSON.parse(localStorage.getItem(orderKey()) || "null");
    if (!saved || saved.deal !== game.state.view.deal_number) return null;
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
  box.replaceChildren();
  if (game.finished) {  // the finished deal: what was left in this hand
    for (const card of game.finished.view.hand) box.append(cardEl(card));
    fitRow(box);
    return;
  }
  saveOrder();
  game.order.forEach((card, i) => {
    const node = cardEl(card);
    node.classList.add("clickable");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "-1");
    node.setAttribute("aria-pressed", game.selected.has(i) ? "true" : "false");
    if (game.selected.has(i)) node.classList.add("selected");
    if (game.fresh.includes(card) && game.order.indexOf(card) === i) {
      node.classList.add("new");
      node.setAttribute("aria-label", t("card.new", { card: cardName(card) }));
      node.append(el("span", { class: "new-badge", "aria-hidden": "true", text: t("card.new_badge") }));
    }
    if (game.hinted && hintCards().includes(card)) node.classList.add("hinted");
    if (i === game.focus && document.body.classList.contains("keyboard")) node.classList.add("focus");
    node.onclick = (event) => { if (!node.dataset.dragged) toggle(i); delete node.dataset.dragged; event.preventDefault(); };
    node.addEventListener("pointerdown", (event) => startDrag(event, node, i, dropped));
    box.append(node);
  });
  fitRow(box);
}

export function move(from, to) {
  if (from === to || Number.isNaN(from)) return;
  const picked = selectedCards();
  const [card] = game.order.splice(from, 1);
  game.order.splice(to, 0, card);
  game.selected = new Set(picked.map((c) => game.order.indexOf(c)).filter((i) => i >= 0));
  renderHand();
}

export function toggle(i) {
  if (game.selected.has(i)) game.selected.delete(i); else game.selected.add(i);
  game.focus = i;
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
  const mine = game.shown.view.to_move === game.shown.view.seat && !game.shown.view.match_over;
  set("btn-hint", mine && game.shown.table.status === "playing" && !game.shown.table.rated, askHint);
  set("btn-undo", Boolean(game.shown.table.undo), () => game.socket.send(JSON.stringify({ type: "undo" })));
  // A rated table gives no hints and takes nothing back: those buttons are not there.
  for (const id of ["btn-hint", "btn-undo"]) document.getElementById(id).classList.toggle("hidden", Boolean(game.shown.table.rated));
}

// Why a button cannot be used now: said here where the page knows (nothing selected), else
// the engine's own refusal of the action the button would play, asked of the server.
function explain(id) {
  const v = game.state.view, tb = game.state.table, cards = selectedCards();
  if (game.state.table.status !== "playing" || v.match_over) return showWhy(statusText());
  if (v.to_move !== v.seat) return showWhy(t("why.not_turn", { name: nameOf(v.to_move) }));
  switch (id) {
    case "btn-stock": return refuse("draw stock");
    case "btn-pile": return refuse("draw pile");
    case "btn-end": return refuse("end");
    case "btn-hint": return showWhy(t("why.hint_turn"));
    case "btn-undo":
      return showWhy(tb.seats.some((seat, i) => i !== v.seat && seat.kind === "person") ? t("why.undo_seen") : t("why.undo_nothing"));
    case "btn-meld":
      if (cards.length < 3) return showWhy(t("why.select_meld"));
      return refuse(`meld ${cards.join(" ")}`);
    case "btn-layoff":
      if (cards.length !== 1) return showWhy(t("why.select_layoff"));
      if (!v.table.length) return showWhy(t("why.no_melds"));
      return refuse(`layoff ${cards[0]} 1`);
    case "btn-discard":
      if (cards.length !== 1) return showWhy(t("why.select_discard"));
      return refuse(`discard ${cards[0]}`);
  }
}

export function showWhy(message) {
  const box = document.getElementById("why");
  box.textContent = message;
  box.classList.remove("hidden");
  game.whySeq = game.state ? game.state.table.seq : null;
}

function hideWhy() {
  document.getElementById("why").classList.add("hidden");
  game.whySeq = null;
}

function askHint() {
  if (!game.socket || game.socket.readyState !== WebSocket.OPEN) { showError(t("err.not_connected")); return; }
  const box = document.getElementById("hint");
  box.textContent = t("hint.thinking");
  box.classList.remove("hidden");
  game.hintAsked = game.state.table.seq;
  game.socket.send(JSON.stringify({ type: "hint" }));
}

function showHint(message) {
  if (!game.state || message.seq !== game.state.table.seq || game.hintAsked !== message.seq) {  // the game moved on meanwhile
    if (game.hintAsked !== null && game.state && game.hintAsked !== game.state.table.seq) clearHint();
    return;
  }
  game.hinted = message;
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
  game.hinted = null;
  game.hintAsked = null;
  const box = document.getElementById("hint");
  box.classList.add("hidden");
  delete box.dataset.action;
}

// The cards of the hand the hint names (none for a draw).
function hintCards() {
  if (!game.hinted) return [];
  const words = game.hinted.action.split(" ");
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

// The recent actions in words, oldest first, with the stock's turn-overs and refills.
export function logLines() {
  const v = game.state.view, lines = [];
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

function sortHand(bySuit) {
  game.order.sort((a, b) => compareCards(a, b, bySuit));
  game.selected = new Set();
  renderHand(); renderButtons();
}

function onKey(event) {
  if (!game.state || event.target.tagName === "INPUT") return;  // typing (an action, the chat)
  // An open dialog (the menu, the score sheet, a summary) has the keys: Escape closes it
  // (the browser does that), and no game key acts behind it.
  if (document.querySelector("dialog[open]")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  const click = (id) => document.getElementById(id).click();
  document.body.classList.add("keyboard");
  if (event.shiftKey && (key === "ArrowRight" || key === "ArrowLeft")) {  // move the focused card
    const to = key === "ArrowRight" ? Math.min(game.focus + 1, game.order.length - 1) : Math.max(game.focus - 1, 0);
    move(game.focus, to); game.focus = to; renderHand();
  }
  else if (key === "ArrowRight") { game.focus = Math.min(game.focus + 1, game.order.length - 1); renderHand(); }
  else if (key === "ArrowLeft") { game.focus = Math.max(game.focus - 1, 0); renderHand(); }
  else if (key === " ") { event.preventDefault(); if (game.order.length) toggle(game.focus); }
  else if (key === "Escape") {
    game.selected = new Set();
    if (game.deepChoice !== null) { game.deepChoice = null; renderMiddle(); }
    renderHand(); renderButtons(); renderMelds(); keyCards();
  }
  else if (game.finished) return;  // the deal is over: it is only shown
  else if (key === "s") click("btn-stock");
  else if (key === "p") click("btn-pile");
  else if (key === "m") click("btn-meld");
  else if (key === "d") click("btn-discard");
  else if (key === "e") click("btn-end");
  else if (key === "h") click("btn-hint");
  else if (key === "u") click("btn-undo");
  else if (key === "t") showSheet();
  else if (/^[1-9]$/.test(key)) { const options = layoffOptions(selectedCards(), Number(key)); if (options.length) choose(options); }
  else if (key === "/") { event.preventDefault(); showCommand(true); document.getElementById("command").focus(); }
  else return;
  event.preventDefault();
}

document.getElementById("sort-suit").addEventListener("click", () => sortHand(true));
document.getElementById("sort-rank").addEventListener("click", () => sortHand(false));
document.addEventListener("keydown", onKey);

window.addEventListener("resize", () => requestAnimationFrame(fitTable));

i18nReady.then(connect);

// The last thing that happened, always in sight on the table.
function renderLastLine() {
  const lines = logLines();
  let last = lines.length ? lines[lines.length - 1].what : "";
  const ended = game.finished && game.finished.finished.last;
  if (ended) last = phrase(ended[1], null, ended[0] === game.state.view.seat ? "you" : "other", nameOf(ended[0]));
  document.getElementById("last-line").textContent = last;
}

// After each render and on every resize: the hand's cards overlap to fit, the melds shrink
// to fit the table.
function fitTable() {
  const hand = document.getElementById("hand");
  if (hand) fitRow(hand);
  fitRow(document.getElementById("pile"));
  const melds = document.getElementById("melds-panel");
  if (melds) fitMelds(melds);
}
