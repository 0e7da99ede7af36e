// The game review in the replay viewer: the server's master looks at every decision of
// the match (each from the deciding player's view alone); this page asks for it, shows
// its place in the queue and its progress, then each player's accuracy, a graph of the
// points each lost over the match, a mark on the timeline for each inaccuracy, mistake
// and blunder, and at each decision what was played and what was better, the better
// move's cards drawn out on the table.

const NAMED = ["inaccuracy", "mistake", "blunder"];
const POLL_MS = 1000;

let review = null;      // the finished review (the shape of `rummykit analyze --json`)
let where = new Map();  // frame index of a decision's position -> that decision
let view = null;        // { frames, players, go, index }: the replay this review is of
let source = null;      // what to review: { table } or { record }
let polling = null;

function box(id) { return document.getElementById(id); }

// The frame where each deal starts (its deal, before any action).
function starts(frames) {
  const found = {};
  frames.forEach((f, i) => { if (f.action === null && !(f.deal in found)) found[f.deal] = i; });
  return found;
}

// Called by the viewer for each replay it shows: the review of another match goes.
export function reviewFor(frames, players, go, index, what) {
  view = { frames, players, go, index };
  source = what;
  review = null;
  where = new Map();
  if (polling) { clearTimeout(polling); polling = null; }
  box("review-panel").classList.toggle("hidden", !what);
  box("review-start").disabled = !what;
  box("review-start").classList.remove("hidden");
  for (const id of ["review-status", "review-result"]) box(id).classList.add("hidden");
  box("review-marks").replaceChildren();
  box("review-note").classList.add("hidden");
}

export async function startReview() {
  if (!source) return;
  box("review-start").disabled = true;
  try {
    const state = await api("/api/reviews", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: browserKey(), ...source }) });
    follow(state);
  } catch (err) {
    status(refusalText(err), true);
    box("review-start").disabled = false;
  }
}

function status(text, bad = false, progress = null) {
  const node = box("review-status");
  node.classList.remove("hidden");
  node.classList.toggle("error", bad);
  const bar = box("review-progress");
  bar.classList.toggle("hidden", progress === null);
  if (progress) { bar.max = Math.max(progress[1], 1); bar.value = progress[0]; }
  box("review-status-text").textContent = text;
}

function follow(state) {
  if (state.status === "done") { box("review-status").classList.add("hidden"); show(state.review); return; }
  if (state.status === "failed") {
    status(t("review.failed", { error: state.error || "" }), true);
    box("review-start").disabled = false;
    return;
  }
  if (state.status === "queued") status(t("review.queued", { n: state.position }), false, [0, 1]);
  else status(state.total ? t("review.running", { done: state.done, total: state.total }) : t("review.starting"),
    false, [state.done, state.total || 1]);
  polling = setTimeout(async () => {
    try { follow(await api(`/api/reviews/${state.id}`)); }
    catch (err) { status(refusalText(err), true); box("review-start").disabled = false; }
  }, POLL_MS);
}

// The review: each seat's line, the graph, the marks, the list of named decisions.
function show(done) {
  review = done;
  const first = starts(view.frames);
  where = new Map();
  for (const d of done.decisions) {
    const at = first[d.deal];
    if (at !== undefined) where.set(at + d.step - 1, d);
  }
  box("review-start").classList.add("hidden");
  box("review-result").classList.remove("hidden");
  const table = el("table", { class: "data", id: "review-seats" });
  table.append(el("tr", {}, ...[t("th.player"), t("review.accuracy"), t("review.lost"), t("class.inaccuracy"),
    t("class.mistake"), t("class.blunder")].map((text) => el("th", { text }))));
  for (const s of done.seats) {
    table.append(el("tr", { "data-seat": s.seat }, el("td", { text: s.name }), el("td", { text: s.accuracy.toFixed(0) }),
      el("td", { text: s.points_lost_per_decision.toFixed(2) }),
      ...NAMED.map((c) => el("td", { text: s.counts[c] || 0 }))));
  }
  box("review-table").replaceChildren(table);
  box("review-graph").replaceChildren(graph(done));
  marks();
  const list = box("review-list");
  list.replaceChildren();
  for (const [at, d] of [...where.entries()].sort((a, b) => a[0] - b[0])) {
    if (!NAMED.includes(d.class)) continue;
    list.append(el("li", {}, el("button", { type: "button", class: `link review-jump ${d.class}`, "data-frame": at,
      onclick: () => { view.go(at); box("viewer").scrollIntoView({ block: "start" }); } }, noteText(d))));
  }
  if (!list.children.length) list.append(el("li", { class: "muted", text: t("review.clean") }));
  view.go(view.index());
}

