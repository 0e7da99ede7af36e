// Inviting friends to a table: the invite sheet (each friend's link with Copy, the
// system's share sheet where the browser has one, a QR code for a friend in the same room,
// a new link for a seat whose person is not here), and the page a browser sees when it
// opens the link of someone else's seat at a table where it has a seat of its own.
//
// An ES module over the pages' shared helpers (common.js and i18n.js, loaded before it as
// plain scripts: el, t, api, browserKey, createdLinks, saveCreated, i18nReady). Imported
// by a table page, it opens the sheet by itself when the start page has just made the
// table (the links wait in sessionStorage for that one arrival).

const SVG = "http://www.w3.org/2000/svg";
const QUIET = 4;  // the light margin a QR code needs around it, in modules

function ensureStyles() {
  if (document.querySelector('link[href="/static/invite.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/invite.css" }));
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

// The QR code of ``url`` (made by the server from the link, sent in a POST body so that the
// seat's token never enters an address), drawn as SVG: one rect per run of dark modules.
async function drawQr(box, url, name) {
  let qr;
  try {
    qr = await api("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify({ text: url }) });
  } catch (err) { box.replaceChildren(); return; }
  const side = qr.size + 2 * QUIET;
  const svg = svgNode("svg", { viewBox: `0 0 ${side} ${side}`, width: 4 * side, height: 4 * side,
                               class: "qr", role: "img", "aria-label": t("invite.qr", { name }),
                               "shape-rendering": "crispEdges", "data-size": qr.size });
  svg.append(svgNode("rect", { x: 0, y: 0, width: side, height: side, fill: "#fff" }));
  qr.rows.forEach((row, y) => {
    for (const run of row.matchAll(/1+/g)) {
      svg.append(svgNode("rect", { x: run.index + QUIET, y: y + QUIET, width: run[0].length,
                                   height: 1, fill: "#000" }));
    }
  });
  box.replaceChildren(svg);
}

// A link in a read-only box with a Copy button; where the clipboard is refused, the text
// is selected for the person to copy it.
function copyable(url, label, buttonText) {
  const field = el("input", { readonly: true, value: url, class: "invite-link", "aria-label": label });
  const note = el("p", { class: "muted invite-note", role: "status" });
  const copy = el("button", { type: "button", class: "copy" }, buttonText);
  copy.addEventListener("click", async () => {
    field.focus();
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      copy.textContent = t("invites.copied");
      note.textContent = "";
    } catch (err) { note.textContent = t("invite.selected"); }
  });
  return { field, copy, note };
}

function seatStatus(seat) {
  if (seat.connected === undefined && seat.claimed === undefined) return "";
  return t(seat.connected ? "invites.here" : seat.claimed ? "invites.claimed" : "invites.unclaimed");
}

function inviteRow(tableId, seat, url) {
  const { field, copy, note } = copyable(url, t("invites.link", { name: seat.name }), t("invites.copy"));
  const buttons = el("div", { class: "invite-buttons" }, copy);
  if (typeof navigator.share === "function") {
    buttons.append(el("button", { type: "button", class: "secondary share", onclick: () => {
      navigator.share({ title: "rummykit", text: t("invite.share_text"), url: field.value }).catch(() => {});
    } }, t("invite.share")));
  }
  const busy = seat.connected && seat.claimed;
  if (createdLinks(tableId)) {
    buttons.append(el("button", { type: "button", class: "secondary renew", disabled: busy,
      title: busy ? t("invites.in_use") : "", onclick: () => renewLink(tableId, seat, note) }, t("invites.new")));
  }
  const qr = el("div", { class: "qr-box" });
  drawQr(qr, url, seat.name);
  return el("div", { class: "invite-row", "data-seat": seat.seat },
    el("h3", {}, seat.name, " ", el("span", { class: "muted invite-status", text: seatStatus(seat) })),
    field, buttons, note, qr);
}

// A new link for a seat whose person is not at the table (the old one stops working).
async function renewLink(tableId, seat, note) {
  try {
    const answer = await api(`/api/tables/${tableId}/seats/${seat.seat}/link`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key: browserKey() }) });
    const links = createdLinks(tableId) || {};
    links[seat.seat] = answer.link;
    saveCreated(tableId, links);
    const row = document.querySelector(`#invite-sheet .invite-row[data-seat="${seat.seat}"]`);
    if (row) row.replaceWith(inviteRow(tableId, { ...seat, link: answer.link, claimed: false, connected: false },
                                       new URL(answer.link, window.location.href).href));
  } catch (err) {  // said in the page's language where the refusal has a code
    note.textContent = refusalText(err);
  }
}

