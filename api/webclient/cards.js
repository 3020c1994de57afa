// The card game's table: every seat's rows, piles, deck, stones; the viewer's hand; moves.
import {COLOURS, cardChip, colourTag, el} from "./dom.js";
import {moveWords} from "./words.js";

const ROWS = [...COLOURS, "point"];

function cards(list, testid, empty) {
  return el("span", {class: "cards", "data-testid": testid},
            list.length ? list.map((c) => cardChip(c)) : [el("span", {class: "muted", text: empty || "–"})]);
}

function stones(values, testid) {
  return el("span", {class: "stones", "data-testid": testid, "data-stones": values.join(" ")},
            values.length ? values.map((v) => el("span", {class: "stone", title: "wishing stone " + v, text: String(v)}))
                          : [el("span", {class: "muted", text: "none"})]);
}

function seatPanel(seat, view, ctx) {
  const mine = seat.seat === ctx.seat;
  const rows = COLOURS.map((colour) => {
    const row = seat.rows[colour];
    const arrow = row.direction === "ascending" ? "↑ rising" : row.direction === "descending" ? "↓ falling" : "";
    return el("tr", {class: row.closed ? "closed" : ""}, [
      el("th", {scope: "row"}, [colourTag(colour)]),
      el("td", {}, [cards(row.cards, "row-" + seat.seat + "-" + colour)]),
      el("td", {class: "muted", text: (arrow + (row.closed ? " · closed" : "")).replace(/^ · /, "")}),
    ]);
  });
  rows.push(el("tr", {}, [el("th", {scope: "row"}, [colourTag("point")]),
                          el("td", {colspan: "2"}, [cards(seat.point_row, "row-" + seat.seat + "-point")])]));
  const toMove = view.to_move === seat.seat && !view.result;
  return el("section", {class: "seat" + (toMove ? " to-move" : "") + (mine ? " mine" : ""),
                        "data-testid": "seat-" + seat.seat, "aria-label": ctx.name(seat.seat)}, [
    el("h3", {}, [ctx.name(seat.seat) + (mine ? " (you)" : ""), toMove ? el("span", {class: "badge", text: "to move"}) : null]),
    el("p", {class: "facts"}, [
      "score ", el("b", {"data-testid": "score-" + seat.seat, text: String(seat.score)}),
      " · cards in hand ", el("b", {"data-testid": "hand-size-" + seat.seat, text: String(seat.hand_size)}),
      " · stones ", stones(seat.stones, "stones-" + seat.seat),
    ]),
    el("table", {class: "rows"}, [el("tbody", {}, rows)]),
  ]);
}

export function renderTable(game, ctx) {
  const view = game.view;
  const piles = ROWS.map((name) => el("div", {class: "pile"}, [
    el("div", {}, [colourTag(name), view.banned_piles.includes(name) ? el("span", {class: "muted", text: " (just discarded)"}) : null]),
    cards(view.piles[name], "pile-" + name, "empty"),
  ]));
  const final = view.final_round;
  const centre = el("section", {class: "centre", "aria-label": "table"}, [
    el("p", {class: "facts"}, [
      "deck ", el("b", {"data-testid": "deck-size", text: String(view.deck_size)}), " cards",
      " · ", String(view.removed_count), " removed face down",
      " · wishing stones on the table ", stones(view.stones_on_table, "stones-table"),
      " · closed rows ", String(view.closed_rows),
    ]),
    final ? el("p", {class: "notice", "data-testid": "final-round",
                     text: "Final round (" + (final.reason === "deck_empty" ? "the deck ran out" : "a fifth row closed") + ")"}) : null,
    el("h3", {text: "Discard piles"}),
    el("div", {class: "piles"}, piles),
  ]);
  const parts = [centre];
  if (ctx.seat !== null && view.hand) {
    parts.push(el("section", {class: "hand", "aria-label": "your hand"}, [
      el("h3", {text: "Your hand"}), cards(view.hand, "hand", "empty")]));
  }
  if (view.hands) {
    parts.push(el("section", {class: "hand"}, [el("h3", {text: "Hands at the end"}),
      ...view.hands.map((hand, seat) => el("p", {}, [ctx.name(seat) + ": ", cards(hand, "final-hand-" + seat, "empty")]))]));
  }
  parts.push(el("div", {class: "seats"}, view.seats.map((seat) => seatPanel(seat, view, ctx))));
  return parts;
}

const GROUPS = [["lay", "Lay a card"], ["discard", "Discard a card"], ["draw", "Draw a card"],
                ["wish", "Wish for a stone"], ["stop", "End"]];

function moveButton(move, ctx) {
  const label = moveWords(move);
  const chips = move.card ? [cardChip(move.card)] : move.cards ? move.cards.map((c) => cardChip(c)) : [];
  const extra = move.action === "lay" && move.row && move.card.split("-")[0] !== move.row ? " → " + move.row : "";
  const text = move.action === "draw" ? (move.source === "deck" ? "deck" : move.source + " pile")
             : move.action === "stop" ? "stop" : extra;
  return el("button", {type: "button", class: "move", "data-testid": "move", "data-move": JSON.stringify(move),
                       title: label, "aria-label": label, on: {click: () => ctx.send(move)}},
            [...chips, text ? el("span", {text}) : null]);
}

export function renderMoves(moves, ctx) {
  return GROUPS.filter(([action]) => moves.some((m) => m.action === action)).map(([action, title]) =>
    el("div", {class: "move-group"}, [el("h4", {text: title}),
      el("div", {class: "buttons"}, moves.filter((m) => m.action === action).map((m) => moveButton(m, ctx)))]));
}
