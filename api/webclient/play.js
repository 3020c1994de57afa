// The table page: a seat plays (its token from local storage), anyone else watches.
import {account, api, follow, newKey, seats} from "./api.js";
import {botWord, personName} from "./bots.js";
import {$, clear, el, ratingWords, withWhy} from "./dom.js";
import {cardLegend, drawCardTable} from "./cardTable.js";
import {diceLegend, diceMoves, drawDiceTable, fieldWords, rerollPicker} from "./diceTable.js";
import {opponentSteps} from "./opponentSteps.js";
import {andList, endWords, eventWords} from "./tableWords.js";
import {t, tOr} from "./i18n.js";
import {startLanguage} from "./language.js";

const GAME_ID = decodeURIComponent(location.pathname.split("/").pop());
const PATH = "/v1/games/" + encodeURIComponent(GAME_ID);
const OVER = ["finished", "cancelled", "expired"];
const RETRY_MS = 1000;     // while the service cannot be reached, read again this often
let mine = seats.get(GAME_ID);          // {seat, token, name} or null
let game = null;
let moves = [];
let sending = false;
let refreshing = null;
let again = false;
let forced = false;
let drawn = "";         // what the page shows: version, status and moves
let following = null;
let retry = null;
let problem = null;     // the shown error: {until: "change" | "reconnect" | "next", version}
let atLeast = 0;        // the version our last accepted move made: older reads are not drawn
let heard = 0;          // the newest version the event stream told of
const logged = new Set();
let picked = {version: -1, dice: new Set()};  // the dice picked to roll again, in one version

const name = (seat) => {
  const player = game && game.players[seat];
  return player ? (player.name ? personName(player.name) : t(player.open ? "play.openSeatN" : "play.seatN", {seat})) : t("play.seatN", {seat});
};
const isDice = () => game && game.game === "keltis-dice";
const field = (colour, number) => (isDice() && game.view ? fieldWords(game.view.board, colour, number) : t("field.number", {n: number}));
const words = (entry) => eventWords(entry, name, field);

const steps = opponentSteps({
  line: $("news"),
  skip: $("skip"),
  root: () => $("table"),
  words,
  pace: () => Number(localStorage.getItem("keltis.pace") ?? 600),
  done: () => draw(),
});

// One line, shown until `until`: "change" (the game moves on), "reconnect" (a read works
// again) or "next" (the next thing the page draws).
function showError(message, until = "next") {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
  problem = message ? {until, version: game ? game.version : -1} : null;
}

async function send(move) {
  if (sending || !mine) return;
  sending = true;
  for (const button of document.querySelectorAll("[data-testid=table] button, [data-testid=moves] button")) button.disabled = true;
  $("turn").textContent = t("play.sending");
  let after = null;
  try {
    const answer = await api("POST", PATH + "/moves", {token: mine.token, headers: {"Idempotency-Key": newKey()},
                                                       body: {...move, expected_version: game.version}});
    if (answer && Number.isInteger(answer.version)) atLeast = Math.max(atLeast, answer.version);
    showError("");
  } catch (failure) {
    after = failure;
  } finally {
    sending = false;
  }
  await refresh(true);
  if (!after) return;
  if (after.status === 409) {
    showError(t("play.movedOn"), "change");
  } else if (after.status === 0) {
    showError(t("play.notSent"), "reconnect");
    keepTrying();
  } else {
    showError(after.message, "change");
  }
}

function renderStatus() {
  const title = t(isDice() ? "play.titleDice" : "play.titleCards") + " · " +
    game.players.map((p, seat) => name(seat) + (p.bot && botWord(p.bot) !== name(seat) ? " (" + botWord(p.bot) + ")" : "")).join(t("words.vs"));
  $("title").textContent = title;
  document.title = title;
  const turns = game.view && Number.isInteger(game.view.turns) ? game.view.turns : null;
  const stage = game.status === "active" ? (turns === null ? "" : t("play.turnN", {n: turns + 1}))
                                         : statusWords(game.status);
  $("status").textContent = (mine ? t("play.youPlay", {name: name(mine.seat)}) : t("play.watching")) + (stage ? " · " + stage : "");
  $("status").dataset.version = String(game.version);
  $("status").dataset.state = game.status;
}

