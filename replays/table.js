// The replay viewer's one adapter to the web client's table components (api/webclient
// cardTable.js and diceTable.js, bundled into the page by replays/html.py): a step's full view drawn
// as the table draws it, plus what only a replay shows (every hand, the deck, the removed
// cards). When the table's modules change shape, only this file follows them.
import {drawCardTable} from "./cardTable.js";
import {drawDiceTable, fieldWords} from "./diceTable.js";
import {cardChip, el} from "./dom.js";

function chips(cards, testid) {
  return el("span", {class: "cards", "data-testid": testid, "data-cards": cards.join(" ")},
            cards.length ? cards.map((c) => cardChip(c)) : [el("span", {class: "muted", text: "–"})]);
}

// Every hand, the draw pile and the cards removed face down (S1): the replay shows them all.
function hiddenCards(view, ctx) {
  const hands = (view.hands || []).map((hand, seat) =>
    el("p", {class: "hand-line"}, [el("span", {class: "who", text: ctx.name(seat) + ": "}), chips(hand, "hand-" + seat)]));
  const parts = [el("h3", {text: "Hands"}), ...hands];
  if (view.deck) parts.push(el("p", {class: "hand-line"}, [el("span", {class: "who", text: "draw pile, top first: "}), chips(view.deck, "deck")]));
  if ((view.removed || []).length) {
    parts.push(el("p", {class: "hand-line"}, [el("span", {class: "who", text: "removed face down (S1): "}), chips(view.removed, "removed")]));
  }
  return el("section", {class: "hand replay-hands", "aria-label": "hands and hidden cards"}, parts);
}

// The nodes of one step's table; ctx is {name(seat), initial(seat)}.
export function drawStep(game, view, ctx) {
  const box = el("div", {});
  const opts = {seat: null, name: ctx.name};
  if (game === "keltis-card") {
    drawCardTable(box, {...view, hands: undefined, hand: undefined}, opts);
    return [...box.childNodes, hiddenCards(view, ctx)];
  }
  if (game === "keltis-dice") {
    drawDiceTable(box, view, opts);
    return [...box.childNodes];
  }
  return null;
}

// How a step's lines name a dice field, as the board and the tables do ("the field worth -2"):
// the field namer of words.js eventWords, or undefined (its default) for any other game.
export function fieldNamer(game, view) {
  if (game !== "keltis-dice" || !view || !view.board) return undefined;
  return (colour, number) => fieldWords(view.board, colour, number);
}
