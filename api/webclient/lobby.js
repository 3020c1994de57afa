// The lobby: create a game (seats: you, open, built-in bots), lists of games, tournaments.
import {account, api, listGames, seats} from "./api.js";
import {$, clear, el, ratingWords} from "./dom.js";
import {mountChallenges} from "./challenges.js";
import {botLabel, botsByGame, personBot, personBots} from "./bots.js";
import {describeGame, distinctLines} from "./gamelines.js";
import {t} from "./i18n.js";
import {startLanguage} from "./language.js";

const GAME_NAMES = {"keltis-card": "lobby.ratingCards", "keltis-dice": "lobby.ratingDice"};
let bots = {};

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

// The service's bots of a game, each {name, strength, description} (bots.js).
// The bots a person chooses from in `game`: its levels, then bots that are no level.
function botChoices(game) {
  return personBots(bots[game] || []);
}

// Each level once (the same level number names a bot of its strength in both games), with
// its strength and what it does in each game.
function showBotHints() {
  const seen = new Map();
  for (const [game, list] of Object.entries(bots)) {
    for (const bot of personBots(list)) {
      const key = bot.level ? "level:" + bot.level : bot.name;
      if (!seen.has(key)) seen.set(key, {bot, games: []});
      seen.get(key).games.push([game, bot]);
    }
  }
  clear($("bot-hints"), ...[...seen.entries()].map(([key, {bot, games}]) => el("li", {"data-bot": key}, [
    el("b", {text: bot.level ? t("bots.level", {level: bot.level}) : t("bots.named", {name: bot.name})}),
    " · " + [...new Set(games.map(([, b]) => b.strength).filter(Boolean))].join(" / "),
    bot.description ? ": " + bot.description : ""])));
}

function seatRows() {
  const game = $("game").value;
  const count = Number($("count").value);
  const choices = botChoices(game);
  // greedy's level (or the middle one) is the default opponent.
  const middle = personBot(choices, "greedy") || choices[Math.floor(choices.length / 2)];
  const strongest = middle ? middle.name : null;
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const select = el("select", {id: "seat-" + seat, "data-testid": "seat-" + seat}, [
      el("option", {value: "me", text: t("lobby.seatMe")}),
      el("option", {value: "open", text: t("lobby.seatOpen")}),
      el("option", {value: "invite", text: t("lobby.seatInvite")}),
      ...choices.map((bot) => el("option", {value: "bot:" + bot.name, text: botLabel(bot)})),
    ]);
    select.value = seat === 0 ? "me" : strongest ? "bot:" + strongest : "open";
    rows.push(el("li", {}, [el("label", {for: "seat-" + seat, text: t("lobby.seatN", {n: seat + 1}) + " "}), select]));
  }
  clear($("seats"), ...rows);
  $("board-box").hidden = game !== "keltis-dice";
}

// A turn clock from the lobby's choice: the move time, no bank, and the strongest built-in
// bot plays for a seat whose time is up (the service's clocks, application.clocks).
function turnClock(game) {
  const seconds = Number($("clock").value);
  if (!seconds) return null;
  const names = (bots[game] || []).map((bot) => bot.name);
  return {move_seconds: seconds, fallback: names.includes("greedy") ? "greedy" : names[0]};
}

function players() {
  const me = $("name").value.trim() || $("name").placeholder || t("lobby.guest");
  const count = Number($("count").value);
  const list = [];
  let mine = null;
  for (let seat = 0; seat < count; seat += 1) {
    const choice = $("seat-" + seat).value;
    if (choice === "me") {
      if (mine !== null) throw new Error(t("lobby.oneSeat"));
      mine = seat;
      const signedIn = account.get();
      list.push(signedIn ? {account: signedIn.name} : {name: me});
    } else if (choice === "open") list.push({open: true});
    else if (choice === "invite") list.push({open: true, invite: true});
    else {
      const bot = choice.slice(4);
      const used = list.filter((p) => p.bot === bot).length;
      list.push({name: bot + (used ? "-" + (used + 1) : ""), bot});
    }
  }
  return {list, mine};
}

