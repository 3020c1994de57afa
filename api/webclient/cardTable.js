// The card game's table, drawn from a view: every seat's rows, the piles, the deck, the
// stones, the viewer's hand. With `moves` (the viewer's legal moves) it is played from the
// hand: pick a card, then its target (its row, its discard pile, a wishing stone with its
// pair); draw by the deck or a pile top. Without moves it only shows (spectators, replays).
// Things a move can touch carry `data-spot` (see tableSpots.js) for highlights.
import {COLOURS, cardChip, colourTag, el, plainWords, splitCard, withWhy} from "./dom.js";
import {layReason} from "./cardRules.js";
import {cardBreakdown, ROW_POINTS} from "./scoreBreakdown.js";
import {scoreTable} from "./scoreTable.js";
import {cardWords, endingSoonWords, finalRoundWords, moveWords} from "./tableWords.js";
import {colourName, t} from "./i18n.js";

const PILES = [...COLOURS, "point"];
const ARROW = {ascending: "table.rises", descending: "table.falls"};

export function cardBack(extra) {
  return el("span", {class: "card back" + (extra ? " " + extra : ""), "aria-hidden": "true"}, [el("span", {class: "mark", text: "✦"})]);
}

function stack(cards, testid, empty) {
  return el("span", {class: "cards", "data-testid": testid},
            cards.length ? cards.map((c) => cardChip(c)) : [el("span", {class: "muted", text: empty || "–"})]);
}

// A row as on a real table: its cards overlap, each showing its value at its corner, the
// last one whole; the strip keeps its size however long the row grows (the page never
// moves under a player's pointer).
function rowStrip(cards, testid) {
  return el("span", {class: "cards strip", "data-testid": testid},
            cards.length ? cards.map((c) => el("span", {class: "slot"}, [cardChip(c)]))
                         : [el("span", {class: "muted", text: "–"})]);
}

function stones(values, testid, spot) {
  return el("span", {class: "stones", "data-testid": testid, "data-stones": values.join(" "), "data-spot": spot},
            values.length ? values.map((v) => el("span", {class: "stone", title: t("table.stone", {value: v}), text: String(v)}))
                          : [el("span", {class: "muted", text: t("table.none")})]);
}

// The legal moves sorted by what a click on the table means.
function index(moves) {
  const lays = new Map();
  const discards = new Map();
  const wishes = [];
  const draws = new Map();
  let stop = null;
  for (const move of moves) {
    if (move.action === "lay") {
      const row = move.row || splitCard(move.card).kind;
      if (!lays.has(move.card)) lays.set(move.card, new Map());
      lays.get(move.card).set(row, move);
    } else if (move.action === "discard") discards.set(move.card, move);
    else if (move.action === "wish") wishes.push(move);
    else if (move.action === "draw") draws.set(move.source, move);
    else if (move.action === "stop") stop = move;
  }
  return {lays, discards, wishes, draws, stop, play: lays.size + discards.size + wishes.length > 0};
}

const same = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

function target(label, move, send, attrs, children) {
  return el("button", {type: "button", class: "target", "data-move": JSON.stringify(move), title: label,
                       "aria-label": label, ...attrs, on: {click: () => send(move)}}, children);
}

function rowColumn(seat, colour, ctx, pick) {
  const row = colour === "point" ? {cards: seat.point_row, closed: false, direction: null} : seat.rows[colour];
  const count = row.cards.length;
  const points = colour === "point" ? count : ROW_POINTS[Math.min(count, 9)];
  const head = el("div", {class: "row-head"}, [
    colourTag(colour),
    el("span", {class: "row-facts", text: [row.closed ? t("table.closed") : ARROW[row.direction] ? t(ARROW[row.direction]) : "", count ? (points > 0 ? "+" : "") + points : ""].filter(Boolean).join(" · ")}),
  ]);
  const body = rowStrip(row.cards, "row-" + seat.seat + "-" + colour);
  const parts = [head, body];
  if (pick && pick.cards.length === 1) {
    const move = pick.lays.get(colour);
    if (move) {
      parts.push(target(moveWords(move), move, ctx.send, {"data-testid": "target-row-" + colour, class: "target row-target", "data-key": "row-" + colour},
                        [el("span", {text: t("table.layHere")})]));
    } else if (colour === splitCard(pick.cards[0]).kind && pick.reason) {
      parts.push(el("p", {class: "reason", "data-testid": "reason-" + colour}, ["✕ ", ...withWhy(pick.reason)]));
    }
  }
  return el("div", {class: "row-col" + (row.closed ? " closed" : "") + (colour === "point" ? " point-col" : ""),
                    "data-spot": "row-" + seat.seat + "-" + colour}, parts);
}

