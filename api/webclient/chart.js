// A rating chart as inline SVG, drawn here (no library): the rating after each rated game,
// one point per game, oldest on the left; the SVG says what it shows (title, desc) and a
// table beside it holds the same numbers for readers that do not see it.
import {el, ratingWords} from "./dom.js";
import {t} from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
let WIDTH = 640;  // narrower on a phone, so its words keep a readable size
const HEIGHT = 240;
const PAD = {left: 46, right: 14, top: 14, bottom: 30};

function svg(tag, attrs, children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children || []) node.append(child);
  return node;
}

// Rounded tick values spanning [low, high].
function ticks(low, high, count) {
  const span = high - low || 1;
  const raw = span / count;
  const step = [1, 2, 2.5, 5, 10].map((f) => f * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw);
  const found = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) found.push(Number(v.toFixed(6)));
  return found;
}

function when(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

// `points` oldest first: {seq, game_id, at, rank, rating, provisional, games, ...}; `label`
// names the chart (e.g. "Card game rating of ann").
export function ratingChart(points, label, testid) {
  const id = "chart-" + testid;
  WIDTH = window.innerWidth < 520 ? 360 : 640;
  const values = points.map((p) => p.rating);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 40) { low -= 20; high += 20; }
  const margin = (high - low) * 0.08;
  low -= margin; high += margin;
  const w = WIDTH - PAD.left - PAD.right;
  const h = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (points.length === 1 ? w / 2 : (i * w) / (points.length - 1));
  const y = (v) => PAD.top + h - ((v - low) / (high - low)) * h;
  const first = points[0];
  const last = points[points.length - 1];
  const parts = [
    svg("title", {id: id + "-title", text: label}),
    svg("desc", {id: id + "-desc", text: t("chart.desc", {count: points.length, first: first.games, last: last.games,
      from: first.rating, to: last.rating, low: Math.min(...values), high: Math.max(...values)})}),
  ];
  for (const v of ticks(low, high, 4)) {
    parts.push(svg("line", {class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v)}));
    parts.push(svg("text", {x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", text: String(v)}));
  }
  parts.push(svg("line", {class: "axis", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: PAD.top + h}));
  parts.push(svg("line", {class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: PAD.top + h, y2: PAD.top + h}));
  parts.push(svg("text", {x: PAD.left, y: HEIGHT - 8, text: t("chart.game", {n: first.games})}));
  if (points.length > 1) parts.push(svg("text", {x: WIDTH - PAD.right, y: HEIGHT - 8, "text-anchor": "end", text: t("chart.game", {n: last.games})}));
  const path = points.map((p, i) => (i ? "L" : "M") + x(i).toFixed(1) + " " + y(p.rating).toFixed(1)).join(" ");
  parts.push(svg("path", {class: "line", d: path}));
  points.forEach((p, i) => {
    parts.push(svg("circle", {class: "point" + (p.rank === 1 ? " win" : ""), cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1),
                              r: points.length > 120 ? 2 : 4, "data-testid": "chart-point", "data-game": p.game_id}, [
      svg("title", {text: t("chart.point", {n: p.games, at: when(p.at), rank: p.rank, rating: ratingWords(p)})}),
    ]));
  });
  return svg("svg", {viewBox: "0 0 " + WIDTH + " " + HEIGHT, role: "img", "data-testid": testid,
                     "aria-labelledby": id + "-title " + id + "-desc", preserveAspectRatio: "xMidYMid meet"}, parts);
}

// The same points as a table (newest first), in a <details> under the chart.
export function ratingTable(points) {
  const head = el("tr", {}, ["chart.tGame", "chart.tFinished", "chart.tRank", "board.rating"].map((key) => el("th", {scope: "col", text: t(key)})));
  const rows = points.slice().reverse().map((p) => el("tr", {}, [
    el("td", {}, [el("a", {href: "/play/" + encodeURIComponent(p.game_id), text: String(p.games)})]),
    el("td", {text: when(p.at)}),
    el("td", {text: String(p.rank)}),
    el("td", {text: ratingWords(p)}),
  ]));
  return el("details", {}, [el("summary", {text: t("chart.asTable")}),
                            el("table", {}, [el("thead", {}, [head]), el("tbody", {}, rows)])]);
}
