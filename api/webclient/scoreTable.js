// A player's score broken down as a small table (lines from scoreBreakdown.js).
import {colourTag, el, withWhy} from "./dom.js";
import {COLOURS} from "./dom.js";
import {t} from "./i18n.js";

const signed = (n) => (n > 0 ? "+" : "") + n;

export function scoreTable(breakdown, {title, testid, shown}) {
  const rows = breakdown.lines.map((line) => el("tr", {class: line.points < 0 ? "minus" : ""}, [
    el("th", {scope: "row"}, [COLOURS.includes(line.label) ? colourTag(line.label) : line.label]),
    el("td", {}, withWhy(line.detail + (line.why ? " · " + line.why : ""))),
    el("td", {class: "pts", text: signed(line.points)}),
  ]));
  rows.push(el("tr", {class: "sum"}, [el("th", {scope: "row", text: t("score.total")}), el("td", {}),
                                      el("td", {class: "pts", "data-testid": testid + "-total", text: String(shown ?? breakdown.total)})]));
  return el("table", {class: "breakdown", "data-testid": testid}, [
    el("caption", {text: title}), el("tbody", {}, rows)]);
}
