// Score breakdowns from a game's public view (docs/RULES.md K1-K3 for cards, F2-F3 for dice):
// pure functions of the view, the same figures the server's total adds up.
import {COLOURS} from "./dom.js";
import {t} from "./i18n.js";

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
    const why = count > 0 && points < 0 ? t("score.earlyRow", {count, points}) : "";
    return {label: colour, detail: count ? t("table.cards", {count}) : t("score.notOpened"),
            points, why, rule: "K1"};
  });
  const pointCards = seat.point_row.length;
  lines.push({label: t("score.pointCards"), detail: pointCards + " × +1", points: pointCards, why: "", rule: "K2"});
  const stones = seat.stones.length;
  lines.push({label: t("score.stones"), detail: stones ? t("score.held", {count: stones}) : t("score.noneHeld"),
              points: capped(STONE_POINTS, stones),
              why: stones < 2 ? t("score.fewStones") : "", rule: "K3"});
  return {lines, total: lines.reduce((sum, line) => sum + line.points, 0)};
}

// One line per marker on the board (its field's value) and one for the tiles.
export function diceBreakdown(seat, board) {
  const lines = COLOURS.filter((colour) => seat.markers[colour]).map((colour) => {
    const field = seat.markers[colour];
    return {label: colour, detail: t("score.markerOn", {value: board.paths[colour].values[field - 1]}),
            points: board.paths[colour].values[field - 1], why: "", rule: "F2"};
  });
  lines.push({label: t("score.tiles"), detail: t("score.held", {count: seat.tiles}), points: capped(TILE_POINTS, seat.tiles),
              why: seat.tiles < 4 ? t("score.fewTiles") : "", rule: "F3"});
  return {lines, total: lines.reduce((sum, line) => sum + line.points, 0)};
}