async function create(event) {
  event.preventDefault();
  showError("");
  let chosen;
  try { chosen = players(); } catch (problem) { showError(problem.message); return; }
  const game = $("game").value;
  const body = {game, players: chosen.list};
  if (game === "keltis-dice") body.options = {board: $("board").value};
  const clock = turnClock(game);
  if (clock) body.clock = clock;
  const signedIn = account.get();
  if (signedIn && $("rated").checked) body.rated = true;
  $("create").disabled = true;
  try {
    const made = await api("POST", "/v1/games", {body, token: signedIn ? signedIn.key : undefined});
    localStorage.setItem("keltis.name", $("name").value.trim());
    const token = made.seats.find((s) => s.seat === chosen.mine);
    if (token) seats.set(made.id, {seat: token.seat, token: token.token, name: token.name});
    else if (signedIn && chosen.mine !== null) seats.set(made.id, {seat: chosen.mine, token: signedIn.key, name: signedIn.name});
    remember(made.id, game);
    const link = location.origin + "/play/" + encodeURIComponent(made.id);
    if (made.invites.length || made.status === "waiting") {
      const items = made.players.filter((p) => p.open).map((p) => {
        const invite = made.invites.find((i) => i.seat === p.seat);
        const url = link + (invite ? "#invite=" + encodeURIComponent(invite.code) : "");
        return el("li", {}, [t("lobby.seatN", {n: p.seat + 1}) + ": ", el("input", {readonly: true, value: url, size: "48", "aria-label": t("lobby.joinLinkOf", {n: p.seat + 1})})]);
      });
      clear($("created"), el("p", {text: t("lobby.shareLinks")}), el("ul", {}, items),
            el("p", {}, [el("a", {href: "/play/" + encodeURIComponent(made.id), "data-testid": "go-table", text: t("lobby.goToTable")})]));
      $("created").hidden = false;
    } else {
      location.assign("/play/" + encodeURIComponent(made.id));
    }
  } catch (problem) {
    showError(problem.message);
  } finally {
    $("create").disabled = false;
  }
}

function remember(id, game) {
  const list = JSON.parse(localStorage.getItem("keltis.mine") || "[]").filter((g) => g.id !== id);
  list.unshift({id, game, at: Date.now()});
  localStorage.setItem("keltis.mine", JSON.stringify(list.slice(0, 20)));
}

const LEFT_AFTER_MS = 24 * 3600 * 1000;

