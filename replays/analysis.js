// Game analysis beside each replay step: a panel of the replay viewer, listed in
// replays/html.py PANELS and bundled into the page, mounted once with `window.KeltisReplay`
// (viewer.html). It draws into `replay.mount` and follows the steps through `replay.onStep`;
// a replay without an analysis shows nothing. Built without ever parsing data as HTML.
import {el} from "./dom.js";
import {moveWords} from "./words.js";

const points = (value) => (value >= 0 ? "+" : "") + Number(value).toFixed(1);

function seatLine(seat, name) {
  const largest = seat.largest.map((m) => "step " + m.step + " (-" + Number(m.loss).toFixed(1) + ")");
  return el("li", {"data-testid": "analysis-seat-" + seat.seat,
    text: name(seat.seat) + ": average loss " + Number(seat.average_loss).toFixed(2) + " points over " +
      seat.decisions + " decisions" + (largest.length ? "; largest: " + largest.join(", ") : "")});
}

function decisionWords(d, name) {
  const verdict = d.loss > 0 ? "gave away " + Number(d.loss).toFixed(1) + " points" : "the best move found";
  return name(d.seat) + " played " + moveWords(d.played) + " (" + points(d.played_value) + "); best " +
    moveWords(d.best) + " (" + points(d.best_value) + "): " + verdict + (d.mark ? ", a " + d.mark : "") + ".";
}

export function mount(replay) {
  const analysis = replay.data.analysis;
  if (!analysis || !Array.isArray(analysis.decisions) || !replay.mount) return;
  const byStep = new Map(analysis.decisions.map((d) => [d.step, d]));
  const line = el("div", {"data-testid": "analysis-step"});
  replay.mount.append(el("section", {"data-testid": "analysis"}, [
    el("h2", {text: "Analysis"}),
    el("p", {text: "Expected points of score margin, from the deciding seat's view at the time (" +
      analysis.iterations + " samples a decision)."}),
    line,
    el("ul", {"data-testid": "analysis-summary"}, analysis.seats.map((seat) => seatLine(seat, replay.name))),
  ]));
  replay.onStep((step) => {
    const d = byStep.get(step);
    line.dataset.mark = d && d.mark ? d.mark : "";
    line.textContent = d ? decisionWords(d, replay.name) : "No choice to judge at this step.";
  });
}