function seatBoard(seat, view, ctx, pick) {
  const mine = seat.seat === ctx.seat;
  const toMove = view.to_move === seat.seat && !view.result;
  const breakdown = cardBreakdown(seat);
  const backs = mine || seat.hand_size === 0 ? [] : Array.from({length: seat.hand_size}, () => cardBack("small"));
  return el("section", {class: "seat" + (toMove ? " to-move" : "") + (mine ? " mine" : ""), "data-testid": "seat-" + seat.seat,
                        "data-spot": "seat-" + seat.seat, "aria-label": ctx.name(seat.seat) + (mine ? t("table.you") : "")}, [
    el("div", {class: "seat-head"}, [
      el("h3", {}, [ctx.name(seat.seat) + (mine ? t("table.you") : ""), toMove ? el("span", {class: "badge", text: t("table.toMove")}) : null]),
      el("span", {class: "facts"}, [
        t("table.hand") + " ", el("b", {"data-testid": "hand-size-" + seat.seat, text: String(seat.hand_size)}), " ",
        el("span", {class: "backs", "data-spot": "hand-" + seat.seat}, backs),
        " · " + t("table.stones") + " ", stones(seat.stones, "stones-" + seat.seat, "stones-" + seat.seat),
      ]),
      el("details", {class: "score-details", open: view.result ? true : undefined, "data-testid": "score-details-" + seat.seat}, [
        el("summary", {}, [t("table.score") + " ", el("b", {"data-testid": "score-" + seat.seat, text: String(seat.score)}), el("span", {class: "how", text: " · " + t("table.howItAddsUp")})]),
        el("div", {class: "score-pop"}, [
          scoreTable(breakdown, {title: t("table.scoreOf", {name: ctx.name(seat.seat)}), testid: "breakdown-" + seat.seat, shown: seat.score}),
          el("p", {class: "muted small"}, withWhy(t("table.rowScoring"))),
        ]),
      ]),
    ]),
    el("div", {class: "row-grid"}, PILES.map((colour) => rowColumn(seat, colour, ctx, mine ? pick : null))),
  ]);
}

function pileBox(name, view, moves, pick, ctx) {
  const cards = view.piles[name];
  const top = cards.length ? cards[cards.length - 1] : null;
  const drawMove = moves.draws.get(name);
  const discard = pick && pick.cards.length === 1 && splitCard(pick.cards[0]).kind === name ? moves.discards.get(pick.cards[0]) : null;
  const label = drawMove ? moveWords(drawMove) + (top ? " (" + cardWords(top) + ")" : "")
              : discard ? moveWords(discard) : t("table.pileName", {colour: colourName(name)});
  const face = top ? cardChip(top, "big") : el("span", {class: "card empty big", "aria-hidden": "true"});
  face.removeAttribute("data-card");  // the top card is counted once, in the pile's list below
  const move = drawMove || discard;
  const banned = view.banned_piles.includes(name);
  const inner = [el("span", {class: "pile-name"}, [colourTag(name)]), face,
                 el("span", {class: "pile-count", text: t("table.cards", {count: cards.length})}),
                 banned ? el("span", {class: "muted small", text: t("table.justDiscarded")}) : null,
                 discard ? el("span", {class: "hint", text: t("table.discard")}) : null];
  const box = move ? target(label, move, ctx.send, {"data-testid": "pile-button-" + name, class: "target pile", "data-key": "pile-" + name}, inner)
                   : el("div", {class: "pile", "data-testid": "pile-button-" + name}, inner);
  return el("div", {class: "pile-slot", "data-spot": "pile-" + name, title: cards.map(cardWords).join(", ")},
            [box, el("span", {class: "sr-only"}, [stack(cards, "pile-" + name, t("table.empty"))])]);
}