function ownSeat() {
  const seat = new URLSearchParams(window.location.search).get("seat");
  return seat !== null && /^[0-9]+$/.test(seat) ? Number(seat) : null;
}

// The invite sheet over the page: a row for each person's seat but this browser's own.
// ``seats``: the table's seats, each {seat, name, kind, link} (a missing link is the one
// this browser kept when it made the table; presence, where given: claimed, connected).
export function openInvite({ tableId, seats, mine = ownSeat() }) {
  ensureStyles();
  const kept = createdLinks(tableId) || {};
  const old = document.getElementById("invite-sheet");
  if (old) old.remove();
  const dialog = el("dialog", { id: "invite-sheet", class: "invite-sheet", "aria-labelledby": "invite-title" },
    el("h2", { id: "invite-title", text: t("invite.title") }),
    el("p", { class: "muted", text: t("invite.help") }));
  for (const seat of seats) {
    const link = seat.link || kept[seat.seat];
    if (seat.kind !== "person" || seat.seat === mine || !link) continue;
    dialog.append(inviteRow(tableId, seat, new URL(link, window.location.href).href));
  }
  dialog.append(el("form", { method: "dialog" }, el("button", { class: "secondary", id: "invite-close" }, t("btn.close"))));
  // No key of the page behind acts while the sheet is open (Escape closes it).
  dialog.addEventListener("keydown", (event) => event.stopPropagation());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  const first = dialog.querySelector("button.copy");
  if (first) first.focus();
  return dialog;
}

// Who is at the table, for an open sheet (each seat's {claimed, connected}).
export function updateInvite(seats) {
  for (const seat of seats) {
    const status = document.querySelector(`#invite-sheet .invite-row[data-seat="${seat.seat}"] .invite-status`);
    if (status) status.textContent = seatStatus(seat);
    const renew = document.querySelector(`#invite-sheet .invite-row[data-seat="${seat.seat}"] .renew`);
    if (renew) renew.disabled = Boolean(seat.connected && seat.claimed);
  }
}

// The page of a browser that opened someone else's link at a table where it has a seat
// (the server's refusal "one-seat", with params name and mine): whose link this is, a
// button to copy it (it is in the address bar), and the way back to its own seat.
export function linkOfAnother(message, { tableId }) {
  ensureStyles();
  const params = message.params || {};
  const { field, copy, note } = copyable(window.location.href, t("invites.link", { name: params.name }),
                                         t("other.copy", { name: params.name }));
  const back = el("a", { class: "button back-to-seat", href: "/", hidden: true }, t("other.back"));
  api("/api/mine", { method: "POST", headers: { "Content-Type": "application/json" },
                     body: JSON.stringify({ key: browserKey() }) }).then((answer) => {
    const table = answer.tables.find((one) => one.id === tableId);
    if (!table) return;
    back.href = `/t/${tableId}?seat=${table.seat}`;
    back.hidden = false;
  }).catch(() => {});
  return el("section", { class: "panel link-of-another", id: "link-of-another" },
    el("h2", { text: t("other.title", { name: params.name }) }),
    el("p", { class: "muted", text: t("other.help", { mine: params.mine }) }),
    field, el("div", { class: "invite-buttons" }, copy, back), note);
}

// That page in place of the table's own (which has nothing to offer this browser here).
export function showLinkOfAnother(message, { tableId }) {
  if (document.getElementById("link-of-another")) return;
  const main = document.querySelector("main") || document.body;
  for (const child of main.children) { child.hidden = true; child.classList.add("hidden"); }
  main.append(linkOfAnother(message, { tableId }));
}

// Arriving at a table the start page has just made: the sheet opens by itself, once.
const arrived = window.location.pathname.match(/^\/t\/([A-Za-z0-9]+)$/);
if (arrived) {
  const slot = `rummykit.invite.${arrived[1]}`;
  let waiting = null;
  try { waiting = JSON.parse(sessionStorage.getItem(slot)); sessionStorage.removeItem(slot); } catch (err) { waiting = null; }
  if (Array.isArray(waiting)) i18nReady.then(() => openInvite({ tableId: arrived[1], seats: waiting }));
}
