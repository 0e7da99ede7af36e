// The start page: "Play now" starts a table against the computer in one tap (the rules
// and level used last); "Play with friends" opens a short form (rules, how many friends,
// computer players to fill the table; the rest behind "More options"). The maker of a table
// with people lands at their own seat with the invite sheet open (invite.js).
"use strict";

const LAST_KEY = "rummykit.last";
// The rules, the computer's level and how many computer players the last table had.
function lastUsed() {
  const first = { rules: "classic", level: "expert", bots: 1 };
  try {
    const saved = JSON.parse(localStorage.getItem(LAST_KEY));
    if (saved && typeof saved.rules === "string" && typeof saved.level === "string") {
      return { ...first, ...saved, bots: Math.min(5, Math.max(1, Number(saved.bots) || 1)) };
    }
  } catch (e) { /* storage off, or an old value */ }
  return first;
}

let PRESETS = {}, BOTS = [], THINK = 1;
const FIXED = ["melds_per_turn", "aces", "last_discard"];
const CHOICES = {
  melds_per_turn: ["one", "many"], aces: ["low", "high-low"], last_discard: ["optional", "required"],
  draw_pile: ["top", "any"], taken_discard: ["forbidden", "last-card"],
  stock_out: ["turn-over", "refill", "end"], scoring: ["collect", "melded", "penalty"],
  match_end: ["target", "one-deal", "dealt-once", "elimination"], first_dealer: ["random", "first"],
  next_dealer: ["left", "winner"], pile_card_must_be_used: ["false", "true"], target_strict: ["false", "true"],
};

function text(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return new Set(value).size === 1 ? String(value[0]) : value.join("/");
  return String(value);
}

function renderOptions() {
  const preset = PRESETS[document.getElementById("preset").value];
  document.getElementById("preset-source").textContent = t(`preset.${document.getElementById("preset").value}`);
  const box = document.getElementById("options");
  box.replaceChildren();
  const names = [...FIXED, ...Object.keys(preset.options).filter((k) => !FIXED.includes(k))];
  for (const name of names) {
    const value = text(preset.options[name]);
    let input;
    if (CHOICES[name]) {
      input = el("select", { name, "data-default": value },
        ...CHOICES[name].map((c) => el("option", { value: c, selected: c === value }, t(`optvalue.${name}:${c}`))));
    } else {
      input = el("input", { name, value, "data-default": value, size: 14 });
    }
    input.addEventListener("change", updateRules);
    box.append(el("label", { title: t(`option.${name}`) }, el("span", { class: "optname", text: t(`optname.${name}`) }), " ", input,
      " ", el("span", { class: "muted", text: t(`option.${name}`) })));
  }
  updateRules();
}

function rulesText() {
  const preset = document.getElementById("preset").value;
  const changed = [];
  for (const input of document.querySelectorAll("#options [name]")) {
    if (input.value.trim() !== input.dataset.default) changed.push(`${input.name}=${input.value.trim()}`);
  }
  return changed.length ? `${preset}(${changed.join(",")})` : preset;
}

async function updateRules() {
  const box = document.getElementById("rules-error");
  const wanted = rulesText();
  try {
    const answer = await api(`/api/rules?text=${encodeURIComponent(wanted)}`);
    document.getElementById("rules-text").textContent = answer.rules;
    box.classList.add("hidden");
  } catch (err) {
    document.getElementById("rules-text").textContent = wanted;
    box.textContent = refusalText(err);
    box.classList.remove("hidden");
  }
}

