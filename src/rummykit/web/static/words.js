// Actions in words, in the page's language: what the log, the seats and the replay say.

// An action in words, for the log ("you" or "other", with {name}) or as a thing to do
// ("do"), or short ("short", for a seat), with the cards a pile draw took (everyone saw
// them).
export function phrase(text, taken, who, name = "") {
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
