// What an event touched on a table, as `data-spot` keys the table modules put on their
// elements ("row-1-blue", "pile-green", "deck", "field-pink-4", ...): a pure function.
export function eventSpots(event) {
  const e = event.event || event;
  switch (e.type) {
    case "card_laid": return ["row-" + e.seat + "-" + e.row];
    case "card_discarded": return ["pile-" + e.pile, "hand-" + e.seat];
    case "stone_wished": return ["stones-" + e.seat, "stones-table", ...e.cards.map((c) => "pile-" + c.slice(0, c.lastIndexOf("-")))];
    case "card_drawn": return [e.source === "deck" ? "deck" : "pile-" + e.source, "hand-" + e.seat];
    case "player_stopped": return ["seat-" + e.seat];
    case "dice_rolled": case "dice_rerolled": case "dice_kept": return ["dice"];
    case "marker_moved": return ["field-" + e.color + "-" + e.to];
    case "tile_taken": return ["tiles-" + e.seat];
    case "clover_gained": case "kobold_gained": case "passed": return ["seat-" + e.seat];
    default: return [];
  }
}

// Events another seat made, worth showing one by one (not deals, joins or the bookkeeping).
export function shownEvent(event, viewer) {
  const e = event.event || event;
  return e.seat !== undefined && e.seat !== viewer && eventSpots(e).length > 0 && e.type !== "cards_dealt";
}

// Mark the spots an event touched in `root` (class "touched"), clearing earlier marks.
export function markSpots(root, spots) {
  for (const node of root.querySelectorAll(".touched")) node.classList.remove("touched");
  for (const spot of spots) {
    for (const node of root.querySelectorAll('[data-spot="' + CSS.escape(spot) + '"]')) node.classList.add("touched");
  }
}
