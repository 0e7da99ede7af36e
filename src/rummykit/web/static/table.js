// The table: one seat's view, live over a WebSocket. The server decides everything; this
// page only shows the view it is sent and offers the legal actions that view lists.
"use strict";

const tableId = window.location.pathname.split("/").pop();
const token = new URLSearchParams(window.location.search).get("token") || "";
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

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
  document.getElementById("conn").textContent = "connecting…";
  socket.onopen = () => { retry = 0; document.getElementById("conn").textContent = "connected"; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4410) {  // a table this version can no longer rebuild: do not retry
      document.getElementById("conn").textContent = "this table can no longer be played";
      return;
    }
    if (event.code === 4403 || event.code === 4404) {  // a bad link: do not retry
      document.getElementById("conn").textContent = "this link does not open a seat";
      return;
    }
    document.getElementById("conn").textContent = "reconnecting…";
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  };
}

function send(action) {
  hideError();
  if (!socket || socket.readyState !== WebSocket.OPEN) { showError("Not connected: reconnecting…"); return; }
  socket.send(JSON.stringify({ type: "action", action }));
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.classList.remove("hidden");
}
function hideError() { document.getElementById("error").classList.add("hidden"); }

function receive(message) {
  if (message.type === "error") {
    showError(message.message);
    if (!state) document.getElementById("status").textContent = message.message;
    return;
  }
  if (message.type === "hint") { showHint(message); return; }
  if (message.type === "why") { showWhy(message.legal ? "You can do that now." : message.message); return; }
  if (message.type !== "view") return;
  const before = state;
  state = message;
  const hand = state.view.hand;
  if (hinted && hinted.seq !== state.table.seq) clearHint();
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
  if (events.length) banner(EVENTS[events[events.length - 1][1]]);
  const lines = logLines().slice(-added).filter((line) => line.seat !== v.seat);
  if (!lines.length) return;
  document.getElementById("announce").textContent = lines.map((line) =>
    (line.seat === null ? "" : `${nameOf(line.seat)} `) + line.what + ".").join(" ");
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
  const seatRect = (seat) => { const n = document.querySelector(`#seats .seat[data-seat="${seat}"]`); return n && n.getBoundingClientRect(); };
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
  const v = state.view, t = state.table;
  document.getElementById("rules").textContent = `Rules: ${t.rules}`;
  document.getElementById("deal").textContent = `Deal ${v.deal_number}`;
  document.getElementById("status").textContent = statusText();
  renderSeats(); renderMiddle(); renderMelds(); renderHandCards(); renderButtons(); renderLog();
}

function statusText() {
  const v = state.view, t = state.table;
  if (t.status === "waiting") {
    const missing = t.seats.filter((s) => !s.joined).map((s) => s.name);
    return `Waiting for ${missing.join(", ")} to open their link.`;
  }
  if (v.match_over) {
    return v.match_winner === null ? "The match is over: no single winner." : `The match is over: ${nameOf(v.match_winner)} wins.`;
  }
  if (v.to_move === v.seat) {
    if (v.must_use) return `Your turn: meld or lay off ${v.must_use}, then discard.`;
    return v.phase === "draw" ? "Your turn: draw from the stock or the pile." : "Your turn: meld, lay off, or discard to end your turn.";
  }
  return `${nameOf(v.to_move)} is playing…`;
}

function renderSeats() {
  const v = state.view, t = state.table, box = document.getElementById("seats");
  box.replaceChildren();
  t.seats.forEach((seat, i) => {
    let last = "";
    const lines = logLines();
    for (let k = lines.length - 1; k >= 0; k--) if (lines[k].seat === i) { last = lines[k].what; break; }
    const fan = el("div", { class: "fan", "aria-hidden": "true" });
    if (i !== v.seat) for (let k = 0; k < Math.min(v.hand_sizes[i], 14); k++) fan.append(backEl(true));
    else fan.classList.add("hidden");
    const facts = [];
    if (t.opening) facts.push(v.opened[i] ? "opened" : `not opened (needs ${t.opening})`);
    if (t.melded) facts.push(`melded ${t.melded[i]} this deal`);
    const node = el("div", { class: "seat" + (v.to_move === i && !v.match_over ? " turn" : ""), "data-seat": i,
      "aria-label": `${seat.name}: ${v.hand_sizes[i]} cards, score ${v.totals[i]}` + (v.to_move === i ? ", to move" : "") },
      el("div", { class: "name" }, seat.name + (i === v.seat ? " (you)" : "") + (seat.kind === "bot" ? ` · ${seat.level} bot` : "")),
      fan,
      el("div", {}, `${v.hand_sizes[i]} cards · score ${v.totals[i]}` + (v.dealer === i ? " · dealer" : "") + (v.active[i] ? "" : " · out")),
      facts.length ? el("div", { class: "facts", text: facts.join(" · ") }) : null,
      el("div", { class: "last" }, last ? `last: ${last}` : (seat.joined ? "" : "not here yet")));
    box.append(node);
  });
}