function gameItem(g, status, text) {
  const play = "/play/" + encodeURIComponent(g.id);
  const links = [el("a", {href: play, text: t(status === "waiting" ? "lobby.join" : status === "finished" ? "lobby.finalTable" : "lobby.watch")})];
  if (status === "finished") links.push(" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: t("lobby.replay")}));
  return el("li", {"data-game": g.id}, [el("span", {class: "line", text: text + " "}), ...links]);
}

async function fillList(status) {
  const box = $("list-" + status);
  let cursor = null;
  const shown = new Set();  // the lines so far: a repeated one gets its game's id suffix
  const more = el("button", {type: "button", class: "more", text: t("lobby.more"), on: {click: () => page()}});
  const page = async () => {
    try {
      const found = await listGames({status, limit: "8"}, cursor);
      const next = found.next;
      // a game without a move for a day has been left: it leaves the live list
      const games = status === "active" ? found.games.filter((g) => Date.now() - g.updated_at < LEFT_AFTER_MS) : found.games;
      cursor = next;
      more.remove();
      const lines = distinctLines(games.map((g) => describeGame(g)), games, shown);
      box.append(...games.map((g, i) => gameItem(g, status, lines[i])));
      if (!box.children.length) box.append(el("li", {class: "muted", text: t("lobby.noneNow")}));
      if (next !== null && next !== undefined) box.after(more);
      if (status === "active") tournaments();
    } catch (problem) {
      box.append(el("li", {class: "error", text: problem.message}));
    }
  };
  clear(box);
  await page();
}

// The newest running tournaments (GET /v1/tournaments), each with its live standings.
async function tournaments() {
  const box = $("tournaments");
  let listed = [];
  try {
    listed = (await api("GET", "/v1/tournaments?limit=20")).tournaments;
  } catch (problem) {
    clear(box, el("p", {class: "error", text: problem.message}));
    return;
  }
  const ids = listed.filter((one) => one.status === "running").map((one) => one.id).slice(0, 3);
  if (!ids.length) { clear(box, el("p", {class: "muted", text: t("lobby.noneNow")})); return; }
  const parts = [];
  for (const id of ids) {
    try {
      const tour = await api("GET", "/v1/tournaments/" + encodeURIComponent(id));
      const head = el("tr", {}, ["lobby.tEntry", "lobby.tGames", "lobby.tWins", "lobby.tMean"].map((h) => el("th", {text: t(h)})));
      const rows = tour.standings.map((s) => el("tr", {}, [s.bot, s.games, s.wins, s.mean_score.toFixed(1)].map((v) => el("td", {text: String(v)}))));
      parts.push(el("div", {}, [el("h3", {text: t("lobby.tournament", {game: tour.game, id, done: tour.progress.finished, count: tour.games})}),
                                el("table", {class: "scores"}, [el("thead", {}, [head]), el("tbody", {}, rows)])]));
    } catch (_) { /* gone since it was listed */ }
  }
  clear(box, ...(parts.length ? parts : [el("p", {class: "muted", text: t("lobby.noneNow")})]));
}

// The games of this browser's seats, and (signed in) the account's own games from any
// browser: its key plays them, so each is remembered with the key as its seat's token.
async function myGames() {
  const list = JSON.parse(localStorage.getItem("keltis.mine") || "[]").filter((g) => seats.get(g.id));
  const signedIn = account.get();
  if (signedIn) {
    try {
      const page = await api("GET", "/v1/me/games?limit=10", {token: signedIn.key});
      for (const g of page.games) {
        if (!seats.get(g.id)) seats.set(g.id, {seat: g.seats[0], token: signedIn.key, name: signedIn.name});
        if (!list.some((known) => known.id === g.id)) list.push({id: g.id, game: g.game, turn: g.my_turn});
      }
    } catch (problem) {
      if (problem.status === 401) {  // the key was replaced, or the session ended, elsewhere
        if (account.forgetIfStill(signedIn.key)) {
          await showAccount();
          showAccountError(t(signedIn.session ? "account.sessionEnded" : "lobby.keyReplaced"));
        }
      } else showAccountError(problem.message);
    }
  }
  // Each game's players, status and result (GET /v1/games/{id}, as its seat sees it).
  const shownGames = list.slice(0, 12);
  const loaded = await Promise.all(shownGames.map(async (g) => {
    const seat = seats.get(g.id);
    try {
      return await api("GET", "/v1/games/" + encodeURIComponent(g.id), {token: seat ? seat.token : undefined});
    } catch (_) { return null; }
  }));
  const games = shownGames.map((g, i) => loaded[i] || {id: g.id, game: g.game, players: [], status: "gone"});
  const lines = distinctLines(games.map((g) => {
    const seat = seats.get(g.id);
    return describeGame(g, seat ? seat.seat : null);
  }), games, new Set());
  const items = games.map((g, i) => el("li", {"data-game": g.id}, [
    el("a", {href: "/play/" + encodeURIComponent(g.id), class: "line", text: lines[i]}),
    g.status === "active" && g.seat !== null && g.to_move === g.seat ? el("span", {class: "notice", text: " · " + t("lobby.yourTurn")}) : "",
    g.status === "finished" ? [" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: t("lobby.replay")})] : "",
  ].flat()));
  clear($("my-games"), ...(items.length ? items : [el("li", {class: "muted", text: t("lobby.noneYet")})]));
}

function showAccountError(message) {
  $("account-error").textContent = message || "";
  $("account-error").hidden = !message;
}

// The account panel: signed out, a name to sign up with or a key to sign in with; signed in,
// the name, its ratings, and the rated choice in the new-game form.
async function showAccount(newKey, newSecret) {
  const signedIn = account.get();
  $("signed-out").hidden = !!signedIn;
  $("signed-in").hidden = !signedIn;
  $("rated-box").hidden = !signedIn;
  $("name").disabled = !!signedIn;  // signed in, "me" is the account
  $("name").value = signedIn ? signedIn.name : localStorage.getItem("keltis.name") || "";
  if (!signedIn) return;
  $("account-shown").textContent = signedIn.name;
  $("sessions-link").href = "/accounts/" + encodeURIComponent(signedIn.name) + "#sessions";
  $("current-password-box").hidden = !signedIn.session;  // a session gives the password again
  $("new-key").hidden = !newKey;
  if (newKey) $("new-key").textContent = (newSecret ? t("lobby.newSecret", {secret: newSecret}) + " " : "") +
    t("lobby.newKey", {key: newKey});
  try {
    const me = await api("GET", "/v1/accounts/" + encodeURIComponent(signedIn.name));
    const ratings = Object.entries(me.ratings || {}).map(([game, r]) => (GAME_NAMES[game] ? t(GAME_NAMES[game]) : game) + " " + ratingWords(r));
    $("account-rating").textContent = "· " + (ratings.length ? t("lobby.rating", {ratings: ratings.join(", ")}) : t("lobby.notRated"));
  } catch (_) { $("account-rating").textContent = ""; }
}

// This browser holds the account now (by its key, or by a session: `session` its id), and
// the account's box and games show it; `field` (the secret typed) is emptied.
async function holdAccount(name, token, session, field, newKey) {
  account.set(name, token, session);
  $(field).value = "";
  await showAccount(newKey);
  await myGames();
}

// With a password the browser signs in by it (a session) and shows the key once, for
// programs; without one the browser keeps the key, as before passwords.
async function signUp() {
  showAccountError("");
  const name = $("account-name").value.trim();
  const password = $("account-password").value;
  try {
    const made = await api("POST", "/v1/accounts", {body: password ? {name, password} : {name}});
    const session = password ? await api("POST", "/v1/sessions", {body: {name: made.name, password}}) : null;
    await holdAccount(made.name, session ? session.token : made.key, session && session.session.id, "account-password", made.key);
  } catch (problem) { showAccountError(problem.message); }
}

async function passwordSignIn() {
  showAccountError("");
  const body = {name: $("account-name").value.trim(), password: $("account-password").value};
  try {
    const made = await api("POST", "/v1/sessions", {body});
    await holdAccount(made.name, made.token, made.session.id, "account-password");
  } catch (problem) { showAccountError(problem.message); }
}

// Set (or change) the password; every session ends, and this browser, when it holds one,
// gets a new one in the answer.
async function setPassword() {
  showAccountError("");
  const signedIn = account.get();
  const body = {password: $("new-password").value};
  if (signedIn.session) body.current_password = $("current-password").value;
  try {
    const made = await api("PUT", "/v1/me/password", {token: signedIn.key, body});
    if (made.session) account.set(made.name, made.session.token, made.session.session.id);
    $("new-password").value = "";
    $("current-password").value = "";
    $("password-status").textContent = t("account.passwordSet");
  } catch (problem) { showAccountError(problem.message); }
}

async function signIn() {
  showAccountError("");
  const key = $("account-key").value.trim();
  try {
    const me = await api("GET", "/v1/me", {token: key});
    await holdAccount(me.name, key, null, "account-key");
  } catch (problem) { showAccountError(problem.message); }
}

// A new key (and webhook secret) for the account: the old key stops working at once, so a
// key that may have leaked is worthless; this browser's seats move to the new key.
async function replaceKey() {
  showAccountError("");
  const signedIn = account.get();
  // a session replaces the key only with the password given again
  const password = signedIn.session ? window.prompt(t("account.passwordAgain")) : null;
  if (signedIn.session && password === null) return;
  try {
    const made = await api("POST", "/v1/me/key", {token: signedIn.key, body: password === null ? undefined : {password}});
    account.set(made.name, made.key);
    seats.retoken(signedIn.key, made.key);
    await showAccount(made.key, made.webhook ? made.webhook_secret : null);
  } catch (problem) { showAccountError(problem.message); }
}

async function signOut() {
  const signedIn = account.get();
  if (signedIn && signedIn.session) {  // the session ends on the server too
    try { await api("DELETE", "/v1/me/sessions/" + encodeURIComponent(signedIn.session), {token: signedIn.key}); } catch (_) { /* ended already */ }
  }
  account.forget();
  showAccountError("");
  await showAccount();
  await myGames();
}

async function main() {
  await startLanguage();
  $("name").value = localStorage.getItem("keltis.name") || "";
  $("create-form").addEventListener("submit", create);
  $("game").addEventListener("change", seatRows);
  $("count").addEventListener("change", seatRows);
  $("clock").addEventListener("change", () => { $("clock-hint").hidden = !$("clock").value; });
  $("sign-up").addEventListener("click", signUp);
  $("sign-in").addEventListener("click", signIn);
  $("password-sign-in").addEventListener("click", passwordSignIn);
  $("set-password").addEventListener("click", setPassword);
  $("sign-out").addEventListener("click", signOut);
  $("replace-key").addEventListener("click", replaceKey);
  try {
    const answer = await api("GET", "/v1/bots");
    bots = botsByGame(answer);
  } catch (problem) { showError(problem.message); }
  showBotHints();
  seatRows();
  await showAccount();
  await myGames();
  mountChallenges();
  document.body.dataset.ready = "1";
  await Promise.all(["waiting", "active", "finished"].map(fillList));
  document.body.dataset.lists = "1";
}

main();
