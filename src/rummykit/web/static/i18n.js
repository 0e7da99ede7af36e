// Languages: every text of the pages comes from a message catalog (static/i18n/LANG.json).
// The language is the one chosen with the switch in the page header (kept in this
// browser), else the browser's own, else English. Card names and the letters on the
// cards follow each language's convention.
"use strict";

const LANGS = { en: "English", ru: "Русский", it: "Italiano" };
const RANK_LETTERS = { ru: { A: "Т", J: "В", Q: "Д", K: "К" } };

function pickLanguage() {
  try {
    const saved = localStorage.getItem("rummykit/lang");
    if (saved && LANGS[saved]) return saved;
  } catch (e) { /* storage off */ }
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const short = String(wanted).slice(0, 2).toLowerCase();
    if (LANGS[short]) return short;
  }
  return "en";
}

const LANG = pickLanguage();
let CATALOG = {};
const missingKeys = new Set();  // keys a page asked for that the catalog lacks (tests read it)
const plurals = new Intl.PluralRules(LANG);

// The text of ``key`` with {name} placeholders filled from ``params``. A text that counts
// something has plural forms in the catalog (KEY.one, KEY.few, KEY.many, KEY.other, as the
// language has them): the form is the one Intl.PluralRules picks for the count, which is
// params.n, or else the last number the text shows ("{min} to {max} cards": max).
function t(key, params = {}) {
  const wanted = pluralKey(key, params);
  let text = CATALOG[wanted];
  if (text === undefined) { missingKeys.add(key); text = key; }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params[name] !== undefined ? String(params[name]) : whole));
}

function countOf(value) {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  return typeof value === "string" && /^[+-]?[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : null;
}

function pluralKey(key, params) {
  const other = CATALOG[`${key}.other`];
  if (CATALOG[key] !== undefined || other === undefined) return key;
  let count = countOf(params.n);
  if (params.n === undefined) {
    for (const [, name] of other.matchAll(/\{(\w+)\}/g)) {
      if (countOf(params[name]) !== null) count = countOf(params[name]);
    }
  }
  const form = count === null ? null : `${key}.${plurals.select(count)}`;
  return form !== null && CATALOG[form] !== undefined ? form : `${key}.other`;
}

// A text that depends on a number: "1 card", "2 cards".
function tn(key, n, params = {}) { return t(key, { ...params, n }); }

// Whether the catalog has ``key`` (for texts the server may or may not have a code for).
function has(key) { return CATALOG[key] !== undefined || CATALOG[`${key}.other`] !== undefined; }

// The words of an error the server answered (``api``): in the page's language where its
// refusal code has them, else the server's own.
function refusalText(err) {
  return err.code && has(`refusal.${err.code}`) ? t(`refusal.${err.code}`, err.params || {}) : err.message;
}

// Fill every element marked with data-i18n (its text) or data-i18n-ATTR (an attribute).
function translatePage(root = document) {
  for (const node of root.querySelectorAll("*")) {
    for (const attr of node.getAttributeNames()) {
      if (!attr.startsWith("data-i18n")) continue;
      const key = node.getAttribute(attr);
      if (attr === "data-i18n") node.textContent = t(key);
      else node.setAttribute(attr.slice("data-i18n-".length), t(key));
    }
  }
}

function languageSwitch() {
  const nav = document.querySelector("header.bar");
  if (!nav || document.getElementById("lang")) return;
  const select = el("select", { id: "lang", "aria-label": t("nav.language") },
    ...Object.entries(LANGS).map(([code, name]) => el("option", { value: code, selected: code === LANG, lang: code }, name)));
  select.addEventListener("change", () => {
    try { localStorage.setItem("rummykit/lang", select.value); } catch (e) { /* storage off */ }
    window.location.reload();
  });
  nav.append(el("label", { class: "lang" }, select));
}

const i18nReady = (async () => {
  const response = await fetch(`/static/i18n/${LANG}.json`);
  CATALOG = await response.json();
  document.documentElement.lang = LANG;
  translatePage();
  languageSwitch();
})();

// Cards in words and in running text, in the page's language.
function rankLetter(rank) { return (RANK_LETTERS[LANG] || {})[rank] || rank; }
function cardName(card) {
  if (card === "JK") return t("card.joker");
  return t("card.name", { rank: t(`rank.${card.slice(0, -1)}`), suit: t(`suit.${card.slice(-1)}`) });
}
function cardText(card) {
  return card === "JK" ? t("card.joker") : rankLetter(card.slice(0, -1)) + SUITS[card.slice(-1)];
}

// A bot level in words ("master(think=0.3)" is a master).
function levelName(level) {
  const base = String(level || "").split("(")[0];
  return has(`level.${base}`) ? t(`level.${base}`) : base;
}
