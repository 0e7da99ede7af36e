// The replay viewer: every action of a finished game, forward and back, all hands shown.
// It draws the table with the same pieces as the table page (components.js) and says
// each step in words (words.js).
import { cardEl, meldEl, meldGroups, seatEl, fitRow } from "./components.js";
import { phrase } from "./words.js";
import { annotate, reviewFor, startReview } from "./review.js";

let data = null;
let index = 0;

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.classList.remove("hidden");
}

// A replay to show; ``what`` is what the server may review of it ({ table } or
// { record }: the record's text).
function load(answer, what = null) {
  data = answer;
  index = 0;
  reviewFor(answer.frames, answer.players, go, () => index, answer.error ? null : what);
  if (answer.error) showError(t("replay.illegal", { error: answer.error }));
  else document.getElementById("error").classList.add("hidden");
  const slider = document.getElementById("slider");
  slider.max = String(Math.max(answer.frames.length - 1, 0));
  document.getElementById("viewer").classList.remove("hidden");
  render();
}

function render() {
  const frame = data.frames[index];
  if (!frame) return;
  document.getElementById("slider").value = String(index);
  document.getElementById("step").textContent = t("replay.step", { i: index + 1, n: data.frames.length,
    deal: frame.deal, what: frame.action ? stepWords(frame, data.frames[index - 1]) : t("replay.the_deal") });
  let meta = t("replay.meta", { rules: data.rules, stock: frame.stock,
    totals: data.players.map((p, i) => `${p} ${frame.totals[i]}`).join(", ") });
  if (frame.result) {
    const r = frame.result;
    const who = r.winner === null ? t("end.deal.none")
      : t(r.rummy ? "deal.rummy" : "deal.out", { name: data.players[r.winner] }).replace(/[.!]$/, "");
    meta += t("replay.over", { who, points: r.points.join("/") });
  }
  document.getElementById("meta").textContent = meta;
  const hands = document.getElementById("hands");
  hands.replaceChildren();
  frame.hands.forEach((hand, i) => {
    const cards = el("div", { class: "hand replay-hand" });
    for (const c of hand) cards.append(cardEl(c, { small: true }));
    hands.append(seatEl(i, { turn: frame.to_move === i && !frame.result,
      name: frame.dealer === i ? t("replay.dealer", { name: data.players[i] }) : data.players[i] }, cards));
  });
  const melds = document.getElementById("melds");
  melds.replaceChildren();
  if (!frame.table.length) melds.append(el("span", { class: "muted", text: t("meld.none") }));
  const numbered = frame.table.map((meld, k) => ({ ...meld, number: k + 1 }));
  melds.append(...meldGroups(numbered, data.players, (meld) => {
    const node = meldEl(meld, { names: data.players });
    node.title = t("replay.laid_by", { name: data.players[meld.owner] });
    return node;
  }));
  const pile = document.getElementById("pile");
  pile.replaceChildren();
  for (const c of frame.pile) pile.append(cardEl(c, { small: true }));
  for (const row of document.querySelectorAll("#hands .hand, #pile")) fitRow(row);
  annotate(index);
}

// A step in words ("Ann took 7♥ from the pile."): the cards a pile draw took are the ones
// the pile lost.
function stepWords(frame, before) {
  const name = frame.by === null || frame.by === undefined ? "" : data.players[frame.by];
  const taken = frame.action.startsWith("draw pile") && before ? before.pile.slice(frame.pile.length) : null;
  return phrase(frame.action, taken, "other", name);
}

function go(to) {
  if (!data) return;
  index = Math.max(0, Math.min(to, data.frames.length - 1));
  render();
}

document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(index - 1);
document.getElementById("next").onclick = () => go(index + 1);
document.getElementById("last").onclick = () => go(data ? data.frames.length - 1 : 0);
document.getElementById("slider").oninput = (e) => go(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;  // the slider steps by itself
  if (e.key === "ArrowRight") go(index + 1);
  else if (e.key === "ArrowLeft") go(index - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(data ? data.frames.length - 1 : 0);
});
document.getElementById("file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const text = await file.text();
    load(await api("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text }), { record: text });
  } catch (err) { showError(refusalText(err)); }
});
document.getElementById("review-start").addEventListener("click", startReview);

// A finished table's replay, by the table's link alone (/replay?table=ID): whoever has it
// may watch, in any browser. Why it cannot be shown is said in the page's language.
const REPLAY_REFUSED = { 404: "replay.no_table", 409: "replay.not_over", 410: "replay.broken" };
// With ``review=1`` (the link at a match's end), its review starts at once.
const params = new URLSearchParams(window.location.search);
const tableParam = params.get("table");
if (tableParam) {
  i18nReady.then(() => api(`/api/tables/${encodeURIComponent(tableParam)}/frames`)
    .then((answer) => {
      load(answer, { table: tableParam });
      if (params.get("review") === "1") startReview();
    })
    .catch((err) => showError(t(REPLAY_REFUSED[err.status] || "replay.failed"))));
}