function renderResult() {
  const box = $("result");
  if (!OVER.includes(game.status)) { box.hidden = true; clear(box); return; }
  box.hidden = false;
  const result = game.result || {};
  const parts = [el("h2", {"data-testid": "outcome", text: outcomeWords(result)})];
  const ending = game.status === "finished" ? endWords(result.ended || result.ended_by, game.game) : "";
  if (ending) {
    parts.push(el("p", {"data-testid": "end-reason"}, withWhy(ending.charAt(0).toUpperCase() + ending.slice(1) + ".")));
  }
  if (result.winners && result.winners.length) {
    parts.push(el("p", {"data-testid": "winners", text: t("play.wonBy", {names: andList(result.winners.map(name))}) + (result.shared ? t("play.shared") : "")}));
  }
  if (result.scores) {
    parts.push(el("p", {text: t("play.finalScores", {scores: result.scores.map((s, seat) => name(seat) + " " + s).join(", ")})}));
  }
  if (ratedAccount(result)) parts.push(ratingChange.line);
  if (game.status === "finished") {
    parts.push(el("p", {}, [el("a", {href: PATH + "/replay.html", "data-testid": "replay-link", text: t("play.watchReplay")}),
                            " · ", el("a", {href: PATH + "/replay", text: t("play.download")}), " · ", el("a", {href: "/", text: t("play.backToLobby")})]));
  }
  clear(box, ...parts);
  const account = ratedAccount(result);
  if (account) showRatingChange(account);
}

// The viewer's rating change at the end of a rated game it played as an account: its point
// of the rating history for this game appears once the ladder has folded the result in (a
// moment after the end), read a few times; before it, the rating it had (a newcomer's
// 1500 before its first).
const ratingChange = {line: null,
                      asked: false};
const RATING_TRIES = 20;

function ratedAccount(result) {
  const seat = mine ? game.players[mine.seat] : null;
  return game.status === "finished" && game.rated && result.ended !== "aborted" && seat && seat.account ? seat.account : null;
}

async function showRatingChange(account) {
  if (ratingChange.asked) return;
  ratingChange.asked = true;
  const path = "/v1/accounts/" + encodeURIComponent(account) + "/ratings/history?limit=2&game=" + game.game;
  for (let tries = 0; tries < RATING_TRIES; tries += 1) {
    try {
      const points = (await api("GET", path)).points;
      if (points.length && points[0].game_id === GAME_ID) {
        const after = points[0];
        const before = points.length > 1 ? points[1].rating : 1500;
        const change = after.rating - before;
        ratingChange.line.className = "";
        ratingChange.line.textContent = t("play.yourRating", {before, after: ratingWords(after), change: (change >= 0 ? "+" : "") + change});
        return;
      }
    } catch (_) { /* asked again below */ }
    await new Promise((done) => setTimeout(done, 1000));
  }
  ratingChange.line.textContent = t("play.ratingLater");
}

// The end as the viewer takes it: "You won", "You lost", a shared win, with the viewer's
// points; a spectator reads "Game over", a game that ended otherwise its status, an aborted
// one (a rated game a seat never moved in) that it has no result.
function outcomeWords(result) {
  if (game.status !== "finished") return t("play.gameStatus", {status: statusWords(game.status)});
  if (result.ended === "aborted") return t("play.aborted");  // no one won or lost
  const winners = result.winners || [];
  if (!mine) return t("play.gameOver");
  const score = result.scores ? t("play.points", {count: result.scores[mine.seat]}) : "";
  if (!winners.includes(mine.seat)) return t("play.youLost") + score;
  return t(winners.length > 1 ? "play.youWonShared" : "play.youWon") + score;
}

