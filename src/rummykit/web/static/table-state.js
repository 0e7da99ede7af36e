// The table page's state: who this page is, the one object that holds everything it
// knows, and the questions every part asks of it (what is legal, whose seat is which).

export const tableId = window.location.pathname.split("/").pop();
export const query = new URLSearchParams(window.location.search);
export const token = query.get("token") || "";
export const watching = query.has("watch");  // a spectator: the public view, no hand, no actions
if (watching) document.body.classList.add("watching");
export const key = browserKey();

// Everything this page knows, in one place: the last message from the server (`state`)
// and what the player did with it here.
export const game = {
  state: null,          // the last message from the server
  oneSeat: false,       // refused: this browser has another seat here (its own screen)
  shown: null,          // what the page draws: the state, or a finished deal held in view
  finished: null,       // the deal just over, shown until its summary is closed
  order: [],            // the hand in the order the player arranged it
  selected: new Set(),  // indices into `order`
  focus: 0,             // keyboard focus in the hand
  socket: null,
  retry: 0,
  seatNumber: query.get("seat"),  // a seat this browser claimed (from "my tables")
  closedFor: null,      // why the server closed this page's connection for another
  shownDeal: 0,         // the deal whose summary was shown last
  shownMatchEnd: false,
  hinted: null,         // the last hint: {seq, action, reason}
  hintAsked: null,      // the position a hint was asked for (a later one drops it)
  fresh: [],            // cards of the hand that arrived with this seat's last draw
  rendered: null,       // the state the page shows now (for motion)
  chatLines: [],
  clockEnd: null,
  whySeq: null,         // the position a shown "why" was said of
  deepChoice: null,     // a pile card below the top clicked once (rummy500)
};

// For the browser's console and the tests: the last message, the keyboard's place.
Object.defineProperty(window, "state", { get: () => game.state, configurable: true });
Object.defineProperty(window, "focus", { get: () => game.focus, configurable: true });
window.tableId = tableId;

export function legal() { return (game.state && game.state.view.legal_actions) || []; }

export function selectedCards() { return [...game.selected].sort((a, b) => a - b).map((i) => game.order[i]); }

export function sameCards(a, b) { return a.length === b.length && [...a].sort().join() === [...b].sort().join(); }

export function nameOf(seat) { return game.state.table.seats[seat].name; }

export function message(body) {
  if (game.socket && game.socket.readyState === WebSocket.OPEN) game.socket.send(JSON.stringify(body));
}

export function canDo(text) { return !game.finished && legal().includes(text); }

export function layoffOptions(cards, number) {
  if (cards.length !== 1) return [];
  return legal().filter((a) => a === `layoff ${cards[0]} ${number}` || a === `layoff ${cards[0]} ${number} low`);
}

export function meldOptions(cards) {
  return legal().filter((a) => a.startsWith("meld ") && sameCards(a.split(" ").slice(1), cards));
}

// A refusal in the page's language: from its code and params where the catalog has the
// code, else the server's own words.
export function refusalText(message) {
  if (!message.code || !has(`refusal.${message.code}`)) return message.message;
  const params = {};
  for (const [name, value] of Object.entries(message.params || {})) {
    if (name === "card" && typeof value === "string") params[name] = cardText(value);
    else if (name === "cards" && typeof value === "string") params[name] = value.split(" ").map(cardText).join(" ");
    else if (name === "player" || name === "name") params[name] = typeof value === "number" ? nameOf(value) : value;
    else params[name] = Array.isArray(value) ? value.join(" ") : value;
  }
  return t(`refusal.${message.code}`, params);
}