function canDo(text) { return legal().includes(text); }

function renderMiddle() {
  const v = state.view;
  const stock = document.getElementById("stock");
  stock.replaceChildren();
  const stockCard = backEl();
  stockCard.append(el("span", { text: String(v.stock_size) }));
  if (canDo("draw stock")) { stockCard.classList.add("clickable"); stockCard.title = "draw stock (s)"; stockCard.onclick = () => send("draw stock"); }
  stockCard.setAttribute("aria-label", `stock, ${v.stock_size} cards`);
  if (hinted && hinted.action === "draw stock") stockCard.classList.add("hinted");
  stock.append(stockCard);
  const pile = document.getElementById("pile");
  pile.replaceChildren();
  if (!v.pile.length) pile.append(el("span", { class: "muted", text: "empty" }));
  const spread = v.pile.length > 1;  // rummy500: the whole pile is shown
  v.pile.forEach((card, i) => {
    const node = cardEl(card, { small: spread && i < v.pile.length - 1 });
    const top = i === v.pile.length - 1;
    const action = top ? "draw pile" : `draw pile ${card}`;
    if (hinted && hinted.action === action) node.classList.add("hinted");
    if (canDo(action)) {
      node.classList.add("clickable");
      node.title = top ? "draw pile (p)" : `take ${card} and every card above it`;
      node.onclick = () => send(action);
    }
    pile.append(node);
  });
  if (v.pile_size > v.pile.length) pile.prepend(el("span", { class: "muted", text: `${v.pile_size - v.pile.length} more below ` }));
}

function renderMelds() {
  const v = state.view, box = document.getElementById("melds");
  box.replaceChildren();
  if (!v.table.length) { box.append(el("span", { class: "muted", text: "No meld yet." })); return; }
  const cards = selectedCards();
  const owners = [...new Set(v.table.map((m) => m.owner))];
  for (const owner of owners) {
    box.append(el("div", { class: "owner", text: `${nameOf(owner)}'s melds` }));
    const row = el("div");
    for (const meld of v.table.filter((m) => m.owner === owner)) {
      const node = el("span", { class: "meld", "data-meld": meld.number }, el("span", { class: "num", text: meld.number }));
      meld.cards.forEach((c, k) => {
        const card = cardEl(c, { small: true });
        if (c === "JK") card.title = `joker as ${meld.represents[k]}`;
        node.append(card);
      });
      const options = layoffOptions(cards, meld.number);
      if (options.length) {
        node.classList.add("target");
        node.title = "lay off the selected card here";
        node.onclick = () => choose(options);
      }
      row.append(node);
    }
    box.append(row);
  }
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
    if (fresh.includes(card) && order.indexOf(card) === i) { node.classList.add("new"); node.setAttribute("aria-label", `${cardName(card)}, just drawn`); }
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
}

// Why a button cannot be used now: said here where the page knows (nothing selected), else
// the engine's own refusal of the action the button would play, asked of the server.
function explain(id) {
  const v = state.view, cards = selectedCards();
  if (state.table.status !== "playing" || v.match_over) return showWhy(statusText());
  if (v.to_move !== v.seat) return showWhy(`It is ${nameOf(v.to_move)}'s turn, not yours.`);
  const ask = (action) => { socket.send(JSON.stringify({ type: "why", action })); };
  switch (id) {
    case "btn-stock": return ask("draw stock");
    case "btn-pile": return ask("draw pile");
    case "btn-end": return ask("end");
    case "btn-hint": return showWhy("A hint is for your own turn.");
    case "btn-meld":
      if (cards.length < 3) return showWhy("Select the cards of a meld first (three or more).");
      return ask(`meld ${cards.join(" ")}`);
    case "btn-layoff":
      if (cards.length !== 1) return showWhy("Select the one card you want to lay off.");
      if (!v.table.length) return showWhy("There is no meld on the table to lay off on yet.");
      return ask(`layoff ${cards[0]} 1`);
    case "btn-discard":
      if (cards.length !== 1) return showWhy("Select the one card you want to discard.");
      return ask(`discard ${cards[0]}`);
  }
}

function showWhy(message) {
  const box = document.getElementById("why");
  box.textContent = message;
  box.classList.remove("hidden");
}
function hideWhy() { document.getElementById("why").classList.add("hidden"); }

function askHint() {
  if (!socket || socket.readyState !== WebSocket.OPEN) { showError("Not connected: reconnecting…"); return; }
  const box = document.getElementById("hint");
  box.textContent = "Thinking about your best move…";
  box.classList.remove("hidden");
  socket.send(JSON.stringify({ type: "hint" }));
}