function centre(view, moves, pick, ctx) {
  const deckMove = moves.draws.get("deck");
  const deckInner = [cardBack("big"), el("span", {class: "pile-count"}, [el("b", {"data-testid": "deck-size", text: String(view.deck_size)}), " " + t("table.inTheDeck")])];
  const deck = deckMove ? target(t("table.drawDeck", {count: view.deck_size}), deckMove, ctx.send, {"data-testid": "deck", class: "target pile deck", "data-key": "deck"}, deckInner)
                        : el("div", {class: "pile deck", "data-testid": "deck"}, deckInner);
  const wishValue = pick && pick.wish ? Number(splitCard(pick.wish.cards[0]).value) : null;
  const tableStones = view.stones_on_table.map((v) => {
    if (v === wishValue) {
      return target(moveWords(pick.wish), pick.wish, ctx.send, {"data-testid": "stone-" + v, class: "target stone wishable", "data-key": "stone-" + v},
                    [el("span", {text: String(v)})]);
    }
    return el("span", {class: "stone", "data-testid": "stone-" + v, title: t("table.stone", {value: v}), text: String(v)});
  });
  const final = view.final_round;
  const soon = endingSoonWords(view, "keltis-card");
  // The notices sit beside the piles, not above them: the table keeps its height.
  return el("section", {class: "centre", "aria-label": t("table.middle")}, [
    el("div", {class: "piles"}, [el("div", {class: "pile-slot", "data-spot": "deck"}, [deck]),
                                 ...PILES.map((name) => pileBox(name, view, moves, pick, ctx)),
    el("div", {class: "facts table-stones"}, [
      el("span", {}, [t("table.wishingStones") + " ", el("span", {class: "stones", "data-testid": "stones-table", "data-stones": view.stones_on_table.join(" "), "data-spot": "stones-table"},
                            tableStones.length ? tableStones : [el("span", {class: "muted", text: t("table.noneLeft")})])]),
      el("span", {class: "small", text: t("table.setAside", {count: view.removed_count, closed: view.closed_rows})}),
      final && !view.result ? el("span", {class: "notice", "data-testid": "final-round"},
                                  withWhy(t("table.finalRound", {reason: finalRoundWords(final.reason)}))) : null,
      soon ? el("span", {class: "ending-soon", "data-testid": "ending-soon"}, withWhy(soon)) : null,
    ])]),
  ]);
}

// What a click on a hand card does: pick it, add its wish partner, or pick it alone.
function handBar(view, moves, pick, state, ctx, redraw) {
  const seat = view.seats[ctx.seat];
  const playing = moves.play;
  const buttons = view.hand.map((card, i) => {
    const canLay = moves.lays.has(card);
    const reason = playing && !canLay ? layReason(card, seat, view) : "";
    const chosen = state.picked.includes(i);
    const usable = playing && (canLay || moves.discards.has(card) || moves.wishes.some((w) => w.cards.includes(card)));
    const finalLay = moves.stop && canLay;
    const more = (reason ? t("table.cannotGo", {reason: plainWords(reason)}) : "") + (chosen ? t("table.picked") : "");
    // Named by its content (the chip's words, then `more` for screen readers only), not by an
    // aria-label that would differ from the letters shown ("E" of an end card).
    return el("button", {type: "button", class: "hand-card" + (chosen ? " picked" : "") + (reason ? " blocked" : ""),
                         "data-testid": "hand-card", "data-card": card, "data-key": "hand-" + i,
                         "data-playable": usable || finalLay ? "1" : "0", "aria-pressed": chosen ? "true" : "false",
                         title: cardWords(card) + more, disabled: !(usable || finalLay),
                         on: {click: (event) => { state.choose(i, card); redraw(event.detail === 0); }}},
                     [cardChip(card), more ? el("span", {class: "sr-only", text: more}) : null,
                      reason ? el("span", {class: "blocked-mark", "aria-hidden": "true", text: "✕"}) : null]);
  });
  const hint = handHint(view, moves, state.secondDraw ? SECOND_DRAW : pick);
  return el("section", {class: "hand", "aria-label": t("table.yourHandLabel"), "data-spot": "hand-" + ctx.seat}, [
    el("h3", {}, [t("table.yourHand") + " ", el("span", {class: "hint", "data-testid": "hint"}, withWhy(hint))]),
    el("div", {class: "hand-cards", "data-testid": "hand"}, buttons.length ? buttons : [el("span", {class: "muted", text: t("table.empty")})]),
    moves.stop ? el("p", {}, [target(moveWords(moves.stop), moves.stop, ctx.send, {"data-testid": "stop", class: "target", "data-key": "stop"},
                                     [el("span", {text: t("table.stopFinal")})])]) : null,
  ]);
}

// Passed as `pick` in a draw step that follows a wish's first draw (see drawCardTable).
const SECOND_DRAW = {cards: []};

function handHint(view, moves, pick) {
  if (moves.draws.size) {
    const owed = view.draws_owed;
    const which = owed === 2 ? t("hint.firstOfTwo") : owed === 1 && (pick === SECOND_DRAW || view.banned_piles.length >= 2) ? t("hint.secondOfTwo") : "";
    return t("hint.draw", {which});
  }
  if (!moves.play && !moves.stop) return "";
  if (!pick) return t(moves.stop ? "hint.finalPick" : "hint.pick");
  if (pick.cards.length === 2) {
    return pick.wish ? t("hint.pairStone", {value: splitCard(pick.wish.cards[0]).value}) : t("hint.noPair");
  }
  const card = pick.cards[0];
  const parts = [];
  if (pick.lays.size) parts.push(t("hint.layIt"));
  else if (pick.reason) parts.push(t("hint.cannotGo", {card: cardWords(card), reason: pick.reason}));
  if (moves.discards.has(card)) parts.push(t("hint.discardIt"));
  if (pick.wish) parts.push(t("hint.stoneIt", {value: splitCard(card).value}));
  else if (moves.wishes.some((w) => w.cards.includes(card))) parts.push(t("hint.secondCard", {value: splitCard(card).value}));
  return t("hint.card", {card: cardWords(card), what: parts.join("; ")});
}

