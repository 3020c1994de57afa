// Why a card of the hand cannot go to a row now, in words with its docs/RULES.md id: a pure
// function of the public view (the server's legal moves decide; this only explains).
import {COLOURS, splitCard} from "./dom.js";
import {colourName, t} from "./i18n.js";

const valueOf = (card) => {
  const {value} = splitCard(card);
  return value === "end" ? null : Number(value);
};

export function layReason(card, seat, view) {
  const {kind} = splitCard(card);
  if (view.final_round && view.final_round.laid_this_turn >= 2) {
    return t("reason.twoLaid");
  }
  if (kind === "point") return "";
  const row = seat.rows[kind];
  if (!COLOURS.includes(kind) || !row) return "";
  const last = row.cards.length ? row.cards[row.cards.length - 1] : null;
  const lastWords = last ? splitCard(last).value : "";
  if (row.closed) return t("reason.closed", {colour: colourName(kind)});
  const value = valueOf(card);
  if (value === null || last === null) return "";
  const lastValue = valueOf(last);
  if (row.direction === "ascending" && value < lastValue) return t("reason.rises", {colour: colourName(kind), last: lastWords});
  if (row.direction === "descending" && value > lastValue) return t("reason.falls", {colour: colourName(kind), last: lastWords});
  return "";
}
