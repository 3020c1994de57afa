// The table page: a seat plays (its token from local storage), anyone else watches.
import {account, api, follow, newKey, seats} from "./api.js";
import {$, clear, el} from "./dom.js";
import {cardLegend, drawCardTable} from "./cardTable.js";
import {diceLegend, diceMoves, drawDiceTable, fieldWords} from "./diceTable.js";
import {opponentSteps} from "./opponentSteps.js";
import {endWords, eventWords} from "./words.js";

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
const logged = new Set();

const name = (seat) => {
  const player = game && game.players[seat];
  return player ? (player.name || (player.open ? "open seat " + seat : "seat " + seat)) : "seat " + seat;
};
const isDice = () => game && game.game === "keltis-dice";
const field = (colour, number) => (isDice() && game.view ? fieldWords(game.view.board, colour, number) : "field " + number);
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
  $("turn").textContent = "Sending your move…";
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
    showError("Your move was not played: the game has moved on (another window or the clock moved first). The table shows the game as it is now.", "change");
  } else if (after.status === 0) {
    showError("Your move was not sent: the service could not be reached. The table comes back by itself when the connection does.", "reconnect");
    keepTrying();
  } else {
    showError(after.message, "change");
  }
}

function renderStatus() {
  const title = (isDice() ? "Keltis dice" : "Keltis cards") + " · " +
    game.players.map((p, seat) => name(seat) + (p.bot ? " (" + p.bot + " bot)" : "")).join(" vs ");
  $("title").textContent = title;
  document.title = title;
  $("status").textContent = (mine ? "You play " + name(mine.seat) : "Watching") + " · " +
    game.status.replaceAll("_", " ") + " · version " + game.version;
  $("status").dataset.version = String(game.version);
  $("status").dataset.state = game.status;
}

function renderResult() {
  const box = $("result");
  if (!OVER.includes(game.status)) { box.hidden = true; clear(box); return; }
  box.hidden = false;
  const result = game.result || {};
  const parts = [el("h2", {text: game.status === "finished" ? "Game over" : "Game " + game.status})];
  const ending = game.status === "finished" ? endWords(result.ended_by || result.ended, game.game) : "";
  if (ending) {
    parts.push(el("p", {"data-testid": "end-reason", text: ending.charAt(0).toUpperCase() + ending.slice(1) + "."}));
  }
  if (result.winners && result.winners.length) {
    parts.push(el("p", {"data-testid": "winners", text: "Won by " + result.winners.map(name).join(" and ") + (result.shared ? " (shared)" : "")}));
  }
  if (result.scores) {
    parts.push(el("p", {text: "Final scores: " + result.scores.map((s, seat) => name(seat) + " " + s).join(", ") + " (how they add up: below each player)."}));
  }
  if (game.status === "finished") {
    parts.push(el("p", {}, [el("a", {href: PATH + "/replay.html", "data-testid": "replay-link", text: "Watch the replay"}),
                            " · ", el("a", {href: PATH + "/replay", text: "download it"}), " · ", el("a", {href: "/", text: "back to the lobby"})]));
  }
  clear(box, ...parts);
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
    if (p.invite) body.invite = hash.get("invite") || prompt("Join code for seat " + (p.seat + 1)) || "";
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
  }}, text: "Take seat " + (p.seat + 1) + (p.invite ? " (join code)" : "")}));
  const who = signedIn ? [el("span", {text: "You join as your account " + signedIn.name + " "})]
                       : [el("label", {for: "join-name", text: "Your name "}), input, " "];
  clear(box, el("h2", {text: "Open seats"}), ...who, ...buttons);
}

function renderClock() {
  const box = $("clock");
  if (!game.deadline || OVER.includes(game.status)) { box.hidden = true; return; }
  box.hidden = false;
  const left = Math.max(0, Math.round((game.deadline - Date.now()) / 1000));
  box.textContent = name(game.to_move) + " must move within " + left + " s (move time " + game.clock.move_seconds + " s)";
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
      showError("Your saved seat was not accepted (" + failure.message + "); you are watching.", "change");
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
          if (!problem) showError("The service cannot be reached; trying again…", "reconnect");
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
  if (game.status === "waiting") return "Waiting for players to join. Share this page's link: " + location.origin + location.pathname;
  if (steps.busy()) return "The other moves, one by one…";
  if (mine && game.to_move === mine.seat) return shown.length ? "Your turn." : "Your turn…";
  return name(game.to_move) + " is to move.";
}

function draw() {
  if (!game) return;
  if (problem && problem.until === "next") showError("");
  if (problem && problem.until === "change" && game.version > problem.version) showError("");
  renderStatus();
  renderJoin();
  renderResult();
  renderClock();
  const shown = steps.busy() || sending ? [] : moves;
  const seat = mine ? mine.seat : null;
  const table = $("table");
  table.dataset.game = game.game;
  if (!game.view) clear(table, el("p", {class: "muted", text: "The game starts when every seat is taken."}));
  else if (isDice()) drawDiceTable(table, game.view, {seat, name});
  else drawCardTable(table, game.view, {seat, name, moves: shown, send});
  const turn = $("turn");
  turn.textContent = turnLine(shown);
  $("turn-box").hidden = !turn.textContent && $("news").hidden;
  turn.dataset.mine = mine && game.to_move === mine.seat && shown.length ? "1" : "0";
  clear($("moves"), ...(shown.length && isDice() ? diceMoves(shown, game.view, seat, send) : []));
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
    const idle = !steps.busy();
    steps.add(events.filter((e) => e.version > start), mine ? mine.seat : null);
    if (idle && steps.busy()) draw();  // the table may already show the state after them
    refresh();
  }, signal).then(() => refresh());
}

async function main() {
  window.addEventListener("online", () => refresh(true));
  await refresh();
  if (!game) keepTrying();
  setInterval(() => game && renderClock(), 1000);
}

main();
