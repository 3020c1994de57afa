// Other seats' moves shown one by one: each new event gets a line at the top of the table
// and a highlight on what it touched, `pace()` ms apart; "Skip" (or Escape) shows the rest
// at once. While steps are shown the page holds back the viewer's own choices.
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
    spots.push(...eventSpots(e));
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
  const finish = () => {
    if (timer === null) return;
    clearTimeout(timer);
    while (queue.length) show(queue.shift());
    timer = null;
    skip.hidden = true;
    done();
  };
  skip.addEventListener("click", finish);
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
    mark,
  };
}
