// Game analysis beside each replay step (issue 25): inlined by replays/html.py into
// viewer.html, which mounts it once and calls the returned function on every step shown.
// Built without ever parsing data as HTML.
function mountAnalysis(analysis, parent, seatName) {
  if (!analysis || !Array.isArray(analysis.decisions)) return () => {};
  const byStep = new Map(analysis.decisions.map((d) => [d.step, d]));
  const points = (value) => (value >= 0 ? "+" : "") + Number(value).toFixed(1);
  const make = (tag, testid, text) => {
    const node = document.createElement(tag);
    if (testid) node.setAttribute("data-testid", testid);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const box = make("section", "analysis");
  const line = make("div", "analysis-step");
  const summary = make("ul", "analysis-summary");
  for (const seat of analysis.seats) {
    const largest = seat.largest.map((m) => "step " + m.step + " (-" + Number(m.loss).toFixed(1) + ")");
    summary.append(make("li", "analysis-seat-" + seat.seat,
      seatName(seat.seat) + ": average loss " + Number(seat.average_loss).toFixed(2) + " points over " +
      seat.decisions + " decisions" + (largest.length ? "; largest: " + largest.join(", ") : "")));
  }
  box.append(make("h2", null, "Analysis"),
    make("p", null, "Expected points of score margin, from the deciding seat's view at the time (" +
      analysis.iterations + " samples a decision)."), line, summary);
  parent.append(box);
  return (step) => {
    const d = byStep.get(step);
    line.dataset.mark = d && d.mark ? d.mark : "";
    if (!d) { line.textContent = "No choice to judge at this step."; return; }
    const verdict = d.loss > 0 ? "gave away " + Number(d.loss).toFixed(1) + " points" : "the best move found";
    line.textContent = seatName(d.seat) + " played " + moveWords(d.played) + " (" + points(d.played_value) +
      "); best " + moveWords(d.best) + " (" + points(d.best_value) + "): " + verdict + (d.mark ? ", a " + d.mark : "") + ".";
  };
}
