// Shared helpers for every page: cards, fetch and small DOM builders.
"use strict";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function cardEl(card, opts = {}) {
  const node = el("span", { class: "card" + (opts.small ? " small" : ""), "data-card": card,
    title: cardName(card), "aria-label": cardName(card), role: "img" });
  if (card === "JK") {
    node.classList.add("joker");
    node.append(el("span", { text: "★" }), el("span", { class: "suit", text: "JK" }));  // a joker looks the same everywhere
  } else {
    const suit = card.slice(-1), rank = card.slice(0, -1);
    if (suit === "H" || suit === "D") node.classList.add("red");
    node.append(el("span", { text: rankLetter(rank) }), el("span", { class: "suit", text: SUITS[suit] }));
  }
  return node;
}

function backEl(small) {
  return el("span", { class: "card back" + (small ? " small" : ""), "aria-hidden": "true" });
}

// The server's limits on what a person types (GET /api/config: the longest name, chat
// line, the shape of a browser's key...), so that no page writes the numbers again. They
// are kept for the next page; an input with data-limit="name_length" gets that maxlength.
let LIMITS = (() => { try { return JSON.parse(localStorage.getItem("rummykit.config")) || {}; } catch (e) { return {}; } })();
function limits() { return LIMITS; }
const limitsReady = fetch("/api/config").then((response) => response.json()).then((data) => {
  LIMITS = data;
  try { localStorage.setItem("rummykit.config", JSON.stringify(data)); } catch (e) { /* storage off */ }
  return data;
}).catch(() => LIMITS).then((data) => {
  for (const input of document.querySelectorAll("[data-limit]")) {
    if (data[input.dataset.limit]) input.maxLength = data[input.dataset.limit];
  }
  return data;
});

// This browser's key: made once from 192 random bits and kept here. A seat's link claims
// the seat for the browser that opens it first; after that only this key opens it.
function browserKey() {
  let key = localStorage.getItem("rummykit.key");
  const shape = limits().key_pattern;
  if (!key || (shape && !new RegExp(shape).test(key))) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("rummykit.key", key);
  }
  return key;
}

// The links of the tables this browser made (it may copy or replace them later).
function createdLinks(tableId) {
  try { return JSON.parse(localStorage.getItem(`rummykit.created.${tableId}`)); } catch (e) { return null; }
}
function saveCreated(tableId, links) {
  localStorage.setItem(`rummykit.created.${tableId}`, JSON.stringify(links));
}

// A request to the API: its JSON answer, or an Error with the server's message, the
// answer's status and the refusal's code (for the page to say it in its language).
async function api(path, options = {}) {
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const message = (data && (data.error || data.detail)) || response.statusText;
    const err = new Error(typeof message === "string" ? message : JSON.stringify(message));
    err.status = response.status;
    err.code = data && data.code;
    err.params = (data && data.params) || {};
    throw err;
  }
  return data;
}

const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
function cardKey(card, bySuit) {
  if (card === "JK") return [9, 99];
  const suit = "CDHS".indexOf(card.slice(-1)), rank = RANK_ORDER.indexOf(card.slice(0, -1));
  return bySuit ? [suit, rank] : [rank, suit];
}
function compareCards(a, b, bySuit) {
  const ka = cardKey(a, bySuit), kb = cardKey(b, bySuit);
  return ka[0] - kb[0] || ka[1] - kb[1];
}

// A seat's name as its own person reads it: "Ann (you)", or just "You" where the person
// kept the start page's default name, which already says so.
function youLabel(name) {
  return name === t("index.names").split(",")[0] ? name : t("seat.you", { name });
}
