// The lobby: create a game (seats: you, open, built-in bots), lists of games, tournaments.
import {account, api, listGames, seats} from "./api.js";
import {$, clear, el} from "./dom.js";
import {mountChallenges} from "./challenges.js";
import {botLabel, botsByGame, strengthWords} from "./bots.js";
import {describeGame, distinctLines} from "./gamelines.js";

const GAME_NAMES = {"keltis-card": "cards", "keltis-dice": "dice"};
let bots = {};

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

// The service's bots of a game, each {name, strength, description} (bots.js).
function botChoices(game) {
  return bots[game] || [];
}

// Each bot once, with its strength and what it does.
function showBotHints() {
  const seen = new Map();
  for (const list of Object.values(bots)) for (const bot of list) if (!seen.has(bot.name)) seen.set(bot.name, bot);
  const order = ["beginner", "easy", "medium", "strong", "strongest"];
  const rank = (bot) => { const at = order.indexOf(bot.strength); return at < 0 ? order.length : at; };
  // weakest first; a level before a bot of the same strength, levels by number
  const byStrength = (a, b) => rank(a) - rank(b) || (b.level ? 1 : 0) - (a.level ? 1 : 0) || (a.level || 0) - (b.level || 0);
  clear($("bot-hints"), ...[...seen.values()].sort(byStrength).map((bot) => el("li", {"data-bot": bot.name}, [
    el("b", {text: bot.level ? "level " + bot.level : bot.name}), strengthWords(bot) ? " · " + strengthWords(bot) : "",
    bot.description ? ": " + bot.description : ""])));
}

function seatRows() {
  const game = $("game").value;
  const count = Number($("count").value);
  const choices = botChoices(game);
  const names = choices.map((bot) => bot.name);
  // greedy (or the last one listed) is the default opponent.
  const strongest = names.includes("greedy") ? "greedy" : names[names.length - 1];
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const select = el("select", {id: "seat-" + seat, "data-testid": "seat-" + seat}, [
      el("option", {value: "me", text: "me"}),
      el("option", {value: "open", text: "open seat (share the link)"}),
      el("option", {value: "invite", text: "open seat with a join code"}),
      ...choices.map((bot) => el("option", {value: "bot:" + bot.name, text: botLabel(bot)})),
    ]);
    select.value = seat === 0 ? "me" : strongest ? "bot:" + strongest : "open";
    rows.push(el("li", {}, [el("label", {for: "seat-" + seat, text: "Seat " + (seat + 1) + " "}), select]));
  }
  clear($("seats"), ...rows);
  $("board-box").hidden = game !== "keltis-dice";
}

// A turn clock from the lobby's choice: the move time, no bank, and the strongest built-in
// bot plays for a seat whose time is up (the service's clocks, application.clocks).
function turnClock(game) {
  const seconds = Number($("clock").value);
  if (!seconds) return null;
  const names = botChoices(game).map((bot) => bot.name);
  return {move_seconds: seconds, fallback: names.includes("greedy") ? "greedy" : names[0]};
}