function seatRow(index, kind, name, level) {
  const levelSel = el("select", { name: "level", "aria-label": t("seat.aria_level", { n: index + 1 }) },
    ...BOTS.map((b) => el("option", { value: b, selected: b === level }, t(`level.${b}`))));
  // The master searches each decision: how long it thinks (the server's default, or one
  // of these), sent as its level "master(think=S)".
  // Quicker than the server's time may be chosen, never longer.
  const thinkSel = el("select", { name: "think", "aria-label": t("seat.aria_think", { n: index + 1 }),
                                  title: t("think.title") },
    el("option", { value: "" }, t("think.option", { s: THINK })),
    ...[0.1, 0.3, 1, 3].filter((s) => s < THINK).map((s) =>
      el("option", { value: String(s) }, t("think.option", { s }))));
  const nameIn = el("input", { name: "name", value: name, maxlength: limits().name_length, "aria-label": t("seat.aria_name", { n: index + 1 }) });
  const sync = () => {
    levelSel.classList.toggle("hidden", kind !== "bot");
    thinkSel.classList.toggle("hidden", kind !== "bot" || levelSel.value !== "master");
  };
  levelSel.addEventListener("change", sync);
  sync();
  const what = index === 0 ? t("kind.you") : t(`kind.${kind}`);
  return el("div", { class: "seat-row", "data-kind": kind }, el("input", { type: "hidden", name: "kind", value: kind }),
    el("strong", { text: t("seat.n", { n: index + 1 }) + " " }), el("span", { class: "seat-kind muted", text: what }), " ",
    nameIn, " ", levelSel, " ", thinkSel);
}

// The seat rows for the counts chosen: this browser's, the friends', the computer players'
// (names and levels typed so far stay where the kind of seat stays).
function syncSeats() {
  const friends = Number(document.getElementById("friends").value);
  const botSel = document.getElementById("bots");
  const wanted = Number(botSel.value);
  const most = 5 - friends, least = friends === 0 ? 1 : 0;
  botSel.replaceChildren(...Array.from({ length: most - least + 1 }, (_, i) => {
    const n = least + i;
    return el("option", { value: String(n), selected: n === Math.min(most, Math.max(least, wanted)) }, String(n));
  }));
  const bots = Number(botSel.value);
  const rows = document.getElementById("seats");
  const before = [...rows.children];
  const names = t("index.names").split(",");
  const kinds = ["person", ...Array(friends).fill("person"), ...Array(bots).fill("bot")];
  const level = lastUsed().level.split("(")[0];
  rows.replaceChildren(...kinds.map((kind, i) => {
    const old = before[i];
    if (old && old.dataset.kind === kind) return old;
    const mine = i === 0 ? localStorage.getItem("rummykit.name") : null;
    return seatRow(i, kind, mine || names[i], BOTS.includes(level) ? level : BOTS[0]);
  }));
}

function seatLevel(row) {
  const level = row.querySelector("[name=level]").value;
  const think = row.querySelector("[name=think]").value;
  return level === "master" && think ? `master(think=${think})` : level;
}

function remember(rules, level, bots) {
  try { localStorage.setItem(LAST_KEY, JSON.stringify({ ...lastUsed(), rules, level, ...(bots ? { bots } : {}) })); }
  catch (e) { /* storage off */ }
}

// The maker goes to their own seat (this browser's key opens it: no token in the address
// bar or the history); with friends to invite, their links wait in this tab's
// sessionStorage for the table page to open the invite sheet with (invite.js).
function land(table) {
  const people = table.seats.filter((s) => s.link);
  // This browser made the table: it keeps every seat's link, to copy or replace later.
  saveCreated(table.id, Object.fromEntries(people.map((s) => [s.seat, s.link])));
  if (people.length > 1) {
    sessionStorage.setItem(`rummykit.invite.${table.id}`, JSON.stringify(people.slice(1)));
  }
  window.location.href = `/t/${table.id}?seat=${people[0].seat}`;
}

// Whether this browser's tables are rated: as it chose last (rated until it chooses not).
function ratedChoice() { return localStorage.getItem("rummykit.rated") !== "0"; }

// "Play now": this browser against the computer, with the rules and the level used last.
async function playNow() {
  const box = document.getElementById("play-error");
  box.classList.add("hidden");
  const last = lastUsed();
  const names = t("index.names").split(",");
  const me = document.getElementById("player-name").value.trim() || localStorage.getItem("rummykit.name") || names[0];
  const seats = [{ kind: "person", name: me, level: null },
    ...Array.from({ length: last.bots }, (_, i) => ({ kind: "bot", name: names[i + 1], level: last.level }))];
  try {
    const table = await api("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
      // (house rules or a level's own settings are not rated: a rating is per preset)
      body: JSON.stringify({ rules: last.rules, seats, key: browserKey(),
                             rated: ratedChoice() && !last.rules.includes("(") && !String(last.level).includes("(") }) });
    land(table);
  } catch (err) {
    box.textContent = refusalText(err);
    box.classList.remove("hidden");
  }
}

