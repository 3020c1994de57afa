// The dice game's table: the board side with every seat's markers, the dice, tiles; moves.
import {COLOURS, LETTERS, MARKS, colourTag, el} from "./dom.js";
import {moveWords} from "./words.js";

const BONUS = {clover: "☘ clover", stone: "◎ stone", kobold: "☻ kobold"};

function die(face, index, extra) {
  return el(extra ? "button" : "span", {
    class: "die c-" + face, "data-testid": "die-" + index, "data-face": face,
    title: "die " + (index + 1) + ": " + face, "aria-label": "die " + (index + 1) + ": " + face,
    ...(extra || {}),
  }, [el("span", {class: "mark", "aria-hidden": "true", text: MARKS[face] || "?"}),
      el("span", {class: "value", "aria-hidden": "true", text: LETTERS[face] || face})]);
}

export function renderTable(game, ctx) {
  const view = game.view;
  const board = view.board;
  const paths = COLOURS.map((colour) => {
    const path = board.paths[colour];
    const fields = path.values.map((value, index) => {
      const number = index + 1;
      const bonus = path.bonuses[String(number)];
      const tokens = view.seats.filter((s) => s.markers[colour] === number).map((s) =>
        el("span", {class: "token seat" + s.seat, title: ctx.name(s.seat), text: ctx.initial(s.seat)}));
      const classes = ["field"];
      if (number >= board.goal_from) classes.push("goal");
      if (path.forbidden.includes(number)) classes.push("forbidden");
      return el("div", {class: classes.join(" "), title: colour + " field " + number + " (" + value + " points)" + (bonus ? ", " + bonus : "")}, [
        el("span", {class: "points", text: String(value)}),
        bonus ? el("span", {class: "bonus", text: BONUS[bonus] || bonus}) : null,
        el("span", {class: "tokens"}, tokens)]);
    });
    return el("div", {class: "path", "data-testid": "path-" + colour}, [colourTag(colour), ...fields]);
  });
  const dice = el("div", {class: "dice", "data-testid": "dice", "data-dice": view.dice.join(" ")},
                  view.dice.map((face, index) => die(face, index)));
  const head = el("tr", {}, ["player", ...COLOURS, "markers left", "tiles", "score"].map((h) => el("th", {text: h})));
  const rows = view.seats.map((seat) => el("tr", {class: seat.seat === view.to_move ? "to-move" : ""}, [
    el("th", {scope: "row"}, [el("span", {class: "token seat" + seat.seat, text: ctx.initial(seat.seat)}), " " + ctx.name(seat.seat) + (seat.seat === ctx.seat ? " (you)" : "")]),
    ...COLOURS.map((colour) => el("td", {"data-testid": "marker-" + seat.seat + "-" + colour,
                                         text: seat.markers[colour] ? String(seat.markers[colour]) : "–"})),
    el("td", {text: String(seat.markers_left)}),
    el("td", {"data-testid": "tiles-" + seat.seat, text: String(seat.tiles)}),
    el("td", {"data-testid": "score-" + seat.seat, text: String(seat.score)}),
  ]));
  return [
    el("section", {class: "centre"}, [
      el("p", {class: "facts"}, [
        "dice (roll " + view.rolls + (view.rerolled ? ", rerolled" : "") + "): ", dice,
      ]),
      el("p", {class: "facts"}, [
        "stone tiles in supply ", el("b", {"data-testid": "supply", text: String(view.supply)}),
        " · markers in the goal zone ", el("b", {"data-testid": "goal-markers", text: view.goal_markers + " of " + view.goal_threshold}),
        view.pending_clover ? el("span", {class: "notice", text: " · a clover move is waiting"}) : null,
      ]),
    ]),
    el("section", {class: "board", "aria-label": "board, " + board.name + " side"}, [
      el("h3", {text: "Board (" + board.name + " side)"}), ...paths]),
    el("section", {}, [el("table", {class: "scores"}, [el("thead", {}, [head]), el("tbody", {}, rows)])]),
  ];
}

// Moves: toggle dice, then "Reroll" if that choice is a legal move; every other legal move
// is a button of its own.
export function renderMoves(moves, ctx, view) {
  const rerolls = moves.filter((m) => m.action === "reroll");
  const others = moves.filter((m) => m.action !== "reroll");
  const parts = [];
  if (rerolls.length) {
    const chosen = new Set();
    const legal = new Map(rerolls.map((m) => [m.dice.join(","), m]));
    const reroll = el("button", {type: "button", class: "move", "data-testid": "reroll", disabled: true,
                                 text: "Reroll the chosen dice"});
    const update = () => {
      const key = [...chosen].sort((a, b) => a - b).join(",");
      reroll.disabled = !legal.has(key);
      reroll.dataset.move = legal.has(key) ? JSON.stringify(legal.get(key)) : "";
    };
    reroll.addEventListener("click", () => {
      const key = [...chosen].sort((a, b) => a - b).join(",");
      if (legal.has(key)) ctx.send(legal.get(key));
    });
    const toggles = view.dice.map((face, index) => die(face, index, {
      type: "button", "aria-pressed": "false", "data-testid": "pick-die-" + index,
      on: {click: (event) => {
        const button = event.currentTarget;
        if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
        button.setAttribute("aria-pressed", chosen.has(index) ? "true" : "false");
        update();
      }},
    }));
    parts.push(el("div", {class: "move-group"}, [el("h4", {text: "Choose dice to reroll"}),
      el("div", {class: "buttons"}, [...toggles, reroll])]));
  }
  if (others.length) {
    parts.push(el("div", {class: "move-group"}, [el("h4", {text: "Your move"}),
      el("div", {class: "buttons"}, others.map((move) => {
        const label = moveWords(move);
        return el("button", {type: "button", class: "move", "data-testid": "move", "data-move": JSON.stringify(move),
                             title: label, on: {click: () => ctx.send(move)}},
                  [move.color ? colourTag(move.color) : null, el("span", {text: " " + label})]);
      }))]));
  }
  return parts;
}
