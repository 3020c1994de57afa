// Moves and events in words ("ann lays blue 7 on their blue row"): the web client imports
// this module, and the replay viewer (replays/html.py) inlines it. No imports of its own.

export function cardWords(card) {
  const cut = card.lastIndexOf("-");
  const kind = card.slice(0, cut), value = card.slice(cut + 1);
  return kind === "point" ? "point card " + value : kind + " " + (value === "end" ? "end card" : value);
}

const PILE = (pile) => pile === "point" ? "the point-card pile" : "the " + pile + " pile";

export function moveWords(move) {
  switch (move.action) {
    case "discard": return "Discard " + cardWords(move.card);
    case "lay": return "Lay " + cardWords(move.card) + (move.row && move.row !== move.card.split("-")[0]
      ? " on your " + move.row + " row" : move.row === "point" ? " on your point row" : "");
    case "wish": return "Wish: trade " + move.cards.map(cardWords).join(" and ") + " for a wishing stone";
    case "draw": return move.source === "deck" ? "Draw from the deck" : "Draw from " + PILE(move.source);
    case "stop": return "Stop (end your part of the final round)";
    case "keep": return "Keep the dice";
    case "reroll": return "Reroll dice " + move.dice.map((d) => d + 1).join(", ");
    case "move": return "Move your " + move.color + " marker";
    case "clover": return "Clover: your " + move.color + " marker one field on, or a new one on field 1";
    case "pass": return "Pass";
    default: return JSON.stringify(move);
  }
}

// An event (or a log entry holding one) in words; `name(seat)` names a seat, `field(colour,
// n)` a dice field (a table names it by its value: "the field worth -2").
export function eventWords(entry, name, field = (colour, n) => "field " + n) {
  const e = entry.event || entry;
  const who = (seat) => name(seat);
  switch (e.type) {
    case "game_created": return "Game created for " + e.players.map((p) => p.name || "an open seat").join(", ") + ".";
    case "seat_joined": return who(e.seat) + " takes seat " + e.seat + ".";
    case "game_started": return "The game starts.";
    case "cards_dealt": return who(e.seat) + " is dealt " + e.count + " cards.";
    case "card_discarded": return who(e.seat) + " discards " + cardWords(e.card) + " onto " + PILE(e.pile) + ".";
    case "card_laid": return who(e.seat) + " lays " + cardWords(e.card) + " on their " + e.row + " row.";
    case "stone_wished": return who(e.seat) + " trades " + e.cards.map(cardWords).join(" and ") + " for wishing stone " + e.stone + ".";
    case "card_drawn":
      if (e.source === "deck") return who(e.seat) + " draws " + (e.card ? cardWords(e.card) : e.hidden && e.hidden.card ? cardWords(e.hidden.card) : "a card") + " from the deck.";
      return who(e.seat) + " takes " + cardWords(e.card) + " from " + PILE(e.source) + ".";
    case "final_round_started": return "Final round: " + (e.reason === "deck_empty" ? "the deck is empty" : "a fifth row was closed") + ".";
    case "player_stopped": return who(e.seat) + " stops.";
    case "dice_rolled": return who(e.seat) + " rolls " + e.dice.join(", ") + ".";
    case "dice_rerolled": return who(e.seat) + " rerolls and gets " + e.dice.join(", ") + ".";
    case "dice_kept": return who(e.seat) + " keeps the dice.";
    case "marker_moved": return e.from ? who(e.seat) + " moves the " + e.color + " marker from " + field(e.color, e.from) + " to " + field(e.color, e.to) + "."
                                      : who(e.seat) + " places a new " + e.color + " marker on " + field(e.color, e.to) + ".";
    case "tile_taken": return who(e.seat) + " takes a stone tile" + (e.cause === "stones" ? " for rolling stones" : "") + ".";
    case "clover_gained": return who(e.seat) + " gains a clover move.";
    case "kobold_gained": return who(e.seat) + " meets a kobold and rolls again.";
    case "passed": return who(e.seat) + " passes.";
    case "turn_timed_out": return who(e.seat) + "'s time ran out.";
    case "seat_forfeited": return who(e.seat) + " forfeits (" + e.reason + ").";
    case "bot_fallback": return e.seats.length ? "Bot CPU " + e.reason + " spent: " + e.seats.map(who).join(" and ") + " move" + (e.seats.length === 1 ? "s" : "") + " by " + e.bot + "." : "Bot CPU " + e.reason + " refilled: the bots search again.";
    case "game_ended": return "The game is over" + (e.reason ? " (" + e.reason.replaceAll("_", " ") + ")" : "") + ".";
    case "game_cancelled": return "The game was cancelled.";
    default: return e.type.replaceAll("_", " ") + (e.seat !== undefined ? " (" + who(e.seat) + ")" : "") + ".";
  }
}
