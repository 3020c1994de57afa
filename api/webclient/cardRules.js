// Why a card of the hand cannot go to a row now, in words with its docs/RULES.md id: a pure
// function of the public view (the server's legal moves decide; this only explains).
import {COLOURS, splitCard} from "./dom.js";

const valueOf = (card) => {
  const {value} = splitCard(card);
  return value === "end" ? null : Number(value);
};

export function layReason(card, seat, view) {
  const {kind} = splitCard(card);
  if (view.final_round && view.final_round.laid_this_turn >= 2) {
    return "you have laid two cards in this final round (E3)";
  }
  if (kind === "point") return "";
  const row = seat.rows[kind];
  if (!COLOURS.includes(kind) || !row) return "";
  const last = row.cards.length ? row.cards[row.cards.length - 1] : null;
  const lastWords = last ? splitCard(last).value : "";
  if (row.closed) return kind + " row is closed by its end card; it only takes the second end card (P3)";
  const value = valueOf(card);
  if (value === null || last === null) return "";
  const lastValue = valueOf(last);
  if (row.direction === "ascending" && value < lastValue) return kind + " row rises; its last card is " + lastWords + " (P3)";
  if (row.direction === "descending" && value > lastValue) return kind + " row falls; its last card is " + lastWords + " (P3)";
  return "";
}
