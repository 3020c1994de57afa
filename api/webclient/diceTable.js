// The dice game's table, drawn from a view: the board side with every seat's markers, the
// dice, the tiles and each player's score broken down; and the dice choices of a seat, each
// saying where its marker lands. Every field is named by its value, as on the board.
import {COLOURS, MARKS, colourTag, el, plainWords, withWhy} from "./dom.js";
import {diceBreakdown} from "./scoreBreakdown.js";
import {scoreTable} from "./scoreTable.js";
import {endingSoonWords, faceWords} from "./tableWords.js";
import {colourName, t} from "./i18n.js";

const BONUS_MARK = {clover: "☘", stone: "◎", kobold: "☻"};
const bonusWords = (bonus) => (BONUS_MARK[bonus] ? BONUS_MARK[bonus] + " " + t("bonus." + bonus) : bonus);
const signed = (n) => (n > 0 ? "+" : "") + n;

// "the field worth -2": the one field notion of the board, the choices, the log and the scores.
export function fieldWords(board, colour, number) {
  return t("dice.fieldWorth", {value: board.paths[colour].values[number - 1]});
}

// A die: a picture (role img) on the table, a toggle button when it may be rolled again. It
// shows its colour and its colour's symbol, nothing else; its name is its colour first
// ("pink: die 1"), as a spoken command would say it.
export function die(face, index, extra) {
  const words = t("dice.die", {n: index + 1, face: faceWords(face)});
  const name = extra ? t("dice.dieButton", {n: index + 1, face: faceWords(face)}) : words;
  return el(extra ? "button" : "span", {
    class: "die c-" + face, "data-testid": "die-" + index, "data-face": face,
    title: words, "aria-label": name, ...(extra ? {} : {role: "img"}),
    ...(extra || {}),
  }, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[face] || "?"})]);
}

// Each seat's marker label: its player's initial ("A" for ann), two letters where two
// players share one, the seat's number where even those do: a letter is not read as a count.
export function markerLabels(view, name) {
  const names = view.seats.map((s) => String(name(s.seat)));
  const take = (n) => names.map((word) => word.replace(/[^A-Za-z0-9]/g, "").slice(0, n).toUpperCase() || "?");
  for (const n of [1, 2]) {
    const labels = take(n);
    if (new Set(labels).size === labels.length) return labels;
  }
  return view.seats.map((s) => String(s.seat + 1));
}

function field(view, colour, number, name, labels) {
  const board = view.board;
  const path = board.paths[colour];
  const value = path.values[number - 1];
  const bonus = path.bonuses[String(number)];
  const tokens = view.seats.filter((s) => s.markers[colour] === number).map((s) =>
    el("span", {class: "token seat" + s.seat, title: name(s.seat), text: labels[s.seat]}));
  const classes = ["field"];
  if (number >= board.goal_from) classes.push("goal");
  const forbidden = path.forbidden.includes(number);
  if (forbidden) classes.push("forbidden");
  const words = t("dice.fieldTitle", {colour: colourName(colour), value}) + (bonus ? ", " + t("bonus." + bonus) : "") +
                (forbidden ? ", " + t("dice.forbidden") : "") + (number >= board.goal_from ? ", " + t("dice.goalZone") : "");
  return el("div", {class: classes.join(" "), title: words, "data-spot": "field-" + colour + "-" + number,
                    "data-testid": "field-" + colour + "-" + number}, [
    el("span", {class: "points", text: String(value)}),
    bonus ? el("span", {class: "bonus", title: t("bonus." + bonus), text: BONUS_MARK[bonus] || bonus}) : null,
    el("span", {class: "tokens"}, tokens)]);
}

