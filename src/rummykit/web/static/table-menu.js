// The table's menu over the table: the score sheet, sound, seats and links, leaving the
// seat, the watch link, the settings, the chat and the whole log.
import { game, message, nameOf, tableId, watching } from "./table-state.js";
import { showSheet } from "./table-end.js";
import { logLines, render, send, showWhy } from "./table.js";

// How many are watching, and the link that lets anyone watch (the public view only).
export function renderWatchers() {
  const n = game.state.table.watchers || 0;
  document.getElementById("watchers").textContent = watching ? t("watch.you", { n }) : n ? tn("n.watchers", n) : "";
}

// When it becomes this person's turn: the tab's title says so, and a short tone sounds
// if they asked for it.
export function yourTurn(before) {
  const v = game.state.view;
  const mine = v.to_move === v.seat && !v.match_over && game.state.table.status === "playing";
  document.title = (mine ? t("title.your_turn") + " · " : "") + t("title.table");
  const was = before && before.view.to_move === before.view.seat && !before.view.match_over && before.table.status === "playing";
  if (mine && !was && localStorage.getItem("rummykit.sound") === "on") beep();
}

export function beep() {
  try {
    const audio = new AudioContext(), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(); tone.stop(audio.currentTime + 0.25);
  } catch (e) { /* no sound on this device */ }
}

export function renderSound() {
  const on = localStorage.getItem("rummykit.sound") === "on";
  const button = document.getElementById("btn-sound");
  button.textContent = t(on ? "btn.sound_on" : "btn.sound_off");
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

// The browser that made the table has "Seats and links" (the invite sheet); an open
// sheet follows who is at the table.
export function renderInvites() {
  document.getElementById("btn-invites").classList.toggle("hidden", !createdLinks(tableId));
  if (document.getElementById("invite-sheet")) {
    import("./invite.js").then((invite) => invite.updateInvite(seatsWithNumbers()));
  }
}

function seatsWithNumbers() {
  return game.state ? game.state.table.seats.map((seat, i) => ({ ...seat, seat: i })) : [];
}

// The table's chat: each line as text (never markup); a person muted on this browser is
// not shown.
export function mutedSeats() {
  try { return new Set(JSON.parse(localStorage.getItem(`rummykit.muted.${tableId}`)) || []); } catch (e) { return new Set(); }
}

export function renderChat() {
  const box = document.getElementById("chat");
  const muted = mutedSeats();
  box.replaceChildren(...game.chatLines.filter((line) => !muted.has(line.seat)).map((line) =>
    el("div", { class: "chat-line", "data-seat": line.seat }, el("strong", { text: line.name + ": " }), el("span", { text: line.text }))));
  box.scrollTop = box.scrollHeight;
  renderMutes();
}

export function renderMutes() {
  if (!game.state) return;
  // Chat is for tables with more than one person; a spectator reads it.
  const people = game.state.table.seats.filter((seat) => seat.kind === "person").length;
  document.getElementById("chat-panel").classList.toggle("hidden", people < 2);
  document.getElementById("chat-form").classList.toggle("hidden", watching);
  const muted = mutedSeats();
  const box = document.getElementById("mutes");
  box.replaceChildren();
  game.state.table.seats.forEach((seat, i) => {
    if (seat.kind !== "person" || i === game.state.view.seat) return;
    box.append(el("button", { type: "button", class: "secondary small-button mute", "data-seat": i, "aria-pressed": muted.has(i) ? "true" : "false",
      onclick: () => {
        const now = mutedSeats();
        if (now.has(i)) now.delete(i); else now.add(i);
        localStorage.setItem(`rummykit.muted.${tableId}`, JSON.stringify([...now]));
        renderChat();
      } }, t(muted.has(i) ? "chat.unmute" : "chat.mute", { name: seat.name })), " ");
  });
}

// Someone left: the others choose between the computer in that seat and ending the match.
export function renderLeft() {
  const tb = game.state.table, box = document.getElementById("left-box");
  const leaver = tb.left && tb.left.length ? tb.left[tb.left.length - 1] : null;
  const me = game.state.view.seat;
  if (watching || leaver === null || leaver === me || tb.status !== "playing" || tb.seats[me].away) { box.classList.add("hidden"); return; }
  const mine = (tb.votes || {})[String(me)];
  document.getElementById("left-text").textContent = t("left.ask", { name: nameOf(leaver), level: levelName(tb.standin) }) +
    (mine === undefined ? "" : " " + t(mine ? "left.chose_end" : "left.chose_keep"));
  box.classList.remove("hidden");
}

// The stand-in: this person can hand their seat over and leave, and take it back.
export function renderAway() {
  renderLeft();
  if (watching) return;
  const me = game.state.table.seats[game.state.view.seat];
  const playing = game.state.table.status === "playing" && !game.state.view.match_over;
  document.getElementById("btn-away").classList.toggle("hidden", !playing || me.standin);
  const box = document.getElementById("standin");
  if (playing && me.standin) {
    document.getElementById("standin-text").textContent = t(me.away ? "standin.handed" : "standin.timeout", { level: levelName(game.state.table.standin) });
    box.classList.remove("hidden");
  } else box.classList.add("hidden");
}

export function renderLog() {
  const v = game.shown.view, box = document.getElementById("log");
  box.replaceChildren();
  for (const line of logLines().slice(-40).reverse()) {
    box.append(el("div", { class: line.event ? "event" : "", text: line.what }));
  }
}

document.getElementById("command-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("command");
  if (input.value.trim()) send(input.value.trim());
  input.value = "";
});

