// The end of a deal and of a match: the finished deal held in view, the summaries, the
// score sheet, the rematch.
import { game, key, message, nameOf, tableId, token, watching } from "./table-state.js";
import { cardEl } from "./components.js";
import { reduced, render, showError } from "./table.js";

// A deal just over stays on the table (its last move, every hand laid out) until its
// summary is closed; the next deal is drawn then.
export function holdFinished(before) {
  const v = game.state.view, last = v.last_deal;
  if (!last || v.match_over || v.deal_number <= game.shownDeal + 1 || game.finished) return;
  const old = before && before.view.deal_number === v.deal_number - 1 ? before : null;
  const hands = last.hands;
  game.finished = {
    ...game.state,
    finished: last,
    view: {
      ...v, deal_number: v.deal_number - 1, table: last.table || (old ? old.view.table : []),
      pile: last.pile || [], pile_size: (last.pile || []).length, hand: hands[v.seat] || [],
      hand_sizes: hands.map((h) => h.length), legal_actions: [], to_move: null, phase: "over",
      history: old ? old.view.history : [], history_length: old ? old.view.history_length : 0,
      events: old ? old.view.events : [], pile_draws: old ? old.view.pile_draws : [],
      stock_size: old ? old.view.stock_size : 0, totals: v.totals, revealed: hands,
    },
    table: { ...game.state.table, undo: false, time_left: null },
  };
}

// Where melded cards score (rummy500), ``melded`` gives each seat's melded points: the
// deal's points are those less the cards left in hand, and the table shows both.
export function handTable(names, hands, points, totals, melded = null) {
  const table = el("table", { class: "data hands" });
  const heads = [t("th.player"), t("th.hand"), ...(melded ? [t("th.melded")] : []), t("th.points"), t("th.total")];
  table.append(el("tr", {}, ...heads.map((text) => el("th", { text }))));
  names.forEach((name, i) => {
    const cell = el("td");
    for (const c of hands[i]) cell.append(cardEl(c, { small: true }));
    if (!hands[i].length) cell.append("–");
    const laid = melded ? [el("td", { text: melded[i] })] : [];
    table.append(el("tr", {}, el("td", { text: name }), cell, ...laid, el("td", { text: points[i] }), el("td", { text: totals[i] })));
  });
  return table;
}

export const FINISHED_MS = 1500;  // how long a finished deal shows before its summary

export function summaries() {
  const v = game.state.view, tb = game.state.table;
  const names = tb.seats.map((s) => s.name);
  const body = document.getElementById("summary-body");
  const dialog = document.getElementById("summary");
  const endedEarly = tb.ended_by !== null && tb.ended_by !== undefined;
  if ((v.match_over || endedEarly) && !game.shownMatchEnd) {
    game.shownMatchEnd = true;
    const result = v.match_over ? v.deal_result : null;
    body.replaceChildren(el("h2", { id: "summary-title", text: endedEarly ? t("status.ended_left", { name: names[tb.ended_by] })
        : tb.abandoned ? t("status.abandoned")
        : v.match_winner === null ? t("match.tie") : t("match.winner", { name: names[v.match_winner] }) }),
      el("p", { class: "match-end", text: endedEarly ? t("match.ended_left", { name: names[tb.ended_by] })
        : tb.abandoned ? t("match.abandoned") : matchEndText() }));
    if (result) {
      body.append(el("p", { text: dealEndText(result, names) }));
      body.append(handTable(names, v.revealed_hands, result.points, v.totals, tb.melded), hintsLine(v.deal_number));
    }
    if (tb.settlement) body.append(el("p", { class: "settlement", text: settlementText(names, tb.settlement) }));
    if (tb.rated) body.append(ratingsLine());
    body.append(sheetTable());
    // A finished match's record and replay are open to whoever has the table's link:
    // these links hold no secret.
    const record = `/api/tables/${tableId}/record`;
    const replay = `/replay?table=${tableId}`;
    // The review is everyone's once the match is over, spectators' too.
    const reviewLink = el("a", { href: `${replay}&review=1`, id: "review-link" }, t("link.review"));
    if (!watching) {  // the record and the rematch are the players'
      body.append(el("p", {}, el("a", { href: record, download: `rummykit-${tableId}.json`, id: "download" }, t("link.download")), " · ",
        el("a", { href: replay, id: "watch" }, t("link.replay")), " · ", reviewLink));
      body.append(el("p", {}, el("button", { type: "button", id: "rematch", onclick: rematch }, t("btn.rematch"))));
    } else body.append(el("p", {}, el("a", { href: replay, id: "watch" }, t("link.replay")), " · ", reviewLink));
    if (!dialog.open) dialog.showModal();
    return;
  }
  if (v.last_deal && v.deal_number > game.shownDeal + 1 && !v.match_over) {
    game.shownDeal = v.deal_number - 1;
    const r = v.last_deal;
    // A person whose seat the computer plays sees each deal's summary: "I'm back" is
    // right there too.
    const mine = watching ? null : tb.seats[v.seat];
    const back = mine && mine.standin ? el("p", {}, el("button", { type: "button", id: "summary-back",
      onclick: () => { message({ type: "back" }); dialog.close(); } }, t("btn.back"))) : "";
    body.replaceChildren(el("h2", { id: "summary-title", text: t("deal.over", { n: v.deal_number - 1 }) }),
      el("p", { text: dealEndText(r, names) }),
      handTable(names, r.hands, r.points, v.totals, tb.last_melded), hintsLine(v.deal_number - 1), back);
    // The last move and every hand are on the table first; then the summary comes.
    clearTimeout(summaries.timer);
    summaries.timer = setTimeout(() => { if (!dialog.open) dialog.showModal(); }, reduced ? 0 : FINISHED_MS);
  }
  if (game.state.table.rematch && !watching) {
    const link = document.getElementById("rematch-link") || el("a", { id: "rematch-link" }, t("link.rematch"));
    link.href = `${game.state.table.rematch}?seat=${game.state.view.seat}`;  // this browser keeps its seat
    if (!link.isConnected) body.append(el("p", {}, link));
  }
}

