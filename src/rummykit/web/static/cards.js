// STAND-IN card faces: a rounded rectangle with the rank and the suit as SVG text, with
// the interface of the real module (cardFace, cardBack, jokerAs), so that the table can be
// laid out. The real faces replace this file.
const NS = "http://www.w3.org/2000/svg";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const FOUR = { C: "#1f7a1f", D: "#1d4fb8", H: "#c0262d", S: "#1b1b1b" };

function node(tag, attrs = {}, text = null) {
  const out = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) out.setAttribute(name, String(value));
  if (text !== null) out.textContent = text;
  return out;
}

function svg(label) {
  const out = node("svg", { viewBox: "0 0 250 350", role: "img", "aria-label": label, class: "face" });
  out.append(node("rect", { x: 2, y: 2, width: 246, height: 346, rx: 18, fill: "#fdfdf8", stroke: "#777", "stroke-width": 4 }));
  return out;
}

function nameOf(card) {
  if (card === "JK") return "Joker";
  return `${card.slice(0, -1)}${SUITS[card.slice(-1)]}`;
}

export function cardFace(card, { fourColour = false } = {}) {
  const out = svg(nameOf(card));
  if (card === "JK") {
    out.append(node("text", { x: 20, y: 70, "font-size": 60, "font-weight": 700, fill: "#6a2fb3" }, "★"),
      node("text", { x: 125, y: 210, "font-size": 70, "text-anchor": "middle", "font-weight": 700, fill: "#6a2fb3" }, "JK"));
    return out;
  }
  const suit = card.slice(-1), rank = card.slice(0, -1);
  const colour = fourColour ? FOUR[suit] : (suit === "H" || suit === "D" ? "#c0262d" : "#1b1b1b");
  out.append(node("text", { x: 18, y: 80, "font-size": 78, "font-weight": 700, fill: colour, "letter-spacing": -6 }, rank),
    node("text", { x: 22, y: 150, "font-size": 64, fill: colour }, SUITS[suit]),
    node("text", { x: 150, y: 290, "font-size": 150, "text-anchor": "middle", fill: colour }, SUITS[suit]));
  return out;
}

export function cardBack() {
  const out = svg("Card back");
  out.append(node("rect", { x: 18, y: 18, width: 214, height: 314, rx: 10, fill: "#2b4c9b" }));
  return out;
}

export function jokerAs(card) {
  const out = cardFace(card);
  out.setAttribute("aria-label", `Joker as ${nameOf(card)}`);
  out.append(node("text", { x: 232, y: 60, "font-size": 48, "text-anchor": "end", fill: "#6a2fb3" }, "★"));
  return out;
}
