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

// The service rules that end every game (domain/endless.py): IDLE_TURNS idle turns in a
// row (E4, F5) or the TURN_LIMIT-th turn (E5, F6). A table warns from IDLE_WARNING idle
// turns in a row, or TURNS_WARNING turns before the limit.
export const IDLE_TURNS = 30;
export const TURN_LIMIT = 400;
const IDLE_WARNING = 20;
const TURNS_WARNING = 20;

const serviceRule = (game, card, dice) => "service rule " + (game === "keltis-dice" ? dice : card);

// Why a game ended, words to follow "Game over: ", from its result's `ended` (an early end or
// an abort; else `ended_by`, the rules' end) and its game; "" when the result names neither (older logs).
export function endWords(ending, game) {
  switch (ending) {
    case "idle_turns": return "ended after " + IDLE_TURNS + " idle turns in a row (" + serviceRule(game, "E4", "F5") + ")";
    case "turn_limit": return "ended at the " + TURN_LIMIT + "-turn limit (" + serviceRule(game, "E5", "F6") + ")";
    case "deck_empty": return "the draw pile ran out (E2)";
    case "fifth_row": return "a fifth row was closed (E1)";
    case "goal_markers": return "enough markers reached the goal zone (F1)";
    case "all_markers_in_goal": return "one player had all 4 markers in the goal zone (F1)";
    case "forfeit": return "every other player forfeited";
    case "cancelled": return "the game was cancelled";
    case "aborted": return "aborted: a seat never made a move of its own, so no result counts";
    default: return "";
  }
}

// A short warning for a game still played that nears a service rule's end; "" otherwise. An
// idle turn: card, no card laid, no wish, no draw from the draw pile; dice, no marker moved.
export function endingSoonWords(view, game) {
  if (!view || view.result || view.final_round || typeof view.idle_turns !== "number") return "";
  const idleLeft = IDLE_TURNS - view.idle_turns;
  if (view.idle_turns >= IDLE_WARNING && idleLeft > 0 && !view.progressed) {
    const how = game === "keltis-dice" ? "move a marker" : "draw from the draw pile or lay a card";
    return idleLeft + (idleLeft === 1 ? " idle turn" : " idle turns") + " left before the game ends: " + how +
      " (" + serviceRule(game, "E4", "F5") + ").";
  }
  const turnsLeft = TURN_LIMIT - view.turns;
  if (turnsLeft > 0 && turnsLeft <= TURNS_WARNING) {
    return (turnsLeft === 1 ? "This is the last turn" : turnsLeft + " turns left") + " before the " + TURN_LIMIT +
      "-turn limit ends the game (" + serviceRule(game, "E5", "F6") + ").";
  }
  return "";
}

// What started a card game's final round (E3), to follow "Final round: ".
export function finalRoundWords(reason) {
  if (reason === "idle_turns") return IDLE_TURNS + " idle turns in a row (service rule E4)";
  if (reason === "turn_limit") return "the " + TURN_LIMIT + "th turn is over (service rule E5)";
  return reason === "deck_empty" ? "the deck is empty" : "a fifth row was closed";
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
    case "final_round_started": return "Final round: " + finalRoundWords(e.reason) + ".";
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
    case "game_ended": {
      // Only the dice game's end event carries `reason` (and `goal_markers`).
      const ending = endWords(e.ended_by || e.reason, "reason" in e || "goal_markers" in e ? "keltis-dice" : "keltis-card");
      return "The game is over" + (ending ? ": " + ending : e.reason ? " (" + e.reason.replaceAll("_", " ") + ")" : "") + ".";
    }
    case "game_ended_early": return "The game is over: " + (endWords(e.reason) || "it ended early") + ".";
    case "game_cancelled": return "The game was cancelled.";
    default: return e.type.replaceAll("_", " ") + (e.seat !== undefined ? " (" + who(e.seat) + ")" : "") + ".";
  }
}