// Draw the table into `container`. opts: {seat, name(seat), moves, send(move)}; picking a
// hand card redraws only this table.
export function drawCardTable(container, view, opts) {
  const ctx = {seat: opts.seat ?? null, name: opts.name, send: opts.send || (() => {})};
  const moves = index(opts.moves || []);
  // A pick survives a redraw of the same hand and moves (the page redraws on every read).
  const memory = JSON.stringify([view.hand || null, opts.moves || []]);
  const kept = container.keltisPick && container.keltisPick.memory === memory ? container.keltisPick.picked : [];
  // A wish owes two draws: the table remembers having shown the first of them.
  const before = container.keltisOwed;
  const sameTurn = !!before && before.seat === view.to_move;
  const secondDraw = sameTurn && view.draws_owed === 1 && (before.owed === 2 || (before.owed === 1 && before.second));
  container.keltisOwed = {seat: view.to_move, owed: view.draws_owed, second: secondDraw};
  const state = {picked: kept, choose: null, secondDraw};
  const pickOnly = (picked) => {
    state.picked = picked;
    container.keltisPick = {memory, picked};
  };
  state.choose = (i, card) => {
    const picked = state.picked;
    if (picked.includes(i)) return pickOnly(picked.filter((p) => p !== i));
    if (picked.length === 1) {
      const pair = [view.hand[picked[0]], card];
      if (moves.wishes.some((w) => same(w.cards, pair))) return pickOnly([picked[0], i]);
    }
    return pickOnly([i]);
  };
  // `toTarget`: a pick made with the keyboard moves the focus on to the first target.
  const render = (toTarget = false) => {
    const focused = document.activeElement && container.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const pick = pickFor(state.picked, view, moves, ctx);
    const seats = view.seats.filter((s) => s.seat !== ctx.seat);
    const mine = view.seats.find((s) => s.seat === ctx.seat);
    const parts = [...seats.map((s) => seatBoard(s, view, ctx, null)), centre(view, moves, pick, ctx)];
    if (mine) parts.push(seatBoard(mine, view, ctx, pick));
    if (ctx.seat !== null && view.hand) parts.push(handBar(view, moves, pick, state, ctx, render));
    if (view.hands) {
      parts.push(el("section", {class: "hand"}, [el("h3", {text: t("table.handsAtEnd")}),
        ...view.hands.map((hand, seat) => el("p", {}, [ctx.name(seat) + ": ", stack(hand, "final-hand-" + seat, t("table.empty"))]))]));
    }
    const size = view.seats.length > 2 ? " many" : "";
    container.replaceChildren(el("div", {class: "felt card-table" + size + (view.result ? " over" : "")}, parts));
    const first = toTarget && state.picked.length ? container.querySelector(".row-target, button.pile.target, button.stone.target") : null;
    const again = first || (focused && container.querySelector('[data-key="' + focused + '"]'));
    if (again) again.focus({preventScroll: !first});
  };
  render();
}

function pickFor(picked, view, moves, ctx) {
  if (!picked.length || !view.hand) return null;
  const cards = picked.map((i) => view.hand[i]);
  if (cards.length === 2) {
    const wish = moves.wishes.find((w) => same(w.cards, cards)) || null;
    return {cards, wish, lays: new Map(), reason: ""};
  }
  const card = cards[0];
  const seat = view.seats[ctx.seat];
  const lays = moves.lays.get(card) || new Map();
  // A wish whose pair is already fixed: the only partner of this value in hand.
  const wishes = moves.wishes.filter((w) => w.cards.includes(card));
  const partners = new Set(wishes.map((w) => w.cards.find((c, k) => c !== card || w.cards.indexOf(card) !== k)));
  const wish = wishes.length && partners.size === 1 ? wishes[0] : null;
  return {cards, lays, wish, reason: lays.size ? "" : layReason(card, seat, view)};
}

export function cardLegend() {
  return [t("legend.colours") + " ", ...[...COLOURS, "point"].map((c) => colourTag(c)),
          ...withWhy(" · " + t("legend.cardRows"))];
}
