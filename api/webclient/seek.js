// "Play now": a seek in the rated pool for the signed-in account (POST /v1/seeks). While it
// looks for opponents, the account's event stream (GET /v1/me/events) stays open: it keeps
// the seek alive and tells of the game it starts (game_started); then the seek is cancelled
// (the game goes on) and the browser goes to the table, seated with the account's key.
import {account, api, ndjsonBatches, seats} from "./api.js";
import {$} from "./dom.js";

let looking = null;  // {seekId, key, controller} while a seek is open

function say(text, isError) {
  $("seek-status").textContent = text || "";
  $("seek-status").classList.toggle("error", !!isError);
}

function showButtons() {
  $("play-now").hidden = !!looking;
  $("seek-cancel").hidden = !looking;
}

function seekBody() {
  const game = $("seek-game").value;
  const body = {game, players: Number($("seek-count").value), rated: true};
  const seconds = Number($("seek-clock").value);
  if (seconds) body.clock = {move_seconds: seconds, fallback: "greedy"};
  return body;
}

// A game the seek already started (GET /v1/seeks): the stream announces only games that
// start while it is open, so one paired before it opened is found here.
async function pairedAlready(seekId, key) {
  const listed = await api("GET", "/v1/seeks", {token: key});
  const seek = (listed.seeks || []).find((s) => s.id === seekId);
  return seek && seek.games.length ? seek.games[seek.games.length - 1] : null;
}

// The account's event lines, until one says a game started (its id), or the stream ends.
// Once the stream is open (its first batch: the opening lines or a keep-alive), the seek
// is looked at once, so a pairing before the stream opened is not missed.
async function startedGame(seekId, key, signal) {
  let opened = false;
  for await (const events of ndjsonBatches("/v1/me/events", {headers: {Authorization: "Bearer " + key}, signal})) {
    for (const event of events) {
      if (event.type === "game_started") return event.game;
    }
    if (!opened) {
      opened = true;
      const found = await pairedAlready(seekId, key);
      if (found) return found;
    }
  }
  return null;
}

async function playNow() {
  const signedIn = account.get();
  if (!signedIn) { say("Sign in (or create an account) first: Play now finds rated games for an account.", true); return; }
  say("");
  const controller = new AbortController();
  let seek;
  try {
    seek = await api("POST", "/v1/seeks", {body: seekBody(), token: signedIn.key});
  } catch (problem) { say(problem.message, true); return; }
  looking = {seekId: seek.id, key: signedIn.key, controller};
  showButtons();
  say("Looking for opponents of your level…");
  $("seek-panel").dataset.state = "looking";
  let gameId = null;
  while (looking && !gameId) {
    try {
      gameId = await startedGame(seek.id, signedIn.key, controller.signal);
    } catch (problem) {
      if (controller.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));  // reconnect: the seek waits out a short drop
    }
  }
  if (!gameId) return;
  try {
    const game = await api("GET", "/v1/games/" + encodeURIComponent(gameId), {token: signedIn.key});
    seats.set(gameId, {seat: game.seat, token: signedIn.key, name: signedIn.name});
    await api("DELETE", "/v1/seeks/" + encodeURIComponent(seek.id), {token: signedIn.key}).catch(() => null);
  } finally {
    controller.abort();
  }
  $("seek-panel").dataset.state = "found";
  location.assign("/play/" + encodeURIComponent(gameId));
}

async function stopLooking() {
  if (!looking) return;
  const {seekId, key, controller} = looking;
  looking = null;
  controller.abort();
  showButtons();
  $("seek-panel").dataset.state = "";
  try { await api("DELETE", "/v1/seeks/" + encodeURIComponent(seekId), {token: key}); } catch (_) { /* it ended already */ }
  say("Stopped looking.");
}

function mount() {
  $("play-now").addEventListener("click", playNow);
  $("seek-cancel").addEventListener("click", stopLooking);
  $("seek-panel").dataset.ready = "1";
}

mount();
