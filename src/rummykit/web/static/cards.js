// Playing-card faces, drawn by the project as SVG: number cards with their pips in the
// classic layout, a court figure for J Q K, a joker, a joker standing for a card, and a
// patterned back. Each card is an <svg viewBox="0 0 250 350"> with no fixed size (its
// container sizes it with CSS); the corner index (rank above suit, top left, and turned
// round bottom right) is large and bold so that a card stays readable at a phone's
// 34x48 px. The shapes (suits, court figures, joker, back) are <symbol>s defined once
// per document and drawn with <use>, so a hand of 14 cards is a few hundred nodes.
//
// Names and letters come from i18n.js, a classic script whose functions are globals
// (t, cardName, rankLetter); the page loads it before this module, as every page does.
// Every node is built with createElementNS: never from a string (the CSP forbids it).

const NS = "http://www.w3.org/2000/svg";
const DEFS_ID = "rk-card-defs";
const W = 250, H = 350, MID = 175;
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["C", "D", "H", "S"];
const COLOURS = { C: "#161616", D: "#c0262d", H: "#c0262d", S: "#161616" };
const FOUR_COLOURS = { C: "#157a3a", D: "#1d4fb8", H: "#c0262d", S: "#161616" };
const JOKER = "#6a2fb3", GOLD = "#e0ad2f", BLUE = "#2b4c9b", SKIN = "#f7dcc0", LINE = "#2a2a2a";
const PAPER = "#fdfdf8", EDGE = "#9a9a92", TINT = "#efe5fb";
const INDEX_FONT = "'Liberation Sans Narrow', 'Arial Narrow', 'Roboto Condensed', 'DejaVu Sans Condensed', Arial, sans-serif";

// Where the pips go: columns and rows of the classic layouts (a pip below the middle
// is turned round).
const L = 95, C = 125, R = 155;
const T = 56, B = H - T, Q1 = (T + MID) / 2, Q3 = (MID + B) / 2;
const ROWS4 = [T, T + (B - T) / 3, B - (B - T) / 3, B];
const PIPS = {
  2: [[C, T], [C, B]],
  3: [[C, T], [C, MID], [C, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [C, MID], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, MID], [R, MID], [L, B], [R, B]],
  7: [[L, T], [R, T], [C, Q1], [L, MID], [R, MID], [L, B], [R, B]],
  8: [[L, T], [R, T], [C, Q1], [L, MID], [R, MID], [C, Q3], [L, B], [R, B]],
  9: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, MID]],
  10: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, (ROWS4[0] + ROWS4[1]) / 2], [C, (ROWS4[2] + ROWS4[3]) / 2]],
};
const PIP = 36;    // a pip's size in card units
const ACE = 118;   // the ace's one pip

function node(tag, attrs = {}, ...children) {
  const element = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) element.setAttribute(key, String(value));
  }
  element.append(...children);
  return element;
}

function use(id, attrs = {}) {
  return node("use", { href: `#${id}`, ...attrs });
}

// -- texts, from i18n.js's globals when the page has them --------------------------------

function t(key, params, fallback) {
  const translate = globalThis.t;
  return typeof translate === "function" ? translate(key, params) : fallback;
}

function nameOf(card) {
  const name = globalThis.cardName;
  return typeof name === "function" ? name(card) : card;
}

function letterOf(rank) {
  const letter = globalThis.rankLetter;
  return typeof letter === "function" ? letter(rank) : rank;
}

// -- the shared shapes -------------------------------------------------------------------

const SUIT_SHAPES = {
  H: () => [node("path", { d: "M50 95C36 78 4 58 4 30 4 14 16 4 29 4c10 0 17 6 21 15C54 10 61 4 71 4c13 0 25 10 25 26 0 28-32 48-46 65z" })],
  D: () => [node("path", { d: "M50 2C60 20 74 36 90 50 74 64 60 80 50 98 40 80 26 64 10 50 26 36 40 20 50 2z" })],
  S: () => [node("path", { d: "M50 3C38 22 5 38 5 62c0 14 10 23 22 23 9 0 16-4 20-11-1 11-5 17-13 23h32c-8-6-12-12-13-23 4 7 11 11 20 11 12 0 22-9 22-23C95 38 62 22 50 3z" })],
  C: () => [
    node("circle", { cx: 50, cy: 27, r: 21 }), node("circle", { cx: 26, cy: 59, r: 21 }),
    node("circle", { cx: 74, cy: 59, r: 21 }), node("circle", { cx: 50, cy: 52, r: 12 }),
    node("path", { d: "M47 56c0 18-4 30-14 41h34C57 86 53 74 53 56z" }),
  ],
};