// What a rated match did to each player's rating, once the server has stored it:
// "Ann 1532 → 1547 (+15)". The line fills in when the answer comes.
function ratingsLine() {
  const line = el("p", { id: "rating-changes", class: "rating-changes", text: t("rated.storing") });
  const ask = async (tries) => {
    try {
      const answer = await api(`/api/tables/${tableId}/ratings`);
      if (!answer.changes.length) {
        if (tries > 0) setTimeout(() => ask(tries - 1), 500);
        else line.textContent = game.state.table.abandoned ? t("rated.none") : t("rated.storing");
        return;
      }
      const mine = watching ? null : game.state.view.seat;
      line.replaceChildren(el("strong", { text: t("rated.title") + " " }),
        ...answer.changes.flatMap((c, i) => [i ? " · " : "", el("span", {
          class: c.seat === mine ? "mine" : "", "data-seat": String(c.seat),
          text: t("rated.change", { name: c.name, before: c.before, after: c.after,
                                    change: (c.change >= 0 ? "+" : "") + c.change })
            + (c.provisional ? ` ${t("rated.provisional_mark")}` : "") })]));
    } catch (err) { line.textContent = refusalText(err); }
  };
  ask(20);
  return line;
}

// How a deal ended: who went out (with a rummy), or why nobody did.
export function dealEndText(result, names) {
  if (result.winner !== null) return t(result.rummy ? "deal.rummy" : "deal.out", { name: names[result.winner] });
  const why = result.end ? t(`end.deal.${result.end}`, { repetition: repetitionOf() }) : t("end.deal.none");
  return t("deal.nobody", { why });
}

export function repetitionOf() {
  const match = /repetition=(\d+)/.exec(game.state.table.rules);
  return match ? match[1] : "3";
}

// Why the match ended, in words.
export function matchEndText() {
  const v = game.state.view, tb = game.state.table;
  const best = Math.max(...v.totals), leader = v.totals.indexOf(best);
  switch (v.match_end) {
    case "one-deal": return t("end.match.one-deal");
    case "target": return t("end.match.target", { target: tb.target, name: nameOf(leader), points: best });
    case "dealt-once": return t("end.match.dealt-once");
    case "deals": return t("end.match.deals", { n: v.sheet.length });
    case "elimination": return t("end.match.elimination");
    default: return "";
  }
}

// 500 Rum: the winner collects from each opponent the difference of their totals.
export function settlementText(names, pay) {
  const winner = pay.findIndex((p) => p > 0);
  const payers = names.map((n, i) => (pay[i] < 0 ? t("settlement.pays", { name: n, n: -pay[i] }) : null)).filter(Boolean);
  if (winner < 0) return t("settlement.none");
  return t("settlement.text", { name: names[winner], n: pay[winner], payers: payers.join(", ") });
}

// Every finished deal's points for each player, then the totals.
export function sheetTable() {
  const v = game.state.view, names = game.state.table.seats.map((s) => s.name);
  const table = el("table", { class: "data sheet", id: "sheet-table" });
  table.append(el("tr", {}, el("th", { text: t("th.deal") }), ...names.map((n) => el("th", { text: n }))));
  v.sheet.forEach((points, i) => table.append(el("tr", {}, el("td", { text: String(i + 1) }), ...points.map((p) => el("td", { text: String(p) })))));
  table.append(el("tr", { class: "total" }, el("td", { text: t("th.total") }), ...v.totals.map((p) => el("td", { text: String(p) }))));
  return table;
}

export function showSheet() {
  if (!game.state) return;
  const body = document.getElementById("sheet-body");
  body.replaceChildren(sheetNote(), sheetTable());
  const dialog = document.getElementById("sheet");
  if (!dialog.open) dialog.showModal();
}

export function sheetNote() {
  const v = game.state.view;
  return el("p", { class: "muted", text: !v.sheet.length ? t("sheet.empty") : v.match_over ? tn("sheet.over", v.sheet.length) : tn("sheet.after", v.sheet.length, { deal: v.deal_number }) });
}

// "Hints used: Anna 2": who asked for hints in a deal (nothing when nobody did).
export function hintsLine(deal) {
  const counts = (game.state.table.hints || {})[String(deal)];
  if (!counts || !counts.some((n) => n)) return el("p", { class: "hints-used", text: t("hints.none") });
  const names = game.state.table.seats.map((s) => s.name);
  return el("p", { class: "hints-used", text: t("hints.used", { list: names.map((n, i) => counts[i] ? `${n} ${counts[i]}` : null).filter(Boolean).join(", ") }) });
}

export async function rematch() {
  try {
    const answer = await api(`/api/tables/${tableId}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(token ? { token, key } : { seat: Number(game.seatNumber), key }),
    });
    window.location.href = answer.link;
  } catch (err) { showError(refusalText(err)); }
}

// Closing a deal's summary tells the table this person has read it: the bots wait for
// everyone (a short while at most) before the next deal goes on.
// Continue: the next deal is drawn at once (the dialog's close event comes a moment later).
document.getElementById("summary-close").addEventListener("click", () => {
  if (game.finished) { game.finished = null; if (game.state) render(); }
});

document.getElementById("summary").addEventListener("close", () => {
  if (!watching && game.socket && game.socket.readyState === WebSocket.OPEN) game.socket.send(JSON.stringify({ type: "seen" }));
  if (game.finished) { game.finished = null; if (game.state) render(); }  // now the next deal
});