function scores(view, name, viewer) {
  const head = el("tr", {}, [el("th", {text: t("dice.player")}),
    ...COLOURS.map((c) => el("th", {title: colourName(c), "aria-label": colourName(c)}, [el("span", {class: "tag c-" + c}, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[c]})])])),
    el("th", {text: t("dice.left"), title: t("dice.leftTitle")}), el("th", {text: t("dice.tiles")}), el("th", {text: t("dice.score")})]);
  const rows = view.seats.map((seat) => el("tr", {class: seat.seat === view.to_move ? "to-move" : "", "data-spot": "seat-" + seat.seat}, [
    el("th", {scope: "row"}, [el("span", {class: "token seat" + seat.seat, text: markerLabels(view, name)[seat.seat]}), " " + name(seat.seat) + (seat.seat === viewer ? t("table.you") : "")]),
    ...COLOURS.map((colour) => el("td", {"data-testid": "marker-" + seat.seat + "-" + colour,
      title: seat.markers[colour] ? t("dice.markerOn", {colour: colourName(colour), field: fieldWords(view.board, colour, seat.markers[colour])})
                                  : t("dice.noMarker", {colour: colourName(colour)}),
      text: seat.markers[colour] ? String(view.board.paths[colour].values[seat.markers[colour] - 1]) : "–"})),
    el("td", {text: String(seat.markers_left)}),
    el("td", {"data-testid": "tiles-" + seat.seat, "data-spot": "tiles-" + seat.seat, text: String(seat.tiles)}),
    el("td", {"data-testid": "score-" + seat.seat, text: String(seat.score)}),
  ]));
  return el("table", {class: "scores"}, [el("caption", {class: "sr-only", text: t("dice.scoresCaption")}),
                                         el("thead", {}, [head]), el("tbody", {}, rows)]);
}

// Draw the table into `container`. opts: {seat, name(seat), picker}: with a picker
// (rerollPicker), the dice are the toggles that pick those to roll again.
export function drawDiceTable(container, view, opts) {
  const name = opts.name;
  const board = view.board;
  const labels = markerLabels(view, name);
  const paths = COLOURS.map((colour) => el("div", {class: "path", "data-testid": "path-" + colour}, [
    el("span", {class: "path-name tag c-" + colour, title: colourName(colour)}, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[colour]}), el("span", {class: "path-word", text: " " + colourName(colour)})]),
    el("div", {class: "fields"}, board.paths[colour].values.map((_, i) => field(view, colour, i + 1, name, labels)))]));
  const picker = opts.picker || null;
  const dice = el("div", {class: "dice" + (picker ? " picking" : ""), "data-testid": "dice", "data-dice": view.dice.join(" "), "data-spot": "dice",
                          role: picker ? "group" : undefined, "aria-label": picker ? plainWords(t("choice.pickDice")) : undefined},
                  view.dice.map((face, index) => (picker ? pickable(face, index, picker) : die(face, index))));
  const details = el("details", {class: "score-details", open: view.result ? true : undefined}, [
    el("summary", {text: t("dice.howScores")}),
    ...view.seats.map((seat) => scoreTable(diceBreakdown(seat, board), {title: name(seat.seat), testid: "breakdown-" + seat.seat, shown: seat.score})),
    el("p", {class: "muted small"}, withWhy(t("dice.scoring"))),
  ]);
  const soon = endingSoonWords(view, "keltis-dice");
  container.replaceChildren(el("div", {class: "felt dice-table"}, [
    el("section", {class: "centre"}, [
      soon ? el("p", {class: "ending-soon", "data-testid": "ending-soon"}, withWhy(soon)) : null,
      el("p", {class: "facts"}, [t(view.rerolled ? "dice.rollRerolled" : "dice.roll", {n: view.rolls}) + " ", dice]),
      el("p", {class: "facts"}, [
        t("dice.supply") + " ", el("b", {"data-testid": "supply", text: String(view.supply)}),
        " · " + t("dice.inGoal") + " ", el("b", {"data-testid": "goal-markers", text: t("dice.nOfM", {n: view.goal_markers, m: view.goal_threshold})}),
        view.pending_clover ? el("span", {class: "notice", text: " · " + t("dice.pendingClover")}) : null,
      ]),
    ]),
    el("section", {class: "board", "aria-label": t("dice.boardLabel", {side: t("side." + board.name)})}, [
      el("h3", {text: t("dice.board", {side: t("side." + board.name)})}), ...paths]),
    el("section", {class: "score-box"}, [scores(view, name, opts.seat ?? null), details]),
  ]));
}

// Where a choice puts a marker: "+3: pink to the field worth -2 (☘ clover)".
export function choiceWords(move, view, seat) {
  const board = view.board;
  const colour = move.color;
  if (move.action === "keep") return t("move.keep");
  if (move.action === "pass") return t(view.pending_clover ? "choice.passClover" : "choice.pass");
  if (move.action === "reroll") return t("move.reroll", {dice: move.dice.map((d) => d + 1).join(", ")});
  const at = (view.seats[seat].markers || {})[colour] || 0;
  const steps = move.action === "clover" ? 1 : view.dice.filter((d) => d === colour).length;
  const to = Math.min(at + steps, 9);
  const bonus = board.paths[colour].bonuses[String(to)];
  const where = fieldWords(board, colour, to) + (bonus ? " (" + bonusWords(bonus) + ")" : "") + (to >= board.goal_from ? ", " + t("dice.goalZone") : "");
  const named = colourName(colour);
  if (move.action === "clover") {
    return at ? t("choice.cloverOn", {colour: named, where}) : t("choice.cloverNew", {colour: named, where});
  }
  return "+" + steps + ": " + (at ? t("choice.from", {colour: named, from: fieldWords(board, colour, at), where})
                                 : t("choice.new", {colour: named, where}));
}

