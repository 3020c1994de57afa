// The table page: a seat plays (its token from local storage), anyone else watches.
import {account, api, follow, newKey, seats} from "./api.js";
import {$, COLOURS, clear, colourTag, el} from "./dom.js";
import * as cardGame from "./cards.js";
import * as diceGame from "./dice.js";
import {eventWords} from "./words.js";

const GAME_ID = decodeURIComponent(location.pathname.split("/").pop());
const PATH = "/v1/games/" + encodeURIComponent(GAME_ID);
const OVER = ["finished", "cancelled", "expired"];
let mine = seats.get(GAME_ID);          // {seat, token, name} or null
let game = null;
let sending = false;
let refreshing = null;
let again = false;
let drawn = "";         // what the page shows: version, status and moves
let following = null;
const logged = new Set();

const name = (seat) => {
  const player = game && game.players[seat];
  return player ? (player.name || (player.open ? "open seat " + seat : "seat " + seat)) : "seat " + seat;
};
const initial = (seat) => String(seat + 1);

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function send(move) {
  if (sending || !mine) return;
  sending = true;
  for (const button of document.querySelectorAll("[data-testid=moves] button")) button.disabled = true;
  $("turn").textContent = "Sending your move…";
  try {
    await api("POST", PATH + "/moves", {token: mine.token, headers: {"Idempotency-Key": newKey()},
                                        body: {...move, expected_version: game.version}});
    showError("");
  } catch (problem) {
    showError(problem.message);
  } finally {
    sending = false;
    await refresh();
  }
}

function ctx() {
  return {seat: mine ? mine.seat : null, name, initial, send};
}

function module() {
  return game.game === "keltis-dice" ? diceGame : cardGame;
}

function renderStatus() {
  const title = (game.game === "keltis-dice" ? "Keltis dice" : "Keltis cards") + " · " +
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
  if (!OVER.includes(game.status)) { box.hidden = true; return; }
  box.hidden = false;
  const result = game.result || {};
  const parts = [el("h2", {text: game.status === "finished" ? "Game over" : "Game " + game.status})];
  if (result.winners && result.winners.length) {
    parts.push(el("p", {"data-testid": "winners", text: "Won by " + result.winners.map(name).join(" and ") + (result.shared ? " (shared)" : "")}));
  }
  if (result.scores) {
    parts.push(el("p", {text: "Final scores: " + result.scores.map((s, seat) => name(seat) + " " + s).join(", ")}));
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
      await refresh();
    } catch (problem) { showError(problem.message); }
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
    list.append(el("li", {value: String(entry.version), text: eventWords(entry, name)}));
  }
  list.scrollTop = list.scrollHeight;
}

async function load() {
  const token = mine ? mine.token : undefined;
  try {
    return await api("GET", PATH, {token});
  } catch (problem) {
    if (mine && (problem.status === 401 || problem.status === 403)) {
      seats.forget(GAME_ID);   // a stale token: watch instead
      mine = null;
      showError("Your saved seat was not accepted (" + problem.message + "); you are watching.");
      return api("GET", PATH);
    }
    throw problem;
  }
}

// Read the game (and, on your turn, your legal moves) and draw it all; one read at a time.
async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      try {
        const fresh = await load();
        let moves = [];
        if (mine && fresh.to_move === mine.seat && !OVER.includes(fresh.status) && fresh.status !== "waiting") {
          const answer = await api("GET", PATH + "/moves", {token: mine.token});
          if (answer.version === fresh.version) moves = answer.moves; else again = true;
        }
        const key = fresh.version + " " + fresh.status + " " + JSON.stringify(moves);
        if (!game || fresh.version > game.version || (fresh.version === game.version && key !== drawn)) {
          game = fresh;
          drawn = key;
          draw(moves);
        }
      } catch (problem) {
        showError(problem.message);
      }
    } while (again);
    refreshing = null;
  })();
  return refreshing;
}

function draw(moves) {
  renderStatus();
  renderJoin();
  renderResult();
  renderClock();
  const context = ctx();
  if (game.view) clear($("table"), ...module().renderTable(game, context));
  else clear($("table"), el("p", {class: "muted", text: "The game starts when every seat is taken."}));
  const turn = $("turn");
  if (OVER.includes(game.status)) turn.textContent = "";
  else if (game.status === "waiting") turn.textContent = "Waiting for players to join. Share this page's link: " + location.origin + location.pathname;
  else if (mine && game.to_move === mine.seat) turn.textContent = moves.length ? "Your turn: choose a move." : "Your turn…";
  else turn.textContent = name(game.to_move) + " is to move.";
  turn.dataset.mine = mine && game.to_move === mine.seat && moves.length ? "1" : "0";
  clear($("moves"), ...(moves.length ? module().renderMoves(moves, context, game.view) : []));
  const first = $("moves").querySelector("button:not([disabled])");
  if (first && document.activeElement === document.body) first.focus({preventScroll: true});
}

function restartFollow() {
  if (following) following.abort();
  following = new AbortController();
  const signal = following.signal;
  follow(GAME_ID, mine ? mine.token : undefined, 0, (events) => { addLog(events); refresh(); }, signal)
    .then(() => refresh());
}

function legend() {
  clear($("legend"), "Colours: ", ...[...COLOURS, "point"].map((c) => colourTag(c)));
}

async function main() {
  legend();
  await refresh();
  if (!game) return;
  restartFollow();
  setInterval(() => game && renderClock(), 1000);
}

main();
