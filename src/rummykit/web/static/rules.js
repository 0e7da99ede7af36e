// The rules page, generated from the engine's rules data (GET /api/presets).
"use strict";

function show(value) {
  if (value === null) return t("value.none");
  if (Array.isArray(value)) return new Set(value).size === 1 ? String(value[0]) : t("value.by_players", { values: value.join(" / ") });
  return String(value);
}

// What is particular to a rule set, in sentences built from its options.
function teach(o) {
  const lines = [];
  const sizes = o.hand_size;
  lines.push(new Set(sizes).size === 1 ? t("learn.deal_same", { n: sizes[0] }) : t("learn.deal", { sizes: sizes.join(" / ") }));
  if (o.decks > 1 || o.jokers > 0) lines.push(t("learn.decks", { decks: o.decks, jokers: o.jokers, points: o.joker_points }));
  lines.push(t(`learn.meld_${o.melds_per_turn}`));
  lines.push(t(`learn.aces.${o.aces}`, { points: o.ace_points }));
  if (o.draw_pile === "any") lines.push(t("learn.draw.any"));
  lines.push(t(`learn.stock.${o.stock_out}`, { n: o.turn_overs, refills: o.refills.join(" / ") }));
  if (o.opening) lines.push(t("learn.opening", { n: o.opening }));
  lines.push(t(`learn.scoring.${o.scoring}`));
  if (o.rummy_multiplier > 1) lines.push(t("learn.rummy", { times: o.rummy_multiplier }));
  const target = o.target === null ? null : [...new Set(o.target)].join(" / ");
  if (o.match_end === "target" && target !== null) lines.push(t(o.target_strict ? "learn.end.target_strict" : "learn.end.target", { target }));
  else if (o.match_end !== "target") lines.push(t(`learn.end.${o.match_end}`, { target }));
  if (o.scoring === "melded") lines.push(t("learn.settle"));
  return lines;
}

async function init() {
  const data = await api("/api/presets");
  const names = Object.keys(data.presets);
  const box = document.getElementById("presets");
  for (const name of names) {
    const options = data.presets[name].options;
    const list = el("ul", {}, ...teach(options).map((line) => el("li", { text: line })));
    box.append(el("section", { class: "preset", "data-preset": name },
      el("h3", {}, t(`preset.${name}`), " ", el("code", { text: name })), list));
  }
  const head = document.querySelector("#options thead");
  head.append(el("tr", {}, el("th", { text: t("th.option") }), el("th", { text: t("th.changes") }),
    ...names.map((n) => el("th", { text: n }))));
  const body = document.querySelector("#options tbody");
  for (const option of Object.keys(data.help)) {
    body.append(el("tr", { "data-option": option }, el("td", {}, el("code", { text: option })), el("td", { text: t(`option.${option}`) }),
      ...names.map((n) => el("td", { class: "value", text: show(data.presets[n].options[option]) }))));
  }
}

i18nReady.then(init);