function renderJoin() {
  const box = $("join");
  const open = game.players.filter((p) => p.open);
  if (mine || game.status !== "waiting" || !open.length) { box.hidden = true; return; }
  box.hidden = false;
  const hash = new URLSearchParams(location.hash.slice(1));
  const input = el("input", {id: "join-name", "data-testid": "join-name", maxlength: "30", value: localStorage.getItem("keltis.name") || "",
                             autocomplete: "nickname"});
  const signedIn = account.get();  // an account joins with its key, and plays with it
  const buttons = open.map((p) => el("button", {type: "button", "data-testid": "join-" + p.seat, on: {click: async () => {
    const body = signedIn ? {} : {name: input.value.trim()};
    if (p.invite) body.invite = hash.get("invite") || prompt(t("play.joinCodeFor", {n: p.seat + 1})) || "";
    try {
      const joined = await api("POST", PATH + "/seats/" + p.seat + "/join", {body, token: signedIn ? signedIn.key : undefined});
      if (signedIn) mine = {seat: joined.seat, token: signedIn.key, name: signedIn.name};
      else {
        localStorage.setItem("keltis.name", body.name);
        mine = {seat: joined.seat, token: joined.token, name: body.name};
      }
      seats.set(GAME_ID, mine);
      showError("");
      restartFollow();
      await refresh(true);
    } catch (failure) { showError(failure.message); }
  }}, text: t(p.invite ? "play.takeSeatCode" : "play.takeSeat", {n: p.seat + 1})}));
  const who = signedIn ? [el("span", {text: t("play.joinAs", {name: signedIn.name}) + " "})]
                       : [el("label", {for: "join-name", text: t("play.yourName") + " "}), input, " "];
  clear(box, el("h2", {text: t("play.openSeats")}), ...who, ...buttons);
}

function renderClock() {
  const box = $("clock");
  if (!game.deadline || OVER.includes(game.status)) { box.hidden = true; return; }
  box.hidden = false;
  const left = Math.max(0, Math.round((game.deadline - Date.now()) / 1000));
  box.textContent = t("play.clock", {name: name(game.to_move), left, move: game.clock.move_seconds});
}

function addLog(entries) {
  const list = $("log");
  for (const entry of entries) {
    if (logged.has(entry.version)) continue;
    logged.add(entry.version);
    list.append(el("li", {value: String(entry.version), text: words(entry)}));
  }
  list.scrollTop = list.scrollHeight;
}

async function load() {
  const token = mine ? mine.token : undefined;
  try {
    return await api("GET", PATH, {token});
  } catch (failure) {
    if (mine && (failure.status === 401 || failure.status === 403)) {
      seats.forget(GAME_ID);   // a stale token: watch instead
      mine = null;
      showError(t("play.seatRefused", {why: failure.message}), "change");
      return api("GET", PATH);
    }
    throw failure;
  }
}

// While reads fail, read again every RETRY_MS; the first read that works redraws.
function keepTrying() {
  if (retry) return;
  retry = setInterval(() => refresh(true), RETRY_MS);
}

