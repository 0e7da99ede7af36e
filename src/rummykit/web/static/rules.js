// The rules page, generated from the engine's rules data (GET /api/presets).
"use strict";

function show(value) {
  if (value === null) return t("value.none");
  if (Array.isArray(value)) return new Set(value).size === 1 ? String(value[0]) : t("value.by_players", { values: value.join(" / ") });
  return String(value);
}

async function init() {
  const data = await api("/api/presets");
  const names = Object.keys(data.presets);
  const box = document.getElementById("presets");
  for (const name of names) {
    box.append(el("p", {}, el("strong", { text: name }), ` — ${t(`preset.${name}`)}`));
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
