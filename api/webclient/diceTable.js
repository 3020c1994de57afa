// The dice game's table, drawn from a view: the board side with every seat's markers, the
// dice, the tiles and each player's score broken down; and the dice choices of a seat, each
// saying where its marker lands. Every field is named by its value, as on the board.
import {COLOURS, LETTERS, MARKS, colourTag, el} from "./dom.js";
import {diceBreakdown} from "./scoreBreakdown.js";
import {scoreTable} from "./scoreTable.js";
import {endingSoonWords} from "./words.js";

const BONUS = {clover: "☘ clover", stone: "◎ stone", kobold: "☻ kobold"};
const signed = (n) => (n > 0 ? "+" : "") + n;

// "the field worth -2": the one field notion of the board, the choices, the log and the scores.
export function fieldWords(board, colour, number) {
  return "the field worth " + board.paths[colour].values[number - 1];
}

// A die: a picture (role img) on the table, a toggle button when it may be rolled again; the
// button's name starts with the letters it shows ("Pk: die 1, pink"), as a spoken command would.
export function die(face, index, extra) {
  const words = "die " + (index + 1) + ": " + face;
  const name = extra ? (LETTERS[face] || face) + ": die " + (index + 1) + ", " + face : words;
  return el(extra ? "button" : "span", {
    class: "die c-" + face, "data-testid": "die-" + index, "data-face": face,
    title: words, "aria-label": name, ...(extra ? {} : {role: "img"}),
    ...(extra || {}),
  }, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[face] || "?"}),
      el("span", {class: "value", "aria-hidden": "true", text: LETTERS[face] || face})]);
}

function field(view, colour, number, name) {
  const board = view.board;
  const path = board.paths[colour];
  const value = path.values[number - 1];
  const bonus = path.bonuses[String(number)];
  const tokens = view.seats.filter((s) => s.markers[colour] === number).map((s) =>
    el("span", {class: "token seat" + s.seat, title: name(s.seat), text: String(s.seat + 1)}));
  const classes = ["field"];
  if (number >= board.goal_from) classes.push("goal");
  const forbidden = path.forbidden.includes(number);
  if (forbidden) classes.push("forbidden");
  const words = colour + " field worth " + value + (bonus ? ", " + bonus : "") + (forbidden ? ", forbidden" : "") +
                (number >= board.goal_from ? ", goal zone" : "");
  return el("div", {class: classes.join(" "), title: words, "data-spot": "field-" + colour + "-" + number,
                    "data-testid": "field-" + colour + "-" + number}, [
    el("span", {class: "points", text: String(value)}),
    bonus ? el("span", {class: "bonus", title: bonus, text: (BONUS[bonus] || bonus).split(" ")[0]}) : null,
    el("span", {class: "tokens"}, tokens)]);
}

function scores(view, name, viewer) {
  const head = el("tr", {}, [el("th", {text: "player"}),
    ...COLOURS.map((c) => el("th", {title: c, "aria-label": c}, [el("span", {class: "tag c-" + c}, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[c]})])])),
    el("th", {text: "left", title: "markers not yet placed"}), el("th", {text: "tiles"}), el("th", {text: "score"})]);
  const rows = view.seats.map((seat) => el("tr", {class: seat.seat === view.to_move ? "to-move" : "", "data-spot": "seat-" + seat.seat}, [
    el("th", {scope: "row"}, [el("span", {class: "token seat" + seat.seat, text: String(seat.seat + 1)}), " " + name(seat.seat) + (seat.seat === viewer ? " (you)" : "")]),
    ...COLOURS.map((colour) => el("td", {"data-testid": "marker-" + seat.seat + "-" + colour,
      title: seat.markers[colour] ? colour + " marker on " + fieldWords(view.board, colour, seat.markers[colour]) : "no " + colour + " marker",
      text: seat.markers[colour] ? String(view.board.paths[colour].values[seat.markers[colour] - 1]) : "–"})),
    el("td", {text: String(seat.markers_left)}),
    el("td", {"data-testid": "tiles-" + seat.seat, "data-spot": "tiles-" + seat.seat, text: String(seat.tiles)}),
    el("td", {"data-testid": "score-" + seat.seat, text: String(seat.score)}),
  ]));
  return el("table", {class: "scores"}, [el("caption", {class: "sr-only", text: "markers by the value of their field, tiles, scores"}),
                                         el("thead", {}, [head]), el("tbody", {}, rows)]);
}