function showPlayNow() {
  const last = lastUsed();
  document.getElementById("play-now-what").textContent = t("index.play_now_help", { level: levelName(last.level), rules: last.rules });
}

async function start(event) {
  event.preventDefault();
  const box = document.getElementById("create-error");
  box.classList.add("hidden");
  const seats = [...document.querySelectorAll("#seats .seat-row")].map((row) => ({
    kind: row.querySelector("[name=kind]").value,
    name: row.querySelector("[name=name]").value.trim(),
    level: row.querySelector("[name=kind]").value === "bot" ? seatLevel(row) : null,
  }));
  try {
    const table = await api("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: rulesText(), seats, key: browserKey(),
                             timer: Number(document.getElementById("timer").value) || null,
                             standin: document.getElementById("standin").value,
                             public: document.getElementById("public").checked,
                             rated: document.getElementById("rated").checked }),
    });
    localStorage.setItem("rummykit.rated", document.getElementById("rated").checked ? "1" : "0");
    const bots = seats.filter((seat) => seat.kind === "bot");
    if (bots.length) remember(rulesText(), bots[0].level, seats.length === bots.length + 1 ? bots.length : null);
    land(table);
  } catch (err) {
    box.textContent = refusalText(err);
    box.classList.remove("hidden");
  }
}

// Every table where this browser has a seat, from the server (by this browser's key).
let mineAsked = 0;  // the last question: an older answer that comes late is dropped
async function showMine() {
  const asked = ++mineAsked;
  let answer;
  try { answer = await api("/api/mine", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key: browserKey() }) }); }
  catch (err) { return; }
  if (asked !== mineAsked) return;
  const list = document.getElementById("mine-list");
  list.replaceChildren();
  for (const table of answer.tables) {
    const names = table.names.map((n, i) => i === table.seat ? youLabel(n) : n).join(", ");
    const what = table.your_turn ? t("mine.your_turn") : t(`mine.${table.status}`);
    list.append(el("li", {}, el("a", { href: `/t/${table.id}?seat=${table.seat}`, class: "mine-link" }, names),
      ` · ${table.rules} · `, el("span", { class: table.your_turn ? "your-turn" : "muted", text: what })));
  }
  document.getElementById("mine").classList.toggle("hidden", !answer.tables.length);
}

// The open tables: each with its seats, a button for each free one, and a watch link.
async function showLobby() {
  let answer;
  try { answer = await api("/api/lobby"); } catch (err) { return; }
  const list = document.getElementById("lobby-list");
  list.replaceChildren();
  for (const table of answer.tables) {
    const seats = table.seats.map((seat, i) => seat.free
      ? el("button", { type: "button", class: "secondary take", "data-table": table.id, "data-seat": i,
          onclick: () => takeSeat(table.id, i) }, t("lobby.take", { name: seat.name }))
      : el("span", { class: "taken", text: seat.kind === "bot" ? `${seat.name} (${t(`level.${(seat.level || "").split("(")[0]}`)})` : seat.name }));
    const item = el("li", { class: "lobby-table", "data-table": table.id }, el("code", { text: table.rules }), " · ",
      t(`mine.${table.status}`), table.timer ? ` · ${t("timer.seconds", { s: table.timer })}` : "", " · ");
    seats.forEach((node, i) => item.append(i ? ", " : "", node));
    item.append(" · ", el("a", { href: `/t/${table.id}?watch=1`, class: "watch" }, t("lobby.watch")));
    list.append(item);
  }
  document.getElementById("lobby").classList.toggle("hidden", !answer.tables.length);
}

