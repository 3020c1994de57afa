// "Play now": a seek in the rated pool for the signed-in account (POST /v1/seeks). While it
// looks for opponents, the account's event stream (GET /v1/me/events) stays open: it keeps
// the seek alive and tells of the game it starts (game_started, matched to the seek's
// games); then the seek is cancelled (the game goes on) and the browser goes to the table,
// seated with the account's key.
import {account, api, ndjsonBatches, seats} from "./api.js";
import {$} from "./dom.js";
import {t} from "./i18n.js";
import {startLanguage} from "./language.js";

let looking = null;  // {seekId, key, controller} while a seek is open

function say(text, isError) {
  $("seek-status").textContent = text || "";
  $("seek-status").classList.toggle("error", !!isError);
}

function showButtons() {
  $("play-now").hidden = !!looking;
  $("seek-cancel").hidden = !looking;
}

const RECHECK_MS = 3000;  // once its bots are due (or refused), the seek is read again this often

// While the seek waits for a person: the seconds until its pool bots join (the seek's answer
// names them, `pool_bots`), then that they are joining until the game starts; or, while the
// account's bot CPU budget cannot pay for them (`pool_bots.refused`), that no bot joins and
// the search goes on for a person. Once they are due or refused the seek is read again
// (GET /v1/seeks), so the words follow a budget spent or refilled meanwhile. Counted from
// this browser's clock when an answer came, so a server clock ahead or behind does not
// matter. The stopper.
function countDown(poolBots, seekId, key) {
  let bots = poolBots;
  let joinsAt = Date.now() + (bots ? bots.joins_in_s * 1000 : 0);
  let readAt = joinsAt + RECHECK_MS;
  let reading = false;
  const panel = $("seek-panel");
  const recheck = async () => {
    reading = true;
    try {
      const seek = await currentSeek(seekId, key);
      if (seek) {
        bots = seek.pool_bots;
        joinsAt = Date.now() + (bots ? bots.joins_in_s * 1000 : 0);
      }
    } catch (_) { /* read again at the next */ }
    readAt = Math.max(joinsAt, Date.now()) + RECHECK_MS;
    reading = false;
  };
  const tick = () => {
    if (!bots || !bots.bots.length) {
      panel.dataset.bots = "none";
      delete panel.dataset.countdown;
      say(t("seek.looking"));
      return;
    }
    const seconds = Math.ceil((joinsAt - Date.now()) / 1000);
    if (bots.refused) {
      panel.dataset.bots = "refused";
      delete panel.dataset.countdown;
      say(t("seek.noBotBudget", {count: Math.max(1, Math.ceil(bots.refused.retry_after_s / 60))}));
    } else {
      panel.dataset.bots = seconds > 0 ? "counting" : "joining";
      panel.dataset.countdown = String(Math.max(0, seconds));
      say(botWords(bots.bots, seconds));
    }
    if (!reading && Date.now() >= readAt) recheck();
  };
  tick();
  const timer = setInterval(tick, 250);
  return () => clearInterval(timer);
}

// "a Level 1 bot joins in 4 s", then "A Level 1 bot is joining…"; bots by name where one is
// not a level.
function botWords(names, seconds) {
  const count = names.length;
  const levels = [...new Set(names.map((bot) => (/^level:(\d+)$/.exec(bot) || [])[1]))];
  const named = levels.includes(undefined);
  const params = named ? {name: [...new Set(names)].join(", "), count} : {level: levels.join(", "), count};
  if (seconds > 0) return named ? t("seek.countdownNamed", {...params, seconds}) : t("seek.countdown", {...params, seconds});
  return named ? t("seek.joiningNamed", params) : t("seek.joining", params);
}

function seekBody() {
  const game = $("seek-game").value;
  const body = {game, players: Number($("seek-count").value), rated: true};
  const seconds = Number($("seek-clock").value);
  if (seconds) body.clock = {move_seconds: seconds, fallback: "greedy"};
  return body;
}

