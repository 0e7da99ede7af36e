// Picking up a card of the hand and putting it down, with the mouse or a finger (Pointer
// Events): the card follows the pointer once it has moved a few pixels, the place under
// it lights up, and on release the page is told where it landed. A press that does not
// move stays a click (a tap selects the card).
const THRESHOLD = 8;

// Where a card let go at (x, y) lands: on the pile, on a meld, on the table (the melds'
// area), on a card of the hand, or nowhere.
export function targetAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  if (!hit) return null;
  const meld = hit.closest("#melds .meld");
  if (meld) return { kind: "meld", number: Number(meld.dataset.meld), node: meld };
  const pile = hit.closest("#pile-box");
  if (pile) return { kind: "pile", node: pile };
  const card = hit.closest("#hand .card");
  if (card) return { kind: "hand", index: [...card.parentNode.children].indexOf(card), node: card };
  const hand = hit.closest("#hand");
  if (hand) return { kind: "hand", index: -1, node: hand };
  const table = hit.closest("#melds-panel");
  if (table) return { kind: "table", node: table };
  return null;
}

export function startDrag(event, node, index, onDrop) {
  if (event.button !== 0 || !event.isPrimary) return;
  const startX = event.clientX, startY = event.clientY;
  const rect = node.getBoundingClientRect();
  let ghost = null, over = null;
  const light = (target) => {
    const lit = target ? target.node : null;
    if (over === lit) return;
    if (over) over.classList.remove("drop-over");
    over = lit;
    if (over) over.classList.add("drop-over");
  };
  const move = (e) => {
    if (e.pointerId !== event.pointerId) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - startX, e.clientY - startY) < THRESHOLD) return;
      ghost = node.cloneNode(true);
      ghost.classList.add("ghost", "dragging");
      for (const name of ["data-card", "data-key", "id", "role", "tabindex", "aria-pressed"]) ghost.removeAttribute(name);
      ghost.setAttribute("aria-hidden", "true");
      Object.assign(ghost.style, { position: "fixed", margin: "0", zIndex: "60", width: `${rect.width}px`,
        height: `${rect.height}px`, left: "0", top: "0" });
      document.body.append(ghost);
      node.classList.add("lifted");
      document.body.classList.add("dragging-card");
    }
    ghost.style.transform = `translate(${e.clientX - (startX - rect.left)}px, ${e.clientY - (startY - rect.top)}px)`;
    light(targetAt(e.clientX, e.clientY));
    e.preventDefault();
  };
  const done = (e, drop) => {
    if (e.pointerId !== event.pointerId) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    light(null);
    if (!ghost) return;
    ghost.remove();
    node.classList.remove("lifted");
    document.body.classList.remove("dragging-card");
    // The click that may follow this release is not a tap.
    node.dataset.dragged = "1";
    setTimeout(() => { delete node.dataset.dragged; }, 0);
    if (drop) onDrop(index, targetAt(e.clientX, e.clientY));
  };
  const up = (e) => done(e, true);
  const cancel = (e) => done(e, false);
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}
