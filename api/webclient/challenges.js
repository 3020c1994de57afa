// The lobby's challenges: the signed-in account's incoming challenges with
// accept / decline, its outgoing ones with cancel, and "challenge" buttons beside each
// built-in bot and beside an account name typed in. The lists follow the account's event
// stream (/v1/me/events), so an answer or a new challenge shows at once.
import {account, api, ndjsonBatches, seats} from "./api.js";
import {$, clear, el} from "./dom.js";
import {botLabel, botsByGame, personBots} from "./bots.js";
import {t} from "./i18n.js";

const GAME_NAMES = {"keltis-card": "challenge.cardGame", "keltis-dice": "challenge.diceGame"};
const DECLINE_REASONS = ["generic", "later", "too_fast", "too_slow", "time_control", "rated", "casual", "game", "board", "no_bot", "only_bot"];
let following = null;  // the AbortController of the stream followed, and whose key it is
let followedKey = null;

function showError(message) {
  $("challenge-error").textContent = message || "";
  $("challenge-error").hidden = !message;
}

function opponentWords(c) {
  return c.opponents.map((o) => o.account || t("words.bot", {name: o.bot})).join(", ");
}

function words(c) {
  return (GAME_NAMES[c.game] ? t(GAME_NAMES[c.game]) : c.game) + ", " + t("challenge.players", {count: c.players}) +
    (c.rated ? ", " + t("challenge.rated") : "") + (c.match === "two_boards" ? ", " + t("challenge.twoBoards") : "") +
    (c.clock ? ", " + t("challenge.perMove", {seconds: c.clock.move_seconds}) : "");
}

// Remember the account's seat of a game it was challenged into, so the table page plays it.
async function rememberSeat(gameId, signedIn) {
  const game = await api("GET", "/v1/games/" + encodeURIComponent(gameId));
  const seat = game.players.findIndex((p) => (p.name || "").toLowerCase() === signedIn.name.toLowerCase());
  if (seat >= 0) seats.set(gameId, {seat, token: signedIn.key, name: signedIn.name});
}

function gameLink(gameId) {
  return el("a", {href: "/play/" + encodeURIComponent(gameId), "data-testid": "challenge-game-link", text: t("challenge.playGame")});
}

async function answer(c, action, body) {
  const signedIn = account.get();
  showError("");
  try {
    const after = await api("POST", "/v1/challenges/" + encodeURIComponent(c.id) + "/" + action,
                            {token: signedIn.key, body});
    if (after.status === "accepted" && after.game_id) {
      await rememberSeat(after.game_id, signedIn);
      clear($("challenge-result"), t("challenge.accepted") + " ", gameLink(after.game_id));
    }
  } catch (problem) { showError(problem.message); }
  await refresh();
}

function incomingItem(c) {
  const reason = el("select", {"data-testid": "decline-reason", "aria-label": t("challenge.why")},
    DECLINE_REASONS.map((r) => el("option", {value: r, text: t("decline." + r)})));
  return el("li", {"data-challenge": c.id}, [
    el("span", {text: t("challenge.challengesYou", {name: c.challenger, what: words(c)}) + " "}),
    el("button", {type: "button", "data-testid": "accept-challenge", class: "primary", text: t("challenge.accept"),
                  on: {click: () => answer(c, "accept")}}), " ",
    el("button", {type: "button", "data-testid": "decline-challenge", text: t("challenge.decline"),
                  on: {click: () => answer(c, "decline", {reason: reason.value})}}), " ", reason,
  ]);
}

function outgoingItem(c) {
  return el("li", {"data-challenge": c.id}, [
    el("span", {text: t("challenge.youChallenged", {names: opponentWords(c), what: words(c)}) + " "}),
    el("button", {type: "button", "data-testid": "cancel-challenge", text: t("challenge.cancel"),
                  on: {click: () => answer(c, "cancel")}}),
  ]);
}

async function refresh() {
  const signedIn = account.get();
  $("challenges").hidden = !signedIn;
  if (!signedIn) return;
  try {
    const incoming = await api("GET", "/v1/challenges?direction=incoming", {token: signedIn.key});
    const outgoing = await api("GET", "/v1/challenges?direction=outgoing", {token: signedIn.key});
    clear($("incoming-challenges"), ...incoming.challenges.map(incomingItem));
    clear($("outgoing-challenges"), ...outgoing.challenges.map(outgoingItem));
    $("no-challenges").hidden = incoming.challenges.length + outgoing.challenges.length > 0;
  } catch (problem) { showError(problem.message); }
}

async function send(opponent) {
  const signedIn = account.get();
  showError("");
  const body = {game: $("challenge-game").value, opponents: [opponent], rated: $("challenge-rated").checked};
  try {
    const made = await api("POST", "/v1/challenges", {token: signedIn.key, body});
    if (made.status === "accepted" && made.game_id) {  // a built-in bot accepts at once
      await rememberSeat(made.game_id, signedIn);
      clear($("challenge-result"), t("challenge.accepted") + " ", gameLink(made.game_id));
    }
  } catch (problem) { showError(problem.message); }
  await refresh();
}

// A "challenge" button beside each built-in bot of the chosen game.
async function botButtons() {
  const answer = await api("GET", "/v1/bots");
  const chosen = botsByGame(answer)[$("challenge-game").value] || [];
  clear($("challenge-bots"), ...personBots(chosen).map((bot) =>
    el("li", {}, [el("span", {text: botLabel(bot) + " "}),
      el("button", {type: "button", "data-testid": "challenge-bot", "data-bot": bot.name, text: t("challenge.send"),
                    "aria-label": t("challenge.botLabel", {bot: botLabel(bot)}), on: {click: () => send({bot: bot.name})}})])));
}

// Follow the account's event stream: every challenge line refreshes the lists; an accepted
// challenge of this account shows a link to its game.
async function follow(signedIn, signal) {
  while (!signal.aborted) {
    try {
      const headers = {Authorization: "Bearer " + signedIn.key};
      for await (const events of ndjsonBatches("/v1/me/events", {headers, signal})) {
        for (const event of events) {
          if (!event.type.startsWith("challenge")) continue;
          if (event.type === "challenge_accepted" && event.challenge.game_id) {
            await rememberSeat(event.challenge.game_id, signedIn);
            clear($("challenge-result"), t("challenge.accepted") + " ", gameLink(event.challenge.game_id));
          }
          await refresh();
        }
      }
    } catch (_) {
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

// Follow whichever account is signed in (the account panel may change it at any time).
function watchAccount() {
  const signedIn = account.get();
  const key = signedIn ? signedIn.key : null;
  if (key === followedKey) return;
  if (following) following.abort();
  following = null;
  followedKey = key;
  refresh();
  if (signedIn) {
    following = new AbortController();
    follow(signedIn, following.signal);
  }
}

export function mountChallenges() {
  $("challenge-send").addEventListener("click", () => {
    const name = $("challenge-name").value.trim();
    if (name) send({account: name});
  });
  $("challenge-game").addEventListener("change", () => botButtons().catch((p) => showError(p.message)));
  botButtons().catch((p) => showError(p.message));
  watchAccount();
  setInterval(watchAccount, 1000);
}
