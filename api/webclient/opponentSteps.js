// Other seats' moves shown one by one: each new event gets a line at the top of the table
// and a highlight on what it touched (that step's alone), `pace()` ms apart; "Skip" (or
// Escape) shows the rest at once. The viewer's own choices stay open meanwhile: a click on
// the table ends the showing (`skip({quiet: true})`, which leaves the table as it is, so the
// click lands) and is taken.
import {eventSpots, markSpots, shownEvent} from "./tableSpots.js";

const KEPT_LINES = 4;

export function opponentSteps({line, skip, root, words, pace, done}) {
  const queue = [];
  let timer = null;
  let lines = [];
  let spots = [];
  let lastSeat = null;
  let fresh = false;       // the viewer moved since: the next step starts a new summary

  const mark = () => markSpots(root(), spots);
  const show = (event) => {
    const e = event.event || event;
    if (fresh || e.seat !== lastSeat) { lines = []; spots = []; fresh = false; }
    lastSeat = e.seat;
    lines.push(words(event));
    spots = eventSpots(e);
    lines = lines.slice(-KEPT_LINES);
    line.textContent = lines.join(" · ");
    line.hidden = false;
  };
  const next = () => {
    if (!queue.length) {
      timer = null;
      skip.hidden = true;
      done();
      return;
    }
    show(queue.shift());
    mark();
    skip.hidden = false;
    timer = setTimeout(next, Math.max(0, pace()));
  };
  // `quiet`: the page is not drawn again (a click on the table must find what it pressed).
  const finish = ({quiet = false} = {}) => {
    if (timer === null) return;
    clearTimeout(timer);
    while (queue.length) show(queue.shift());
    timer = null;
    skip.hidden = true;
    if (quiet) mark();
    else done();
  };
  skip.addEventListener("click", () => finish());
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") finish(); });

  return {
    add(events, viewer) {
      for (const event of events) {
        if (shownEvent(event, viewer)) queue.push(event);
        else if ((event.event || event).seat === viewer && viewer !== null) fresh = true;
      }
      if (timer === null && queue.length) next();
    },
    busy: () => timer !== null || queue.length > 0,
    skip: finish,
    mark,
  };
}
