// Moves and events in the reader's words ("ann lays blue 7 on their blue row"): the web
// client's translated twin of replays/words.js, whose English it keeps word for word (the
// replay viewer's own lines stay in words.js; its tables draw with this module).
import {colourName, t} from "./i18n.js";
import {IDLE_TURNS, TURN_LIMIT} from "./words.js";

export {IDLE_TURNS, TURN_LIMIT};

const IDLE_WARNING = 20;
const TURNS_WARNING = 20;

// "a and b", "a, b and c" in the reader's language.
export function andList(items) {
  const all = items.map(String);
  if (all.length < 2) return all.join("");
  return all.slice(0, -1).join(", ") + t("words.and") + all[all.length - 1];
}

export function cardWords(card) {
  const cut = card.lastIndexOf("-");
  const kind = card.slice(0, cut), value = card.slice(cut + 1);
  if (kind === "point") return t("card.point", {value});
  return value === "end" ? t("card.end", {colour: colourName(kind)}) : t("card.number", {colour: colourName(kind), value});
}

export const pileWords = (pile) => (pile === "point" ? t("pile.point") : t("pile.colour", {colour: colourName(pile)}));

// A die's face: a colour, or the wishing stone.
export const faceWords = (face) => t(face === "stone" ? "face.stone" : "colour." + face);

export function moveWords(move) {
  switch (move.action) {
    case "discard": return t("move.discard", {card: cardWords(move.card)});
    case "lay":
      if (move.row === "point") return t("move.layOnPointRow", {card: cardWords(move.card)});
      if (move.row && move.row !== move.card.split("-")[0]) return t("move.layOnRow", {card: cardWords(move.card), row: colourName(move.row)});
      return t("move.lay", {card: cardWords(move.card)});
    case "wish": return t("move.wish", {cards: andList(move.cards.map(cardWords))});
    case "draw": return move.source === "deck" ? t("move.drawDeck") : t("move.drawPile", {pile: pileWords(move.source)});
    case "stop": return t("move.stop");
    case "keep": return t("move.keep");
    case "reroll": return t("move.reroll", {dice: move.dice.map((d) => d + 1).join(", ")});
    case "move": return t("move.move", {colour: colourName(move.color)});
    case "clover": return t("move.clover", {colour: colourName(move.color)});
    case "pass": return t("move.pass");
    default: return JSON.stringify(move);
  }
}

const serviceRule = (game, card, dice) => t("rule.service", {id: game === "keltis-dice" ? dice : card});

// Why a game ended, words to follow "Game over: " (see words.js endWords); "" when unknown.
export function endWords(ending, game) {
  switch (ending) {
    case "idle_turns": return t("end.idle_turns", {count: IDLE_TURNS, rule: serviceRule(game, "E4", "F5")});
    case "turn_limit": return t("end.turn_limit", {limit: TURN_LIMIT, rule: serviceRule(game, "E5", "F6")});
    case "deck_empty": case "fifth_row": case "goal_markers": case "all_markers_in_goal":
    case "forfeit": case "cancelled": case "aborted":
      return t("end." + ending);
    default: return "";
  }
}

// A short warning for a game still played that nears a service rule's end; "" otherwise.
export function endingSoonWords(view, game) {
  if (!view || view.result || view.final_round || typeof view.idle_turns !== "number") return "";
  const idleLeft = IDLE_TURNS - view.idle_turns;
  if (view.idle_turns >= IDLE_WARNING && idleLeft > 0 && !view.progressed) {
    const how = t(game === "keltis-dice" ? "soon.how.dice" : "soon.how.card");
    return t("soon.idle", {count: idleLeft, how, rule: serviceRule(game, "E4", "F5")});
  }
  const turnsLeft = TURN_LIMIT - view.turns;
  if (turnsLeft > 0 && turnsLeft <= TURNS_WARNING) {
    return t(turnsLeft === 1 ? "soon.lastTurn" : "soon.turns", {count: turnsLeft, limit: TURN_LIMIT, rule: serviceRule(game, "E5", "F6")});
  }
  return "";
}

// What started a card game's final round (E3), to follow "Final round: ".
export function finalRoundWords(reason) {
  if (reason === "idle_turns") return t("final.idle_turns", {count: IDLE_TURNS, rule: t("rule.service", {id: "E4"})});
  if (reason === "turn_limit") return t("final.turn_limit", {limit: TURN_LIMIT, rule: t("rule.service", {id: "E5"})});
  return t(reason === "deck_empty" ? "final.deck_empty" : "final.fifth_row");
}

// An event (or a log entry holding one) in words; `name(seat)` names a seat, `field(colour,
// n)` a dice field.
export function eventWords(entry, name, field = (colour, n) => t("field.number", {n})) {
  const e = entry.event || entry;
  const who = e.seat === undefined ? "" : name(e.seat);
  const say = (key, params = {}) => t("event." + key, {who, ...params});
  switch (e.type) {
    case "game_created": return say("game_created", {players: e.players.map((p) => p.name || t("event.openSeat")).join(", ")});
    case "seat_joined": return say("seat_joined", {seat: e.seat});
    case "game_started": case "dice_kept": case "player_stopped": case "clover_gained": case "kobold_gained":
    case "passed": case "turn_timed_out": case "game_cancelled":
      return say(e.type);
    case "cards_dealt": return say("cards_dealt", {count: e.count});
    case "card_discarded": return say("card_discarded", {card: cardWords(e.card), pile: pileWords(e.pile)});
    case "card_laid": return e.row === "point" ? say("card_laid_point", {card: cardWords(e.card)})
                                               : say("card_laid", {card: cardWords(e.card), row: colourName(e.row)});
    case "stone_wished": return say("stone_wished", {cards: andList(e.cards.map(cardWords)), stone: e.stone});
    case "card_drawn": {
      if (e.source !== "deck") return say("card_taken", {card: cardWords(e.card), pile: pileWords(e.source)});
      const card = e.card || (e.hidden && e.hidden.card);
      return say("card_drawn", {card: card ? cardWords(card) : t("event.aCard")});
    }
    case "final_round_started": return say("final_round_started", {reason: finalRoundWords(e.reason)});
    case "dice_rolled": case "dice_rerolled": return say(e.type, {dice: e.dice.map(faceWords).join(", ")});
    case "marker_moved": return e.from
      ? say("marker_moved", {colour: colourName(e.color), from: field(e.color, e.from), to: field(e.color, e.to)})
      : say("marker_placed", {colour: colourName(e.color), to: field(e.color, e.to)});
    case "tile_taken": return say(e.cause === "stones" ? "tile_rolled" : "tile_taken");
    case "seat_forfeited": return say("seat_forfeited", {reason: e.reason});
    case "bot_fallback": return e.seats.length
      ? say("bot_fallback", {count: e.seats.length, reason: e.reason, seats: andList(e.seats.map(name)), bot: e.bot})
      : say("bot_refilled", {reason: e.reason});
    case "game_ended": {
      // Only the dice game's end event carries `reason` (and `goal_markers`).
      const ending = endWords(e.ended_by || e.reason, "reason" in e || "goal_markers" in e ? "keltis-dice" : "keltis-card");
      if (ending) return say("overBecause", {ending});
      return e.reason ? say("overReason", {reason: e.reason.replaceAll("_", " ")}) : say("over");
    }
    case "game_ended_early": return say("overBecause", {ending: endWords(e.reason) || t("event.endedEarly")});
    default: return e.type.replaceAll("_", " ") + (e.seat !== undefined ? " (" + who + ")" : "") + ".";
  }
}
