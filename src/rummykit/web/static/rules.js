// The rules page, generated from the engine's rules data (GET /api/presets).
"use strict";

function show(value) {
  if (value === null) return "none";
  if (Array.isArray(value)) return new Set(value).size === 1 ? String(value[0]) : `${value.join(" / ")} (2–6 players)`;
  return String(value);
}

async function init() {
  const data = await api("/api/presets");
  const names = Object.keys(data.presets);
  const box = document.getElementById("presets");
  for (const name of names) {
    box.append(el("p", {}, el("strong", { text: name }), ` — ${data.presets[name].source}`));
  }
  const head = document.querySelector("#options thead");
  head.append(el("tr", {}, el("th", { text: "option" }), el("th", { text: "what it changes" }),
    ...names.map((n) => el("th", { text: n }))));
  const body = document.querySelector("#options tbody");
  for (const [option, help] of Object.entries(data.help)) {
    body.append(el("tr", { "data-option": option }, el("td", {}, el("code", { text: option })), el("td", { text: help }),
      ...names.map((n) => el("td", { text: show(data.presets[n].options[option]) }))));
  }
}

init();