// Draw the table into `container`. opts: {seat, name(seat)}.
export function drawDiceTable(container, view, opts) {
  const name = opts.name;
  const board = view.board;
  const paths = COLOURS.map((colour) => el("div", {class: "path", "data-testid": "path-" + colour}, [
    el("span", {class: "path-name tag c-" + colour, title: colour}, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[colour]}), el("span", {class: "path-word", text: " " + colour})]),
    el("div", {class: "fields"}, board.paths[colour].values.map((_, i) => field(view, colour, i + 1, name)))]));
  const dice = el("div", {class: "dice", "data-testid": "dice", "data-dice": view.dice.join(" "), "data-spot": "dice"},
                  view.dice.map((face, index) => die(face, index)));
  const details = el("details", {class: "score-details", open: view.result ? true : undefined}, [
    el("summary", {text: "How the scores add up"}),
    ...view.seats.map((seat) => scoreTable(diceBreakdown(seat, board), {title: name(seat.seat), testid: "breakdown-" + seat.seat, shown: seat.score})),
    el("p", {class: "muted small", text: "Each marker scores its field's value (F2); tiles: none -10, 1: -4, 2: -3, 3: -2, 4: +1, 5: +2, 6: +3, 7: +6, 8: +7, 9 or more: +10 (F3)."}),
  ]);
  const soon = endingSoonWords(view, "keltis-dice");
  container.replaceChildren(el("div", {class: "felt dice-table"}, [
    el("section", {class: "centre"}, [
      soon ? el("p", {class: "ending-soon", "data-testid": "ending-soon", text: soon}) : null,
      el("p", {class: "facts"}, ["dice (roll " + view.rolls + (view.rerolled ? ", rerolled" : "") + "): ", dice]),
      el("p", {class: "facts"}, [
        "stone tiles in supply ", el("b", {"data-testid": "supply", text: String(view.supply)}),
        " · markers in the goal zone ", el("b", {"data-testid": "goal-markers", text: view.goal_markers + " of " + view.goal_threshold}),
        view.pending_clover ? el("span", {class: "notice", text: " · a clover: place or advance a marker"}) : null,
      ]),
    ]),
    el("section", {class: "board", "aria-label": "board, " + board.name + " side"}, [
      el("h3", {text: "Board (" + board.name + " side)"}), ...paths]),
    el("section", {class: "score-box"}, [scores(view, name, opts.seat ?? null), details]),
  ]));
}

// Where a choice puts a marker: "+3: pink to the field worth -2 (☘ clover)".
export function choiceWords(move, view, seat) {
  const board = view.board;
  const colour = move.color;
  if (move.action === "keep") return "Keep the dice";
  if (move.action === "pass") return view.pending_clover ? "Pass (skip the clover)" : "Pass (move no marker)";
  if (move.action === "reroll") return "Reroll dice " + move.dice.map((d) => d + 1).join(", ");
  const at = (view.seats[seat].markers || {})[colour] || 0;
  const steps = move.action === "clover" ? 1 : view.dice.filter((d) => d === colour).length;
  const to = Math.min(at + steps, 9);
  const bonus = board.paths[colour].bonuses[String(to)];
  const where = fieldWords(board, colour, to) + (bonus ? " (" + BONUS[bonus] + ")" : "") + (to >= board.goal_from ? ", goal zone" : "");
  if (move.action === "clover") {
    return at ? "Clover: " + colour + " marker one field on, to " + where : "Clover: a new " + colour + " marker on " + where;
  }
  return "+" + steps + ": " + (at ? colour + " from " + fieldWords(board, colour, at) + " to " : "new " + colour + " marker to ") + where;
}

// The choices of the seat to move: dice to reroll (toggles, then "Reroll"), and every other
// legal move as a button saying where it lands.
export function diceMoves(moves, view, seat, send) {
  const rerolls = moves.filter((m) => m.action === "reroll");
  const others = moves.filter((m) => m.action !== "reroll");
  const parts = [];
  if (rerolls.length) {
    const chosen = new Set();
    const legal = new Map(rerolls.map((m) => [m.dice.join(","), m]));
    const reroll = el("button", {type: "button", class: "move", "data-testid": "reroll", disabled: true, text: "Reroll the chosen dice"});
    const key = () => [...chosen].sort((a, b) => a - b).join(",");
    const update = () => {
      reroll.disabled = !legal.has(key());
      reroll.dataset.move = legal.has(key()) ? JSON.stringify(legal.get(key())) : "";
    };
    reroll.addEventListener("click", () => { if (legal.has(key())) send(legal.get(key())); });
    const toggles = view.dice.map((face, index) => die(face, index, {
      type: "button", "aria-pressed": "false", "data-testid": "pick-die-" + index,
      on: {click: (event) => {
        if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
        event.currentTarget.setAttribute("aria-pressed", chosen.has(index) ? "true" : "false");
        update();
      }},
    }));
    parts.push(el("div", {class: "move-group"}, [el("h4", {text: "Pick dice to roll again (T1)"}),
      el("div", {class: "buttons"}, [...toggles, reroll])]));
  }
  if (others.length) {
    parts.push(el("div", {class: "move-group"}, [el("h4", {text: view.pending_clover ? "Your clover (T6)" : "Your move"}),
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
  return ["Colours: ", ...COLOURS.map((c) => colourTag(c)), " · ",
          el("span", {class: "swatch goal"}), " goal zone (fields " + board.goal_from + "-9, F1) · ",
          board.paths.brown.forbidden.length || COLOURS.some((c) => board.paths[c].forbidden.length)
            ? el("span", {}, [el("span", {class: "swatch forbidden"}), " forbidden field (T5) · "]) : null,
          "☘ clover · ◎ stone tile · ☻ kobold (T6) · numbers are the fields' values (W1)"];
}