// A mark on the timeline under the slider for each named decision, where its position is.
function marks() {
  const strip = box("review-marks");
  strip.replaceChildren();
  const last = Math.max(view.frames.length - 1, 1);
  for (const [at, d] of where) {
    if (!NAMED.includes(d.class)) continue;
    const mark = el("button", { type: "button", class: `mark ${d.class}`, "data-frame": at,
      title: noteText(d), "aria-label": noteText(d), onclick: () => view.go(at) });
    mark.style.left = `${(100 * at / last).toFixed(2)}%`;  // (a property: the pages allow no inline style)
    strip.append(mark);
  }
}

// Each seat's running points lost over the match's decisions (as lichess draws the
// evaluation): one line per seat, a dot at each named decision.
function graph(done) {
  const ns = "http://www.w3.org/2000/svg";
  const W = 600, H = 140, pad = 6;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("review.graph"));
  const order = [...where.entries()].sort((a, b) => a[0] - b[0]);
  const last = Math.max(view.frames.length - 1, 1);
  const running = {}, points = {};
  for (const s of done.seats) { running[s.seat] = 0; points[s.seat] = [[0, 0]]; }
  for (const [at, d] of order) {
    if (!(d.seat in running)) continue;
    running[d.seat] += d.counted;
    points[d.seat].push([at, running[d.seat]]);
  }
  const top = Math.max(1, ...Object.values(running));
  const x = (at) => pad + (W - 2 * pad) * at / last;
  const y = (v) => H - pad - (H - 2 * pad) * v / top;
  for (const s of done.seats) {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", [...points[s.seat], [last, running[s.seat]]].map(([a, v]) => `${x(a).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
    line.setAttribute("class", `seat-line seat-${s.seat}`);
    line.setAttribute("data-seat", s.seat);
    svg.append(line);
  }
  for (const [at, d] of order) {
    if (!NAMED.includes(d.class) || !(d.seat in running)) continue;
    const dot = document.createElementNS(ns, "circle");
    const before = points[d.seat].find(([a]) => a === at);
    dot.setAttribute("cx", x(at).toFixed(1));
    dot.setAttribute("cy", y(before ? before[1] : 0).toFixed(1));
    dot.setAttribute("r", "4");
    dot.setAttribute("class", `dot ${d.class}`);
    dot.addEventListener("click", () => view.go(at));
    const title = document.createElementNS(ns, "title");
    title.textContent = noteText(d);
    dot.append(title);
    svg.append(dot);
  }
  const legend = el("div", { class: "legend" }, ...done.seats.map((s) =>
    el("span", { class: `seat-${s.seat}`, text: `— ${s.name}: ${t("review.points_lost", { n: running[s.seat].toFixed(1) })}` })));
  return el("div", {}, svg, legend);
}

// An action as the table shows it: "discard 7♥".
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
function pretty(text) { return text.replace(/\b(10|[2-9AJQK])([CDHS])\b/g, (_, r, s) => r + SUITS[s]); }

function noteText(raw) {
  const d = { ...raw, played: pretty(raw.played), best: pretty(raw.best) };
  const name = view.players[d.seat];
  if (d.class === "best") return t("review.note_best", { name, played: d.played });
  if (!NAMED.includes(d.class)) return t("review.note_good", { name, played: d.played, best: d.best });
  return t("review.note", { name, played: d.played, best: d.best, what: t(`class.${d.class}`),
    loss: d.counted.toFixed(1) });
}

// Called by the viewer after it draws frame ``index``: the decision taken from this
// position, in words, and the better move's cards drawn out.
export function annotate(index) {
  const note = box("review-note");
  for (const m of document.querySelectorAll("#review-marks .mark")) m.classList.toggle("here", Number(m.dataset.frame) === index);
  const d = review && where.get(index);
  if (!d) { note.classList.add("hidden"); return; }
  note.classList.remove("hidden");
  note.className = `review-note ${d.class}`;
  note.replaceChildren(el("strong", { text: noteText(d) }), d.reason ? el("div", { text: pretty(d.reason) }) : "");
  if (d.class === "best" || d.best === d.played) return;
  const cards = (d.best.match(/\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b/g) || []);
  const hand = document.querySelector(`#hands .seat[data-seat="${d.seat}"]`);
  if (hand) for (const c of cards) {
    const node = hand.querySelector(`.card[data-card="${c}"]:not(.better)`);
    if (node) node.classList.add("better");
  }
  if (d.best.startsWith("draw pile")) {
    const top = document.querySelector("#pile .card:last-child");
    if (top) top.classList.add("better");
  }
}
