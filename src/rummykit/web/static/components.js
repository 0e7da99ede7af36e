// The pieces both the table and the replay draw: a card, a card back, a meld, a row of
// cards that always fits its box (the hand), a seat. Each is a plain DOM node; the faces
// come from cards.js.
import { cardFace, cardBack, jokerAs } from "./cards.js";

function fourColour() {
  try { return localStorage.getItem("rummykit.four") === "on"; } catch (e) { return false; }
}

// A face-up card: named for screen readers (the face itself is a picture of it).
export function cardEl(card, { small = false, stands = null } = {}) {
  const node = el("span", { class: "card" + (small ? " small" : ""), "data-card": card,
    title: cardName(card), "aria-label": cardName(card), role: "img" });
  if (card === "JK") node.classList.add("joker");
  else if (card.endsWith("H") || card.endsWith("D")) node.classList.add("red");
  const face = card === "JK" && stands && stands !== "JK" ? jokerAs(stands) : cardFace(card, { fourColour: fourColour() });
  face.setAttribute("aria-hidden", "true");
  face.removeAttribute("role");
  face.classList.add("face");
  node.append(face);
  return node;
}

export function backEl({ small = false } = {}) {
  const node = el("span", { class: "card back" + (small ? " small" : ""), "aria-hidden": "true" });
  const back = cardBack();
  back.setAttribute("aria-hidden", "true");
  back.removeAttribute("role");
  back.classList.add("face");
  node.append(back);
  return node;
}

// A meld: its number and its cards overlapping as on a table; a joker shows the card it
// stands for; a card laid off by another player than the meld's owner says by whom.
export function meldEl(meld, { names, label = null } = {}) {
  const node = el("span", { class: "meld", "data-meld": meld.number, "data-owner": meld.owner,
    "aria-label": label || t("meld.aria", { n: meld.number, name: names[meld.owner], cards: meld.cards.map(cardName).join(", ") }) },
    el("span", { class: "num", text: meld.number, "aria-hidden": "true" }));
  const cards = el("span", { class: "meld-cards" });
  meld.cards.forEach((c, k) => {
    const stands = meld.represents ? meld.represents[k] : null;
    const card = cardEl(c, { small: true, stands });
    if (c === "JK" && stands && stands !== "JK") {  // the card the joker stands for, in sight
      card.title = t("meld.joker", { card: cardName(stands) });
      card.setAttribute("aria-label", card.title);
      card.append(el("span", { class: "stands", text: "=" + cardText(stands) }));
    }
    const by = meld.laid_by ? meld.laid_by[k] : undefined;
    if (by !== undefined && by !== meld.owner) {  // a lay-off by someone else: whose
      card.append(el("span", { class: "by", text: initials(names[by]), title: t("meld.laid_by", { name: names[by] }) }));
      card.setAttribute("aria-label", `${card.getAttribute("aria-label")}, ${t("meld.laid_by", { name: names[by] })}`);
    }
    cards.append(card);
  });
  node.append(cards);
  return node;
}

export function initials(name) {
  return [...name.trim()].slice(0, 2).join("");
}

// The melds grouped by who laid them: one group a player, each with its name.
export function meldGroups(melds, names, make) {
  const out = [];
  const owners = [...new Set(melds.map((m) => m.owner))];
  for (const owner of owners) {
    const group = el("div", { class: "meld-group", "data-owner": owner },
      el("div", { class: "owner", text: t("meld.owner", { name: names[owner] }) }));
    for (const meld of melds.filter((m) => m.owner === owner)) group.append(make(meld));
    out.push(group);
  }
  return out;
}

// Cards in a row that always fits its box: they overlap as much as they must (a hand
// held in a fan), and shrink only when even that is not enough.
export function fitRow(box, { min = 0.3 } = {}) {
  const cards = [...box.querySelectorAll(":scope > .card")];
  for (const card of cards) card.style.marginLeft = "";
  if (cards.length < 2) return;
  const width = box.clientWidth - 4;
  const cardWidth = cards[0].getBoundingClientRect().width;
  if (!width || !cardWidth) return;
  const gap = 4;
  let step = Math.min(cardWidth + gap, (width - cardWidth) / (cards.length - 1));
  step = Math.max(step, cardWidth * min * 0.5);
  cards.slice(1).forEach((card) => { card.style.marginLeft = `${step - cardWidth}px`; });
}

// The table's cards shrink, step by step, until every meld fits the box; a box that is
// still too small at the smallest size scrolls inside (the page itself never does).
export function fitMelds(box, sizes = [4.2, 3.8, 3.4, 3, 2.7, 2.4, 2.1, 1.9, 1.7, 1.5, 1.35, 1.2, 1.1, 1]) {
  box.classList.remove("crowded", "tight");
  const fits = () => box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1;
  for (const size of sizes) {
    box.style.setProperty("--meld-w", `${size}rem`);
    if (fits()) return size;
    // Small cards: the owners' names go beside their melds, not above them.
    if (size <= 2.4) box.classList.add("tight");
  }
  box.classList.add("crowded");
  return sizes[sizes.length - 1];
}

// A seat at the table: its name line (a dot for a person who is here), then what the page
// says of it (its cards, score, last move); whose turn it is stands out.
export function seatEl(i, { turn = false, label = null, dot = null, name = "" } = {}, ...children) {
  return el("div", { class: "seat" + (turn ? " turn" : ""), "data-seat": i, "aria-label": label },
    el("div", { class: "name" }, dot, name), ...children);
}