// The seek as the service has it now (GET /v1/seeks), null once it is gone.
async function currentSeek(seekId, key) {
  const listed = await api("GET", "/v1/seeks", {token: key});
  return (listed.seeks || []).find((s) => s.id === seekId) || null;
}

// The account's event lines, until one says the seek's own game started (its id), or the
// stream ends. A `game_started` line tells of any game of the account (a challenge accepted
// meanwhile, another tab's Play now): it is this seek's only when the seek lists it among
// its games (written when the pass claimed the seek, before it made the game); another is
// let by (`data-passed` names the last). Once the stream is open (`data-listening`: its
// first batch, the opening lines or a keep-alive), the seek is looked at once, so a pairing
// before the stream opened is not missed.
async function startedGame(seekId, key, signal) {
  let opened = false;
  for await (const events of ndjsonBatches("/v1/me/events", {headers: {Authorization: "Bearer " + key}, signal})) {
    for (const event of events) {
      if (event.type !== "game_started") continue;
      const seek = await currentSeek(seekId, key);
      if (seek && seek.games.includes(event.game)) return event.game;
      $("seek-panel").dataset.passed = event.game;
    }
    if (!opened) {
      opened = true;
      $("seek-panel").dataset.listening = "1";
      const seek = await currentSeek(seekId, key);
      if (seek && seek.games.length) return seek.games[seek.games.length - 1];
    }
  }
  return null;
}

async function playNow() {
  const signedIn = account.get();
  if (!signedIn) { say(t("seek.signInFirst"), true); return; }
  say("");
  const controller = new AbortController();
  let seek;
  try {
    seek = await api("POST", "/v1/seeks", {body: seekBody(), token: signedIn.key});
  } catch (problem) { say(problem.message, true); return; }
  for (const mark of ["listening", "passed"]) delete $("seek-panel").dataset[mark];
  const stopCounting = countDown(seek.pool_bots, seek.id, signedIn.key);
  looking = {seekId: seek.id, key: signedIn.key, controller, stopCounting};
  showButtons();
  $("seek-panel").dataset.state = "looking";
  let gameId = null;
  while (looking && !gameId) {
    try {
      gameId = await startedGame(seek.id, signedIn.key, controller.signal);
    } catch (problem) {
      if (controller.signal.aborted) return;
    }
    // reconnect a second later (the seek waits out a short drop), never in a tight loop
    if (!gameId) await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  stopCounting();
  if (!gameId) return;
  try {
    const game = await api("GET", "/v1/games/" + encodeURIComponent(gameId), {token: signedIn.key});
    seats.set(gameId, {seat: game.seat, token: signedIn.key, name: signedIn.name});
    await api("DELETE", "/v1/seeks/" + encodeURIComponent(seek.id), {token: signedIn.key}).catch(() => null);
    looking = null;
  } finally {
    controller.abort();
  }
  $("seek-panel").dataset.state = "found";
  location.assign("/play/" + encodeURIComponent(gameId));
}

async function stopLooking() {
  if (!looking) return;
  const {seekId, key, controller, stopCounting} = looking;
  looking = null;
  stopCounting();
  controller.abort();
  showButtons();
  const panel = $("seek-panel");
  panel.dataset.state = "";
  delete panel.dataset.bots;
  delete panel.dataset.countdown;
  try { await api("DELETE", "/v1/seeks/" + encodeURIComponent(seekId), {token: key}); } catch (_) { /* it ended already */ }
  say(t("seek.stopped"));
}

// Leaving the page while looking ends the seek at once: left to the stream's grace, it would
// still be paired (a pool bot comes in seconds), and a second Play now would make two games.
function leaveSeek() {
  if (!looking) return;
  fetch("/v1/seeks/" + encodeURIComponent(looking.seekId), {
    method: "DELETE", headers: {Authorization: "Bearer " + looking.key}, keepalive: true,
  }).catch(() => null);
}

async function mount() {
  addEventListener("pagehide", leaveSeek);
  await startLanguage();
  $("play-now").addEventListener("click", playNow);
  $("seek-cancel").addEventListener("click", stopLooking);
  $("seek-panel").dataset.ready = "1";
}

mount();