// Read the game (and, on your turn, your legal moves) and draw it all; one read at a time.
// `force` redraws even when nothing changed (after a send, whatever its answer).
async function refresh(force = false) {
  forced = forced || force;
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      try {
        const fresh = await load();
        let legal = [];
        if (mine && fresh.to_move === mine.seat && !OVER.includes(fresh.status) && fresh.status !== "waiting") {
          try {  // the moves of the version just read (409: the game moved on since)
            legal = (await api("GET", PATH + "/moves?version=" + fresh.version, {token: mine.token})).moves;
          } catch (failure) {
            if (failure.code !== "version_conflict") throw failure;
            again = true;
          }
        }
        if (retry) { clearInterval(retry); retry = null; }
        if (fresh.version < atLeast) { again = true; continue; }  // a read begun before our move
        if (problem && problem.until === "reconnect") showError("");
        const key = fresh.version + " " + fresh.status + " " + JSON.stringify(legal);
        if (!game || forced || fresh.version > game.version || (fresh.version === game.version && key !== drawn)) {
          forced = false;
          const first = !game;
          game = fresh;
          moves = legal;
          drawn = key;
          draw();
          if (first) restartFollow();
        }
      } catch (failure) {
        if (failure.status === 0) {
          if (!problem) showError(t("play.unreachable"), "reconnect");
          keepTrying();
        } else showError(failure.message);
        if (game && forced) { forced = false; draw(); }
      }
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

function turnLine(shown) {
  if (OVER.includes(game.status)) return "";
  if (game.status === "waiting") return t("play.waiting", {link: location.origin + location.pathname});
  if (mine && game.to_move === mine.seat && shown.length) return t("play.yourTurn");
  if (steps.busy()) return t("play.othersMoves");
  if (mine && game.to_move === mine.seat) return t("play.yourTurnWait");
  return t("play.toMove", {name: name(game.to_move)});
}

// A press on the table or the choices while other moves are being shown ends the showing,
// and the press is taken: the table is not drawn again under it.
function pressEndsShowing() {
  if (!steps.busy()) return;
  steps.skip({quiet: true});
  $("turn").textContent = turnLine(sending ? [] : moves);
}

function draw() {
  if (!game) return;
  if (problem && problem.until === "next") showError("");
  if (problem && problem.until === "change" && game.version > problem.version) showError("");
  renderStatus();
  renderJoin();
  renderResult();
  renderClock();
  // Moves of a state older than one already known (our own move's, or one the stream told
  // of) are stale: the table shows them without choices until the newer state is read.
  const shown = sending || game.version < Math.max(atLeast, heard) ? [] : moves;
  const seat = mine ? mine.seat : null;
  const table = $("table");
  table.dataset.game = game.game;
  if (picked.version !== game.version) picked = {version: game.version, dice: new Set()};
  const picker = isDice() && game.view ? rerollPicker(shown, game.view, send, picked.dice) : null;
  if (!game.view) clear(table, el("p", {class: "muted", text: t("play.startsWhenFull")}));
  else if (isDice()) drawDiceTable(table, game.view, {seat, name, picker});
  else drawCardTable(table, game.view, {seat, name, moves: shown, send});
  const turn = $("turn");
  turn.textContent = turnLine(shown);
  $("turn-box").hidden = !turn.textContent && $("news").hidden;
  turn.dataset.mine = mine && game.to_move === mine.seat && shown.length ? "1" : "0";
  clear($("moves"), ...(shown.length && isDice() ? diceMoves(shown, game.view, seat, send, picker) : []));
  $("moves").hidden = !isDice();
  $("moves").classList.toggle("dice-moves", isDice() && !OVER.includes(game.status));
  steps.mark();
  if (game.view) clear($("legend"), ...(isDice() ? diceLegend(game.view.board) : cardLegend()));
  if (document.activeElement === document.body && shown.length) {
    const first = document.querySelector("[data-testid=moves] button:not([disabled]), [data-testid=table] [data-playable='1'], [data-testid=table] .target");
    if (first) first.focus({preventScroll: true});
  }
}

function restartFollow() {
  if (following) following.abort();
  following = new AbortController();
  const signal = following.signal;
  const start = game ? game.version : 0;
  follow(GAME_ID, mine ? mine.token : undefined, 0, (events) => {
    addLog(events);
    for (const event of events) heard = Math.max(heard, event.version || 0);
    const idle = !steps.busy();
    steps.add(events.filter((e) => e.version > start), mine ? mine.seat : null);
    if (idle && steps.busy()) draw();  // the table may already show the state after them
    refresh();
  }, signal).then(() => refresh());
}

// A game's status in words ("final round", "cancelled").
function statusWords(status) {
  return tOr("status." + status, status.replaceAll("_", " "));
}

async function main() {
  await startLanguage();
  ratingChange.line = el("p", {"data-testid": "rating-change", class: "muted", text: t("play.ratingUpdating")});
  window.addEventListener("online", () => refresh(true));
  for (const part of [$("table"), $("moves")]) {
    part.addEventListener("pointerdown", pressEndsShowing, true);
    part.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") pressEndsShowing(); }, true);
  }
  await refresh();
  if (!game) keepTrying();
  setInterval(() => game && renderClock(), 1000);
}

main();