function players() {
  const me = $("name").value.trim() || $("name").placeholder || "Guest";
  const count = Number($("count").value);
  const list = [];
  let mine = null;
  for (let seat = 0; seat < count; seat += 1) {
    const choice = $("seat-" + seat).value;
    if (choice === "me") {
      if (mine !== null) throw new Error("Only one seat can be yours on this browser.");
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
        return el("li", {}, ["Seat " + (p.seat + 1) + ": ", el("input", {readonly: true, value: url, size: "48", "aria-label": "join link of seat " + (p.seat + 1)})]);
      });
      clear($("created"), el("p", {text: "Share a link with each player you invite:"}), el("ul", {}, items),
            el("p", {}, [el("a", {href: "/play/" + encodeURIComponent(made.id), "data-testid": "go-table", text: "Go to the table"})]));
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

function gameItem(g, status, text) {
  const play = "/play/" + encodeURIComponent(g.id);
  const links = [el("a", {href: play, text: status === "waiting" ? "join" : status === "finished" ? "final table" : "watch"})];
  if (status === "finished") links.push(" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: "replay"}));
  return el("li", {"data-game": g.id}, [el("span", {class: "line", text: text + " "}), ...links]);
}

async function fillList(status) {
  const box = $("list-" + status);
  let cursor = null;
  const shown = new Set();  // the lines so far: a repeated one gets its game's id suffix
  const more = el("button", {type: "button", class: "more", text: "more", on: {click: () => page()}});
  const page = async () => {
    try {
      const {games, next} = await listGames({status, limit: "8"}, cursor);
      cursor = next;
      more.remove();
      const lines = distinctLines(games.map((g) => describeGame(g)), games, shown);
      box.append(...games.map((g, i) => gameItem(g, status, lines[i])));
      if (!box.children.length) box.append(el("li", {class: "muted", text: "none right now"}));
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
  const ids = listed.filter((t) => t.status === "running").map((t) => t.id).slice(0, 3);
  if (!ids.length) { clear(box, el("p", {class: "muted", text: "none right now"})); return; }
  const parts = [];
  for (const id of ids) {
    try {
      const t = await api("GET", "/v1/tournaments/" + encodeURIComponent(id));
      const head = el("tr", {}, ["entry", "games", "wins", "mean score"].map((h) => el("th", {text: h})));
      const rows = t.standings.map((s) => el("tr", {}, [s.bot, s.games, s.wins, s.mean_score.toFixed(1)].map((v) => el("td", {text: String(v)}))));
      parts.push(el("div", {}, [el("h3", {text: t.game + " tournament " + id + " (" + t.progress.finished + " of " + t.games + " games)"}),
                                el("table", {class: "scores"}, [el("thead", {}, [head]), el("tbody", {}, rows)])]));
    } catch (_) { /* gone since it was listed */ }
  }
  clear(box, ...(parts.length ? parts : [el("p", {class: "muted", text: "none right now"})]));
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
      if (problem.status === 401) {  // the key was replaced from another browser
        account.forget();
        await showAccount();
        showAccountError("This browser's account key no longer works (it was replaced): sign in with the new key.");
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
    g.status === "active" && g.seat !== null && g.to_move === g.seat ? el("span", {class: "notice", text: " · your turn"}) : "",
    g.status === "finished" ? [" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: "replay"})] : "",
  ].flat()));
  clear($("my-games"), ...(items.length ? items : [el("li", {class: "muted", text: "none yet"})]));
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
  $("new-key").hidden = !newKey;
  if (newKey) $("new-key").textContent = (newSecret ? "Your webhook secret is new too: " + newSecret + ". " : "") +
    "Your key (shown once: keep it to sign in elsewhere): " + newKey;
  try {
    const me = await api("GET", "/v1/accounts/" + encodeURIComponent(signedIn.name));
    const ratings = Object.entries(me.ratings || {}).map(([game, r]) => (GAME_NAMES[game] || game) + " " + r.ordinal.toFixed(1));
    $("account-rating").textContent = ratings.length ? "· rating " + ratings.join(", ") : "· not rated yet";
  } catch (_) { $("account-rating").textContent = ""; }
}

async function signUp() {
  showAccountError("");
  try {
    const made = await api("POST", "/v1/accounts", {body: {name: $("account-name").value.trim()}});
    account.set(made.name, made.key);
    await showAccount(made.key);
    await myGames();
  } catch (problem) { showAccountError(problem.message); }
}

async function signIn() {
  showAccountError("");
  const key = $("account-key").value.trim();
  try {
    const me = await api("GET", "/v1/me", {token: key});
    account.set(me.name, key);
    $("account-key").value = "";
    await showAccount();
    await myGames();
  } catch (problem) { showAccountError(problem.message); }
}

// A new key (and webhook secret) for the account: the old key stops working at once, so a
// key that may have leaked is worthless; this browser's seats move to the new key.
async function replaceKey() {
  showAccountError("");
  const signedIn = account.get();
  try {
    const made = await api("POST", "/v1/me/key", {token: signedIn.key});
    account.set(made.name, made.key);
    seats.retoken(signedIn.key, made.key);
    await showAccount(made.key, made.webhook ? made.webhook_secret : null);
  } catch (problem) { showAccountError(problem.message); }
}

async function signOut() {
  account.forget();
  showAccountError("");
  await showAccount();
  await myGames();
}

async function main() {
  $("name").value = localStorage.getItem("keltis.name") || "";
  $("create-form").addEventListener("submit", create);
  $("game").addEventListener("change", seatRows);
  $("count").addEventListener("change", seatRows);
  $("clock").addEventListener("change", () => { $("clock-hint").hidden = !$("clock").value; });
  $("sign-up").addEventListener("click", signUp);
  $("sign-in").addEventListener("click", signIn);
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
