// Score breakdowns from a game's public view (docs/RULES.md K1-K3 for cards, F2-F3 for dice):
// pure functions of the view, the same figures the server's total adds up.
import {COLOURS} from "./dom.js";

// K1: a colour row's points by its length (index = cards held; 9 or more: 10).
export const ROW_POINTS = [0, -4, -3, -2, 1, 2, 3, 6, 7, 10];
// K3: wishing stones held (5 or more: 10).
export const STONE_POINTS = [-4, -1, 0, 4, 6, 10];
// F3: stone tiles held (9 or more: 10).
export const TILE_POINTS = [-10, -4, -3, -2, 1, 2, 3, 6, 7, 10];

const capped = (table, count) => table[Math.min(count, table.length - 1)];

// One line per colour row, the point row and the stones: {label, detail, points, why}.
export function cardBreakdown(seat) {
  const lines = COLOURS.map((colour) => {
    const count = seat.rows[colour].cards.length;
    const points = capped(ROW_POINTS, count);
    const why = count > 0 && points < 0
      ? "an early row counts negative: " + count + (count === 1 ? " card" : " cards") +
        " score " + points + "; from 4 cards a row scores plus (K1)"
      : "";
    return {label: colour, detail: count ? count + (count === 1 ? " card" : " cards") : "not opened",
            points, why, rule: "K1"};
  });
  const pointCards = seat.point_row.length;
  lines.push({label: "point cards", detail: pointCards + " × +1", points: pointCards, why: "", rule: "K2"});
  const stones = seat.stones.length;
  lines.push({label: "wishing stones", detail: stones ? stones + " held" : "none held",
              points: capped(STONE_POINTS, stones),
              why: stones < 2 ? "fewer than 2 stones count negative (K3)" : "", rule: "K3"});
  return {lines, total: lines.reduce((sum, line) => sum + line.points, 0)};
}

// One line per marker on the board (its field's value) and one for the tiles.
export function diceBreakdown(seat, board) {
  const lines = COLOURS.filter((colour) => seat.markers[colour]).map((colour) => {
    const field = seat.markers[colour];
    return {label: colour, detail: "marker on the field worth " + board.paths[colour].values[field - 1],
            points: board.paths[colour].values[field - 1], why: "", rule: "F2"};
  });
  lines.push({label: "stone tiles", detail: seat.tiles + " held", points: capped(TILE_POINTS, seat.tiles),
              why: seat.tiles < 4 ? "fewer than 4 tiles count negative (F3)" : "", rule: "F3"});
  return {lines, total: lines.reduce((sum, line) => sum + line.points, 0)};
}