// The dice the seat to move may roll again, picked where they lie: the table's dice are
// toggles in place (pressed: rolled again), and one button rolls the picked ones. `chosen`
// (a Set of die indexes) is the caller's, so a redraw of the same state keeps the pick.
// Null when no reroll is legal.
export function rerollPicker(moves, view, send, chosen = new Set()) {
  const rerolls = moves.filter((m) => m.action === "reroll");
  if (!rerolls.length) return null;
  const legal = new Map(rerolls.map((m) => [m.dice.join(","), m]));
  const watchers = [];
  const move = () => legal.get([...chosen].sort((a, b) => a - b).join(",")) || null;
  return {
    chosen, move, send,
    all: legal.get(view.dice.map((_, index) => index).join(",")) || null,
    toggle(index) {
      if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
      for (const watcher of watchers) watcher();
    },
    watch(watcher) { watchers.push(watcher); watcher(); },
  };
}

// A die of the table that the viewer may pick to roll again (a toggle button).
function pickable(face, index, picker) {
  const button = die(face, index, {type: "button", "aria-pressed": "false", "data-testid": "pick-die-" + index,
                                   on: {click: () => picker.toggle(index)}});
  picker.watch(() => button.setAttribute("aria-pressed", picker.chosen.has(index) ? "true" : "false"));
  return button;
}

// The choices of the seat to move: the roll of the dice picked on the table (`picker`,
// rerollPicker's), all of them in one click, and every other legal move as a button saying
// where it lands.
export function diceMoves(moves, view, seat, send, picker = rerollPicker(moves, view, send)) {
  const others = moves.filter((m) => m.action !== "reroll");
  const parts = [];
  if (picker) {
    const reroll = el("button", {type: "button", class: "move", "data-testid": "reroll",
                                 on: {click: () => { if (picker.move()) send(picker.move()); }}});
    picker.watch(() => {
      const move = picker.move();
      reroll.disabled = !move;
      reroll.dataset.move = move ? JSON.stringify(move) : "";
      reroll.textContent = move ? t("choice.rerollCount", {count: move.dice.length}) : t("choice.rerollChosen");
    });
    // Rolling every die again is one click, not one per die and one more.
    const all = picker.all;
    const rerollAll = all ? el("button", {type: "button", class: "move", "data-testid": "reroll-all", "data-move": JSON.stringify(all),
                                          text: t("choice.rerollAll"), on: {click: () => send(all)}}) : null;
    parts.push(el("div", {class: "move-group"}, [el("h4", {}, withWhy(t("choice.pickDice"))),
      el("div", {class: "buttons"}, [reroll, rerollAll])]));
  }
  if (others.length) {
    parts.push(el("div", {class: "move-group"}, [el("h4", {}, withWhy(t(view.pending_clover ? "choice.yourClover" : "choice.yourMove"))),
      el("div", {class: "buttons"}, others.map((move) => {
        const label = choiceWords(move, view, seat);
        return el("button", {type: "button", class: "move", "data-testid": "move", "data-move": JSON.stringify(move),
                             title: label, on: {click: () => send(move)}},
                  [move.color ? el("span", {class: "tag c-" + move.color, "aria-hidden": "true"}, [el("span", {class: "mark", text: MARKS[move.color]})]) : null,
                   el("span", {text: label})]);
      }))]));
  }
  return parts;
}

export function diceLegend(board) {
  return [t("legend.colours") + " ", ...COLOURS.map((c) => colourTag(c)), " · ",
          el("span", {class: "swatch goal"}), " " + t("legend.goal", {from: board.goal_from}) + " · ",
          board.paths.brown.forbidden.length || COLOURS.some((c) => board.paths[c].forbidden.length)
            ? el("span", {}, [el("span", {class: "swatch forbidden"}), " " + t("legend.forbidden") + " · "]) : null,
          t("legend.dice") + " · ",
          el("a", {href: "/rules", target: "_blank", rel: "noopener", text: t("legend.rules")})];
}