document.getElementById("btn-sheet").addEventListener("click", () => { closeMenu(); showSheet(); });
document.getElementById("btn-sound").addEventListener("click", () => {
  localStorage.setItem("rummykit.sound", localStorage.getItem("rummykit.sound") === "on" ? "off" : "on");
  renderSound();
});

i18nReady.then(renderSound);

document.getElementById("btn-back").addEventListener("click", () => message({ type: "back" }));
document.getElementById("btn-keep").addEventListener("click", () => message({ type: "vote", end: false }));
document.getElementById("btn-end-match").addEventListener("click", () => message({ type: "vote", end: true }));
document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  if (input.value.trim()) message({ type: "chat", text: input.value.trim() });
  input.value = "";
});

document.getElementById("btn-watch-link").addEventListener("click", async () => {
  const url = new URL(`/t/${tableId}?watch=1`, window.location.href).href;
  const button = document.getElementById("btn-watch-link");
  try { await navigator.clipboard.writeText(url); button.textContent = t("invites.copied"); }
  catch (e) { showWhy(t("watch.link", { url })); }
});

document.getElementById("btn-away").addEventListener("click", () => {
  if (confirm(t("away.confirm", { level: levelName(game.state.table.standin) }))) { closeMenu(); message({ type: "away" }); }
});

document.getElementById("btn-invites").addEventListener("click", () => {
  closeMenu();
  openInvites();
});

document.getElementById("btn-menu").addEventListener("click", openMenu);

setting("opt-command", "rummykit.command", (on) => showCommand(on));

setting("opt-four", "rummykit.four", () => { if (game.state) render(); });

export function openMenu() {
  const menu = document.getElementById("menu");
  if (!menu.open) menu.showModal();
  document.getElementById("btn-menu").classList.remove("unread");
  const log = document.getElementById("chat");
  log.scrollTop = log.scrollHeight;
}

export function closeMenu() {
  const menu = document.getElementById("menu");
  if (menu.open) menu.close();
}

// The seats' links, for the browser that made the table: the invite sheet.
export function openInvites() {
  import("./invite.js").then((invite) => invite.openInvite({ tableId, seats: seatsWithNumbers() }));
}

// A switch of the settings, kept in this browser.
export function setting(id, storageKey, apply) {
  const box = document.getElementById(id);
  let on = false;
  try { on = localStorage.getItem(storageKey) === "on"; } catch (e) { /* storage off */ }
  box.checked = on;
  apply(on);
  box.addEventListener("change", () => {
    try { localStorage.setItem(storageKey, box.checked ? "on" : "off"); } catch (e) { /* storage off */ }
    apply(box.checked);
  });
}

// The action box (notation, for those who like to type): behind the / key or the switch.
export function showCommand(on) {
  const form = document.getElementById("command-form");
  const always = document.getElementById("opt-command").checked;
  form.classList.toggle("hidden", !on && !always);
}

document.getElementById("command").addEventListener("keydown", (event) => {
  if (event.key === "Escape") { event.preventDefault(); showCommand(false); event.target.blur(); }
});