async function takeSeat(tableId, seat) {
  const box = document.getElementById("lobby-error");
  box.classList.add("hidden");
  const name = document.getElementById("player-name").value.trim();
  try {
    const answer = await api(`/api/tables/${tableId}/seats/${seat}/take`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: browserKey(), name: name || null }) });
    window.location.href = answer.link;
  } catch (err) { box.textContent = refusalText(err); box.classList.remove("hidden"); showLobby(); }
}

// Carrying this browser's key (its seats and results) to another device: a one-time code.
async function makeCode() {
  try {
    const answer = await api("/api/transfer", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: browserKey() }) });
    document.getElementById("code").textContent = answer.code;
  } catch (err) { codeResult(refusalText(err), true); }
}

async function useCode() {
  const code = document.getElementById("code-in").value.trim();
  if (!code) return;
  // The code replaces this browser's key: its own seats and results go with the old one.
  if (!confirm(t("player.confirm_code"))) return;
  try {
    const answer = await api("/api/transfer/redeem", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }) });
    localStorage.setItem("rummykit.key.before", browserKey());  // kept, should it be wanted back
    localStorage.setItem("rummykit.key", answer.key);
    codeResult(t("player.code_used"), false);
    showMine();
  } catch (err) { codeResult(refusalText(err), true); }
}

function codeResult(text, bad) {
  const box = document.getElementById("code-result");
  box.textContent = text;
  box.className = bad ? "error" : "muted";
}

async function init() {
  showMine();
  showLobby();
  const nameBox = document.getElementById("player-name");
  nameBox.value = localStorage.getItem("rummykit.name") || "";
  nameBox.addEventListener("change", () => {
    localStorage.setItem("rummykit.name", nameBox.value.trim());
    const first = document.querySelector("#seats .seat-row [name=name]");
    if (first && nameBox.value.trim()) first.value = nameBox.value.trim();
  });
  document.getElementById("rated").checked = ratedChoice();
  document.getElementById("make-code").addEventListener("click", makeCode);
  document.getElementById("use-code").addEventListener("click", useCode);
  const data = await api("/api/presets");
  await limitsReady;  // (the seats' name boxes hold names to the server's length)
  PRESETS = data.presets; BOTS = data.bots; THINK = data.think;
  const select = document.getElementById("preset");
  for (const [name, preset] of Object.entries(PRESETS)) {
    select.append(el("option", { value: name, selected: name === (lastUsed().rules.split("(")[0] in PRESETS ? lastUsed().rules.split("(")[0] : "classic") }, `${name} — ${t(`preset.${name}`)}`));
  }
  select.addEventListener("change", renderOptions);
  const timer = document.getElementById("timer");
  timer.append(el("option", { value: "" }, t("timer.none")),
    ...(limits().timer_choices || []).map((s) => el("option", { value: String(s) }, t("timer.seconds", { s }))));
  document.getElementById("standin").append(...BOTS.filter((b) => b !== "master").map((b) =>
    el("option", { value: b, selected: b === "expert" }, t(`level.${b}`))));
  renderOptions();
  document.getElementById("friends").append(...[0, 1, 2, 3, 4, 5].map((n) => el("option", { value: String(n), selected: n === 1 }, String(n))));
  document.getElementById("bots").append(el("option", { value: "0", selected: true }, "0"));
  document.getElementById("friends").addEventListener("change", syncSeats);
  document.getElementById("bots").addEventListener("change", syncSeats);
  syncSeats();
  document.getElementById("new-table").addEventListener("submit", start);
  document.getElementById("play-now").addEventListener("click", playNow);
  const friendsButton = document.getElementById("play-friends");
  friendsButton.addEventListener("click", () => {
    const form = document.getElementById("new-table");
    form.classList.toggle("hidden");
    friendsButton.setAttribute("aria-expanded", form.classList.contains("hidden") ? "false" : "true");
    if (!form.classList.contains("hidden")) document.getElementById("preset").focus();
  });
  showPlayNow();
  // The buttons come disabled in the page and work from here on: a press before the
  // page is ready would do nothing.
  for (const id of ["play-now", "play-friends", "start", "make-code", "use-code"]) document.getElementById(id).disabled = false;
}

i18nReady.then(init);