function showHint(message) {
  if (!state || message.seq !== state.table.seq) return;  // the game moved on meanwhile
  hinted = message;
  const box = document.getElementById("hint");
  const pile = state.view.pile, words = message.action.split(" ");
  const taken = words[0] !== "draw" || words[1] !== "pile" ? null
    : words[2] ? pile.slice(pile.lastIndexOf(words[2])) : pile.slice(-1);
  // The reason names the action itself ("discard QC: QC is your highest card…").
  const reason = message.reason.replace(/\b(10|[2-9AJQK])([CDHS])\b/g, (card) => cardText(card));
  box.replaceChildren(el("strong", { text: "Hint: " }), reason.charAt(0).toUpperCase() + reason.slice(1) + ".");
  box.dataset.action = message.action;
  box.setAttribute("aria-label", `Hint: ${phrase(message.action, taken)}`);
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

// An action in words, with the cards a pile draw took (everyone saw them).
function phrase(text, taken) {
  const words = text.split(" ");
  const cards = (list) => list.map(cardText).join(" ");
  switch (words[0]) {
    case "draw":
      if (words[1] === "stock") return "draw from the stock";
      if (taken && taken.length > 1) return `take ${cardText(taken[0])} and the ${taken.length - 1} card${taken.length > 2 ? "s" : ""} above it from the pile`;
      if (taken && taken.length) return `take ${cardText(taken[0])} from the pile`;
      return words[2] ? `take ${cardText(words[2])} and every card above it from the pile` : "take the top card of the pile";
    case "meld": return `meld ${cards(words.slice(1))}`;
    case "layoff": return `lay off ${cardText(words[1])} on meld ${words[2]}${words[3] === "low" ? " (at its low end)" : ""}`;
    case "discard": return `discard ${cardText(words[1])}`;
    case "end": return "leave the pile, which ends the deal";
    default: return text;
  }
}

const PAST = { "draw from": "drew from", take: "took", meld: "melded", "lay off": "laid off", discard: "discarded", leave: "left" };
function past(text) {
  for (const [now, then] of Object.entries(PAST)) if (text.startsWith(now)) return then + text.slice(now.length);
  return text;
}

const EVENTS = {
  "turn-over": "The stock ran out: the pile was turned over to make a new one",
  refill: "The stock ran out: the pile was shuffled into a new one",
};

// The recent actions in words, oldest first, with the stock's turn-overs and refills.
function logLines() {
  const v = state.view, lines = [];
  const first = v.history_length - v.history.length;
  const pileDraws = v.history.filter(([, text]) => text.startsWith("draw pile")).length;
  let k = v.pile_draws.length - pileDraws;
  const events = new Map(v.events.map(([index, kind]) => [index, kind]));
  v.history.forEach(([seat, text], i) => {
    const event = events.get(first + i);
    if (event) lines.push({ seat: null, event: true, what: EVENTS[event] });
    const taken = text.startsWith("draw pile") ? (v.pile_draws[k++] || [null, []])[1] : null;
    lines.push({ seat, what: past(phrase(text, taken)) });
  });
  return lines;
}

function renderLog() {
  const v = state.view, box = document.getElementById("log");
  box.replaceChildren();
  for (const line of logLines().slice(-40).reverse()) {
    const who = line.seat === null ? "" : (line.seat === v.seat ? "You " : `${nameOf(line.seat)} `);
    box.append(el("div", { class: line.event ? "event" : "", text: who + line.what + "." }));
  }
}

function handTable(names, hands, points, totals) {
  const table = el("table", { class: "data hands" });
  table.append(el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Hand left" }), el("th", { text: "Points" }), el("th", { text: "Total" })));
  names.forEach((name, i) => {
    const cell = el("td");
    for (const c of hands[i]) cell.append(cardEl(c, { small: true }));
    if (!hands[i].length) cell.append("–");
    table.append(el("tr", {}, el("td", { text: name }), cell, el("td", { text: points[i] }), el("td", { text: totals[i] })));
  });
  return table;
}

function summaries() {
  const v = state.view, t = state.table;
  const names = t.seats.map((s) => s.name);
  const body = document.getElementById("summary-body");
  const dialog = document.getElementById("summary");
  if (v.match_over && !shownMatchEnd) {
    shownMatchEnd = true;
    const result = v.deal_result;
    body.replaceChildren(el("h2", { text: v.match_winner === null ? "Match over: no single winner" : `${names[v.match_winner]} wins the match` }),
      el("p", { class: "match-end", text: matchEndText() }));
    if (result) {
      body.append(el("p", { text: result.winner === null ? `The last deal ended with nobody out: ${result.why}.` : `${names[result.winner]} went out${result.rummy ? " with a rummy!" : "."}` }));
      body.append(handTable(names, v.revealed_hands, result.points, v.totals), hintsLine(v.deal_number));
    }
    if (t.settlement) body.append(el("p", { class: "settlement", text: settlementText(names, t.settlement) }));
    body.append(sheetTable());
    const record = `/api/tables/${tableId}/record?token=${encodeURIComponent(token)}`;
    const replay = `/replay?table=${tableId}&token=${encodeURIComponent(token)}`;
    body.append(el("p", {}, el("a", { href: record, download: `rummykit-${tableId}.json`, id: "download" }, "Download the record"), " · ",
      el("a", { href: replay, id: "watch" }, "Watch the replay")));
    body.append(el("p", {}, el("button", { type: "button", id: "rematch", onclick: rematch }, "Rematch")));
    if (!dialog.open) dialog.showModal();
    return;
  }
  if (v.last_deal && v.deal_number > shownDeal + 1 && !v.match_over) {
    shownDeal = v.deal_number - 1;
    const r = v.last_deal;
    body.replaceChildren(el("h2", { text: `Deal ${v.deal_number - 1} is over` }),
      el("p", { text: r.winner === null ? `Nobody went out: ${r.why}.` : `${names[r.winner]} went out${r.rummy ? " with a rummy!" : "."}` }),
      handTable(names, r.hands, r.points, v.totals), hintsLine(v.deal_number - 1));
    if (!dialog.open) dialog.showModal();
  }
  if (state.table.rematch) {
    const link = document.getElementById("rematch-link") || el("a", { id: "rematch-link" }, "Go to the rematch");
    link.href = state.table.rematch;
    if (!link.isConnected) body.append(el("p", {}, link));
  }
}

// Why the match ended, in words.
function matchEndText() {
  const v = state.view, t = state.table;
  const best = Math.max(...v.totals), leader = v.totals.indexOf(best);
  switch (v.match_end) {
    case "one-deal": return "One deal is the whole game.";
    case "target": return `The target is ${t.target}: ${nameOf(leader)} ended the match with ${best} points.`;
    case "dealt-once": return "Everyone has dealt once.";
    case "deals": return `The agreed ${v.sheet.length} deals have been played.`;
    case "elimination": return "Everyone else went past the limit and is out.";
    default: return "";
  }
}

// 500 Rum: the winner collects from each opponent the difference of their totals.
function settlementText(names, pay) {
  const winner = pay.findIndex((p) => p > 0);
  const payers = names.map((n, i) => (pay[i] < 0 ? `${n} pays ${-pay[i]}` : null)).filter(Boolean);
  if (winner < 0) return "Settlement: nobody pays.";
  return `Settlement: ${names[winner]} collects ${pay[winner]} (${payers.join(", ")}).`;
}

// Every finished deal's points for each player, then the totals.
function sheetTable() {
  const v = state.view, names = state.table.seats.map((s) => s.name);
  const table = el("table", { class: "data sheet", id: "sheet-table" });
  table.append(el("tr", {}, el("th", { text: "Deal" }), ...names.map((n) => el("th", { text: n }))));
  v.sheet.forEach((points, i) => table.append(el("tr", {}, el("td", { text: String(i + 1) }), ...points.map((p) => el("td", { text: String(p) })))));
  table.append(el("tr", { class: "total" }, el("td", { text: "Total" }), ...v.totals.map((p) => el("td", { text: String(p) }))));
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
  return el("p", { class: "muted", text: v.sheet.length ? `After ${v.sheet.length} deal${v.sheet.length > 1 ? "s" : ""}; deal ${v.deal_number} ${v.match_over ? "ended the match" : "is being played"}.` : "No deal has ended yet." });
}

// "Hints used: Anna 2": who asked for hints in a deal (nothing when nobody did).
function hintsLine(deal) {
  const counts = (state.table.hints || {})[String(deal)];
  if (!counts || !counts.some((n) => n)) return el("p", { class: "hints-used", text: "No hints used." });
  const names = state.table.seats.map((s) => s.name);
  return el("p", { class: "hints-used", text: "Hints used: " + names.map((n, i) => counts[i] ? `${n} ${counts[i]}` : null).filter(Boolean).join(", ") + "." });
}

async function rematch() {
  try {
    const answer = await api(`/api/tables/${tableId}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
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
  if (!state || event.target.tagName === "INPUT") return;
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
  else if (key === "Escape") { selected = new Set(); renderHand(); renderButtons(); renderMelds(); keyCards(); }
  else if (key === "s") click("btn-stock");
  else if (key === "p") click("btn-pile");
  else if (key === "m") click("btn-meld");
  else if (key === "d") click("btn-discard");
  else if (key === "e") click("btn-end");
  else if (key === "h") click("btn-hint");
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
document.getElementById("sort-suit").addEventListener("click", () => sortHand(true));
document.getElementById("sort-rank").addEventListener("click", () => sortHand(false));
document.addEventListener("keydown", onKey);
connect();