// The top half of a court figure, in card units (the lower half is the same turned
// round, as on a double-headed card). Unfilled parts take the suit's colour from <use>.
function courtHalf(rank) {
  const parts = [];
  const side = node("path", { d: "M88 175V112l14 -8v71zM162 175V112l-14 -8v71z", fill: BLUE });
  const robe = node("path", { d: "M94 175l4-60q27-18 54 0l4 60z" });
  const collar = node("path", { d: "M103 112q22 16 44 0l-4-9q-18 10-36 0z", fill: GOLD, stroke: LINE, "stroke-width": 2 });
  const stripe = node("path", { d: "M119 118h12v57h-12z", fill: GOLD, stroke: LINE, "stroke-width": 2 });
  const face = node("circle", { cx: 125, cy: 82, r: 19, fill: SKIN, stroke: LINE, "stroke-width": 2.5 });
  const eyes = node("path", { d: "M117 80h4M129 80h4M121 92q4 3 8 0", stroke: LINE, "stroke-width": 2.5, fill: "none", "stroke-linecap": "round" });
  parts.push(side, robe, collar, stripe);
  if (rank === "K") {
    parts.push(node("path", { d: "M108 96q17 26 34 0l-3 14q-14 12-28 0z", fill: "#8a5a2b", stroke: LINE, "stroke-width": 2 }));  // beard
    parts.push(face, eyes);
    parts.push(node("path", { d: "M104 66V36l10 12 11-18 11 18 10-12v30z", fill: GOLD, stroke: LINE, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    parts.push(node("path", { d: "M165 175V96", stroke: GOLD, "stroke-width": 5 }), node("circle", { cx: 165, cy: 92, r: 6, fill: GOLD, stroke: LINE, "stroke-width": 2 }));
  } else if (rank === "Q") {
    parts.push(node("path", { d: "M104 100q-8-30 21-38 29 8 21 38l-5 8q4-28-16-30-20 2-16 30z", fill: "#7a4a1e", stroke: LINE, "stroke-width": 2 }));  // hair
    parts.push(face, eyes);
    parts.push(node("path", { d: "M108 64q17-10 34 0l4-18-10 8-11-14-11 14-10-8z", fill: GOLD, stroke: LINE, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    parts.push(node("circle", { cx: 91, cy: 134, r: 8, fill: "#d94f8a", stroke: LINE, "stroke-width": 2 }), node("path", { d: "M91 142v33", stroke: "#2f7a3a", "stroke-width": 4 }));
  } else {
    parts.push(face, eyes);
    parts.push(node("path", { d: "M103 70q-4-26 22-28 26 2 22 28z", stroke: LINE, "stroke-width": 2.5 }));  // cap, in the suit's colour
    parts.push(node("path", { d: "M140 50q18-22 24-8-10 2-20 14z", fill: GOLD, stroke: LINE, "stroke-width": 2 }));  // feather
    parts.push(node("path", { d: "M163 175V98M157 98l6-14 6 14z", stroke: LINE, "stroke-width": 3, fill: "#bfc4cc" }));  // halberd
  }
  return parts;
}

// The joker's word, written down its corners: "JOKER", "ДЖОКЕР", "JOLLY".
function jokerWord() {
  const known = typeof globalThis.has === "function" && globalThis.has("card.joker");
  return [...(known ? t("card.joker", {}, "joker") : "joker").toUpperCase()];
}

function jokerSymbol() {
  const word = jokerWord(), step = Math.min(34, 170 / Math.max(1, word.length - 1));
  const letters = node("text", { x: 26, y: 112, "font-family": INDEX_FONT, "font-weight": 700, "font-size": 34, "text-anchor": "middle", fill: JOKER },
    ...word.map((ch, i) => node("tspan", { x: 26, dy: i ? step : 0 }, ch)));
  const corner = [node("use", { href: "#rk-star", x: 4, y: 14, width: 60, height: 60, fill: JOKER }), letters];
  const hat = [
    node("path", { d: "M125 178L78 104q28 6 47 44z", fill: "#c0262d", stroke: LINE, "stroke-width": 3, "stroke-linejoin": "round" }),
    node("path", { d: "M125 178l47-74q-28 6-47 44z", fill: GOLD, stroke: LINE, "stroke-width": 3, "stroke-linejoin": "round" }),
    node("path", { d: "M125 150l-4-62q4-6 8 0z", fill: JOKER, stroke: LINE, "stroke-width": 3, "stroke-linejoin": "round" }),
    node("circle", { cx: 78, cy: 104, r: 8, fill: GOLD, stroke: LINE, "stroke-width": 2.5 }),
    node("circle", { cx: 172, cy: 104, r: 8, fill: "#c0262d", stroke: LINE, "stroke-width": 2.5 }),
    node("circle", { cx: 125, cy: 86, r: 8, fill: GOLD, stroke: LINE, "stroke-width": 2.5 }),
    node("path", { d: "M96 178h58l-6 18H102z", fill: JOKER, stroke: LINE, "stroke-width": 3 }),
    node("circle", { cx: 125, cy: 222, r: 26, fill: SKIN, stroke: LINE, "stroke-width": 3 }),
    node("path", { d: "M114 216h5M131 216h5M111 230q14 14 28 0", stroke: LINE, "stroke-width": 3, fill: "none", "stroke-linecap": "round" }),
    node("path", { d: "M92 262l16-12 17 14 17-14 16 12-14 10-19-8-19 8z", fill: GOLD, stroke: LINE, "stroke-width": 2.5 }),
  ];
  return [
    node("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 16, fill: PAPER, stroke: JOKER, "stroke-width": 3 }),
    ...corner, node("g", { transform: `rotate(180 ${W / 2} ${MID})` }, ...corner.map((n) => n.cloneNode(true))),
    ...hat,
  ];
}

function backSymbol() {
  const lattice = node("pattern", { id: "rk-lattice", width: 28, height: 28, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45 125 175)" },
    node("rect", { width: 28, height: 28, fill: "#154a2e" }),
    node("path", { d: "M0 0H28M0 0V28", stroke: "#2f8a58", "stroke-width": 5 }),
    node("circle", { cx: 14, cy: 14, r: 3.5, fill: "#c9a23c" }));
  return [lattice, node("symbol", { id: "rk-back", viewBox: `0 0 ${W} ${H}` },
    node("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 16, fill: PAPER, stroke: EDGE, "stroke-width": 3 }),
    node("rect", { x: 16, y: 16, width: W - 32, height: H - 32, rx: 8, fill: "url(#rk-lattice)", stroke: "#c9a23c", "stroke-width": 4 }),
    node("rect", { x: 28, y: 28, width: W - 56, height: H - 56, rx: 4, fill: "none", stroke: "#c9a23c", "stroke-width": 2 }),
    node("path", { d: `M125 120L170 ${MID}L125 230L80 ${MID}z`, fill: "#1d5c3a", stroke: "#c9a23c", "stroke-width": 4 }),
    node("use", { href: "#rk-suit-S", x: 107, y: 157, width: 36, height: 36, fill: "#c9a23c" }))];
}

// The shapes, once per document (again if a page has replaced its body).
function defs() {
  if (document.getElementById(DEFS_ID)) return;
  const symbols = [];
  for (const suit of SUITS) symbols.push(node("symbol", { id: `rk-suit-${suit}`, viewBox: "0 0 100 100" }, ...SUIT_SHAPES[suit]()));
  for (const rank of ["J", "Q", "K"]) symbols.push(node("symbol", { id: `rk-court-${rank}`, viewBox: `0 0 ${W} ${H}` }, ...courtHalf(rank)));
  symbols.push(node("symbol", { id: "rk-star", viewBox: "0 0 100 100" },
    node("path", { d: "M50 4l13 30 33 3-25 22 8 33-29-17-29 17 8-33L4 37l33-3z" })));
  symbols.push(node("symbol", { id: "rk-joker", viewBox: `0 0 ${W} ${H}` }, ...jokerSymbol()));
  symbols.push(node("symbol", { id: "rk-joker-badge", viewBox: "0 0 100 100" },
    node("circle", { cx: 50, cy: 50, r: 46, fill: JOKER, stroke: PAPER, "stroke-width": 6 }),
    node("use", { href: "#rk-star", x: 18, y: 16, width: 64, height: 64, fill: "#ffd84a" })));
  symbols.push(...backSymbol());
  const sprite = node("svg", { id: DEFS_ID, width: 0, height: 0, "aria-hidden": "true", focusable: "false" }, node("defs", {}, ...symbols));
  sprite.style.position = "absolute";
  sprite.style.overflow = "hidden";
  (document.body || document.documentElement).append(sprite);
}

// -- the cards ---------------------------------------------------------------------------

function parse(card) {
  const text = String(card);
  const rank = text.slice(0, -1), suit = text.slice(-1);
  if (!RANKS.includes(rank) || !SUITS.includes(suit)) throw new Error(`not a card: ${JSON.stringify(card)}`);
  return { rank, suit };
}

function frame(label, kind) {
  defs();
  return node("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: `card-face ${kind}` });
}

function index(rank, suit, colour) {
  const letter = letterOf(rank);
  const text = node("text", { x: 40, y: 90, "font-family": INDEX_FONT, "font-weight": 700, "font-size": 96,
    "text-anchor": "middle", "letter-spacing": -2 }, letter);
  if (letter.length > 1) { text.setAttribute("textLength", 70); text.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  return node("g", { class: "index", fill: colour }, text, use(`rk-suit-${suit}`, { class: "index-suit", x: 14, y: 98, width: 52, height: 52 }));
}

// The face of ``card`` ("7H", "10S", "QD", "AC", "JK"): an <svg role="img"> named in the
// page's language. ``fourColour``: clubs green, diamonds blue (hearts red, spades black).
export function cardFace(card, { fourColour = false } = {}) {
  if (card === "JK") {
    const svg = frame(nameOf("JK"), "joker");
    svg.append(use("rk-joker", { width: W, height: H }));
    return svg;
  }
  const { rank, suit } = parse(card);
  const colour = (fourColour ? FOUR_COLOURS : COLOURS)[suit];
  const svg = frame(nameOf(card), "face");
  svg.dataset.card = card;
  svg.append(node("rect", { class: "paper", x: 2, y: 2, width: W - 4, height: H - 4, rx: 16, fill: PAPER, stroke: EDGE, "stroke-width": 3 }));
  const corner = index(rank, suit, colour), turned = index(rank, suit, colour);
  turned.setAttribute("transform", `rotate(180 ${W / 2} ${MID})`);
  svg.append(corner, turned);
  if (rank === "J" || rank === "Q" || rank === "K") {
    svg.append(node("g", { class: "court", "data-figure": rank, fill: colour },
      node("rect", { x: 82, y: 20, width: 86, height: H - 40, rx: 6, fill: "#fbf1d6", stroke: LINE, "stroke-width": 3 }),
      use(`rk-court-${rank}`, { width: W, height: H }),
      use(`rk-court-${rank}`, { width: W, height: H, transform: `rotate(180 ${W / 2} ${MID})` }),
      node("path", { d: `M82 ${MID}H168`, stroke: LINE, "stroke-width": 3 }),
      use(`rk-suit-${suit}`, { x: 86, y: 24, width: 24, height: 24 }),
      use(`rk-suit-${suit}`, { x: 86, y: 24, width: 24, height: 24, transform: `rotate(180 ${W / 2} ${MID})` })));
  } else if (rank === "A") {
    svg.append(use(`rk-suit-${suit}`, { class: "pip", x: (W - ACE) / 2, y: MID - ACE / 2, width: ACE, height: ACE, fill: colour }));
  } else {
    const pips = node("g", { fill: colour });
    for (const [x, y] of PIPS[rank]) {
      pips.append(use(`rk-suit-${suit}`, { class: "pip", x: x - PIP / 2, y: y - PIP / 2, width: PIP, height: PIP,
        transform: y > MID ? `rotate(180 ${x} ${y})` : null }));
    }
    svg.append(pips);
  }
  return svg;
}

// A joker on the table, standing for ``card``: that card's face, tinted, with a joker
// badge in its free corner, named "joker as seven of hearts".
export function jokerAs(card, options = {}) {
  parse(card);
  const svg = cardFace(card, options);
  svg.setAttribute("aria-label", t("meld.joker", { card: nameOf(card) }, `joker as ${card}`));
  svg.setAttribute("class", "card-face face joker-as");
  svg.dataset.joker = "1";
  const paper = svg.querySelector(".paper");
  paper.setAttribute("fill", TINT);
  paper.setAttribute("stroke", JOKER);
  paper.setAttribute("stroke-width", 8);
  svg.append(use("rk-joker-badge", { class: "joker-badge", x: 8, y: H - 82, width: 74, height: 74 }));
  return svg;
}

// The back of a card: a lattice in the table's greens inside a gold frame.
export function cardBack() {
  const svg = frame(t("card.back", {}, "card back"), "back");
  svg.append(use("rk-back", { width: W, height: H }));
  return svg;
}
