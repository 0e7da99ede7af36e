// The statistics page: per player (person or bot level), preset and player count.
"use strict";

// The lines come a page at a time; "more" asks for the next page.
async function load(offset = 0) {
  const preset = document.getElementById("preset").value;
  const players = document.getElementById("players").value;
  const query = new URLSearchParams();
  if (preset) query.set("preset", preset);
  if (players) query.set("players", players);
  if (offset) query.set("offset", String(offset));
  const data = await api(`/api/stats?${query}`);
  const body = document.querySelector("#stats tbody");
  if (!offset) body.replaceChildren();
  const more = document.getElementById("more");
  const shown = offset + data.stats.length;
  more.classList.toggle("hidden", shown >= data.total);
  more.onclick = () => load(shown);
  if (!data.stats.length && !offset) body.append(el("tr", {}, el("td", { colspan: 11, text: t("stats.none") })));
  for (const s of data.stats) {
    body.append(el("tr", {},
      el("td", { text: s.kind === "bot" ? t("stats.bot", { name: levelName(s.player) }) : s.player },
        s.player_id ? el("span", { class: "muted player-id", title: t("stats.player_id"), text: ` #${s.player_id}` }) : null),
      el("td", { text: s.preset }),
      el("td", { text: s.players }), el("td", { text: s.matches }), el("td", { text: s.matches_won }),
      el("td", { text: s.win_pct.toFixed(1) }), el("td", { text: `${s.deals_won}/${s.deals}` }),
      el("td", { text: s.points_per_deal.toFixed(2) }), el("td", { text: s.rummies }),
      el("td", { text: s.best_score === null ? "–" : s.best_score }),
      el("td", { text: s.accuracy === null ? "–" : t("stats.accuracy", { accuracy: s.accuracy.toFixed(1), n: s.reviewed }) })));
  }
}

async function init() {
  const data = await api("/api/presets");
  const select = document.getElementById("preset");
  for (const name of Object.keys(data.presets)) select.append(el("option", { value: name }, name));
  select.addEventListener("change", () => load());
  document.getElementById("players").addEventListener("change", () => load());
  await load();
}

i18nReady.then(init);
