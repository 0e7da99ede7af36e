// The statistics page: per player (person or bot level), preset and player count.
"use strict";

// The lines come a page at a time; "more" asks for the next page.
let statsAsked = 0;  // (as for the leaderboard: only the latest answer is shown)
async function load(offset = 0) {
  const asked = ++statsAsked;
  const preset = document.getElementById("preset").value;
  const players = document.getElementById("players").value;
  const query = new URLSearchParams();
  if (preset) query.set("preset", preset);
  if (players) query.set("players", players);
  if (offset) query.set("offset", String(offset));
  const data = await api(`/api/stats?${query}`);
  if (asked !== statsAsked) return;
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

// The leaderboard of one preset and player-count group: people under the name they chose,
// bots marked; "?" after a provisional rating.
// The leaderboard of the chosen rules and players. Only the latest choice's answer is
// shown: an earlier request that answers later (the page's first one, say) is dropped.
let boardAsked = 0;
async function loadBoard() {
  const preset = document.getElementById("board-preset").value;
  const group = document.getElementById("board-group").value;
  const asked = ++boardAsked;
  const data = await api(`/api/ratings?${new URLSearchParams({ preset, group })}`);
  if (asked !== boardAsked) return;
  const body = document.querySelector("#board tbody");
  body.replaceChildren();
  if (!data.lines.length) body.append(el("tr", {}, el("td", { colspan: 4, text: t("board.none") })));
  for (const line of data.lines) {
    body.append(el("tr", { "data-kind": line.kind },
      el("td", { text: line.place }),
      el("td", { text: line.kind === "bot" ? t("stats.bot", { name: levelName(line.name) }) : line.name }),
      el("td", { text: `${line.rating}${line.provisional ? "?" : ""}` }),
      el("td", { text: line.matches })));
  }
}

// A rating's history as a small line: the rating after each rated match.
function historyChart(history) {
  const NS = "http://www.w3.org/2000/svg", W = 160, H = 36;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "rating-history");
  svg.setAttribute("role", "img");
  const values = history.map((h) => h[1]);
  svg.setAttribute("aria-label", t("board.history", { values: values.join(", ") }));
  const low = Math.min(...values), high = Math.max(...values), span = Math.max(high - low, 1);
  const x = (i) => values.length === 1 ? W / 2 : 2 + (i * (W - 4)) / (values.length - 1);
  const y = (v) => H - 3 - ((v - low) * (H - 6)) / span;
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.append(line);
  const dot = document.createElementNS(NS, "circle");
  dot.setAttribute("cx", x(values.length - 1).toFixed(1));
  dot.setAttribute("cy", y(values[values.length - 1]).toFixed(1));
  dot.setAttribute("r", "2.5");
  svg.append(dot);
  return svg;
}

// One rating's results by opponent: people, then each bot level (every opponent seat
// of every match is one result).
function againstTable(r) {
  const head = el("tr", {}, ...["board.against", "board.won", "board.lost", "board.tied"]
    .map((key) => el("th", { scope: "col", text: t(key) })));
  const rows = r.against.map((a) => el("tr", { "data-level": a.level || "" },
    el("th", { scope: "row", text: a.level ? t("stats.bot", { name: levelName(a.level) }) : t("board.people") }),
    el("td", { text: a.won }), el("td", { text: a.lost }), el("td", { text: a.tied })));
  return el("table", { class: "against", "data-preset": r.preset, "data-group": r.group },
    el("caption", { text: t("board.against_caption") }),
    el("thead", {}, head), el("tbody", {}, ...rows));
}

// This browser's ratings (each with its history) and its choice for the leaderboard.
function showMine(data) {
  const box = document.getElementById("my-ratings");
  box.replaceChildren();
  if (!data.ratings.length) box.append(el("p", { class: "muted", text: t("board.mine_none") }));
  for (const r of data.ratings) {
    box.append(el("p", { class: "my-rating", "data-preset": r.preset, "data-group": r.group },
      el("strong", { text: `${r.preset}, ${t("board.group", { group: r.group })}: ` }),
      `${r.rating}${r.provisional ? "?" : ""} · ${t("board.matches", { n: r.matches })} `,
      historyChart(r.history)));
    if (r.against.length) box.append(againstTable(r));
  }
  document.getElementById("board-name").value = data.name || "";
  document.getElementById("board-hidden").checked = data.hidden;
}

async function saveName(event) {
  event.preventDefault();
  const said = document.getElementById("board-said");
  const name = document.getElementById("board-name").value.trim();
  try {
    showMine(await api("/api/ratings/name", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: browserKey(), name: name || null, hidden: document.getElementById("board-hidden").checked }) }));
    said.textContent = t("board.saved");
    await loadBoard();
  } catch (err) { said.textContent = refusalText(err); }
}

async function init() {
  const data = await api("/api/presets");
  const select = document.getElementById("preset");
  const board = document.getElementById("board-preset");
  for (const name of Object.keys(data.presets)) {
    select.append(el("option", { value: name }, name));
    board.append(el("option", { value: name, selected: name === "classic" }, name));
  }
  select.addEventListener("change", () => load());
  document.getElementById("players").addEventListener("change", () => load());
  board.addEventListener("change", loadBoard);
  document.getElementById("board-group").addEventListener("change", loadBoard);
  document.getElementById("board-name").maxLength = limits().name_length || 40;
  document.getElementById("board-name-form").addEventListener("submit", saveName);
  await Promise.all([load(), loadBoard(),
    api("/api/ratings/mine", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: browserKey() }) }).then(showMine)]);
}

i18nReady.then(init);
