// An account's page (/accounts/<name>): its profile (GET /v1/accounts/{name}), a rating
// chart per game it played rated (GET .../ratings/history), and its public games
// (GET .../games), each list a page at a time.
import {account, api} from "./api.js";
import {ratingChart, ratingTable} from "./chart.js";
import {$, clear, el, ratingWords} from "./dom.js";
import {KINDS as GAMES} from "./gamelines.js";
import {t} from "./i18n.js";
import {startLanguage} from "./language.js";
const HISTORY_PAGE = 200;
function nameInPath() {
  try { return decodeURIComponent(location.pathname.split("/")[2] || ""); } catch (_) { return ""; }
}
const name = nameInPath();
const base = "/v1/accounts/" + encodeURIComponent(name);
let gamesCursor = null;

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

function profile(account) {
  document.title = "Keltis: " + account.name;
  $("title").textContent = account.name;
  const facts = [
    el("li", {text: t(account.bot ? "people.botAccount" : "people.personAccount")}),
    el("li", {text: t("people.since", {date: new Date(account.created_at).toISOString().slice(0, 10)})}),
  ];
  for (const game of Object.keys(GAMES)) {
    const played = (account.games_played || {})[game] || 0;
    const rating = (account.ratings || {})[game];
    const words = t(GAMES[game]) + ": " + t("people.games", {count: played});
    facts.push(el("li", {"data-testid": "rating-" + game}, [words, rating ? el("span", {}, [
      ", " + t(rating.provisional ? "people.ratingProvisional" : "people.rating", {rating: ratingWords(rating), count: rating.games}) +
      " · ", el("a", {href: "/leaderboard?game=" + game, text: t("people.leaderboard")})]) : ""]));
  }
  clear($("profile"), el("ul", {class: "facts-list"}, facts));
}

// One game's chart: the newest HISTORY_PAGE points, and older ones on request.
async function chart(game) {
  const box = el("div", {class: "chart", "data-testid": "chart-box-" + game});
  const label = t("people.ratingOf", {game: t(GAMES[game]), name});
  let points = [];
  let cursor = null;
  const older = el("button", {type: "button", class: "more", text: t("people.older")});
  const draw = () => clear(box, el("h3", {text: t(GAMES[game])}), ratingChart(points, label, "chart-" + game),
                          ratingTable(points), cursor ? el("p", {}, [older]) : null);
  const load = async () => {
    const query = new URLSearchParams({game, limit: String(HISTORY_PAGE)});
    if (cursor) query.set("cursor", cursor);
    const page = await api("GET", base + "/ratings/history?" + query.toString());
    points = page.points.slice().reverse().concat(points);
    cursor = page.next_cursor;
    if (points.length) draw();
  };
  older.addEventListener("click", () => load().catch((problem) => showError(problem.message)));
  await load();
  return points.length ? box : null;
}

function describe(g) {
  return g.players.map((p) => {
    if (p.open) return el("span", {text: t("people.openSeat")});
    if (p.account) {
      const link = el("a", {href: "/accounts/" + encodeURIComponent(p.account), text: p.account});
      return p.account.toLowerCase() === name.toLowerCase() ? el("strong", {}, [link]) : link;
    }
    return el("span", {text: p.bot ? t("words.bot", {name: p.name}) : p.name});
  }).flatMap((part, i) => (i ? [t("words.vs"), part] : [part]));
}

function gameItem(g) {
  const finished = g.status === "finished";
  const links = [el("a", {href: "/play/" + encodeURIComponent(g.id), text: t(finished ? "lobby.finalTable" : "lobby.watch")})];
  if (finished) links.push(" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: t("lobby.replay")}));
  const words = (GAMES[g.game] ? t(GAMES[g.game]) : g.game) + (g.rated ? ", " + t("challenge.rated") : "") + ", " +
    t(finished ? "lines.finished" : "lines.inPlay") + ": ";
  return el("li", {"data-game": g.id, "data-testid": "account-game"}, [words, ...describe(g), " · ", ...links]);
}

async function games(first) {
  const query = new URLSearchParams({limit: "10"});
  if (!first && gamesCursor) query.set("cursor", gamesCursor);
  $("games-more").disabled = true;
  try {
    const page = await api("GET", base + "/games?" + query.toString());
    $("account-games").append(...page.games.map(gameItem));
    gamesCursor = page.next_cursor;
    $("games-more").hidden = !gamesCursor;
    if (!$("account-games").children.length && !gamesCursor) {
      $("account-games").append(el("li", {class: "muted", text: t("people.noGames")}));
    }
  } finally {
    $("games-more").disabled = false;
  }
}

// The browser's own account: its sign-in sessions (GET /v1/me/sessions), each with "Sign
// out", and "Sign out everywhere" (DELETE /v1/me/sessions: this browser's session too).
function browserWords(agent) {
  const browser = (agent.match(/(Firefox|Edg|OPR|HeadlessChrome|Chrome|Safari)\/\d+/) || [])[0];
  const system = (agent.match(/Windows|Android|iPhone|iPad|Mac OS X|Linux/) || [])[0];
  if (!browser) return agent.slice(0, 60) || t("sessions.unknownBrowser");
  return system ? t("sessions.browserOn", {browser, system}) : browser;
}

// A moment as one unbreakable word (a narrow screen wraps between moments, not inside one).
function when(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace("T", "\u00a0").replaceAll("-", "\u2011");
}

// This browser is signed out: the panel keeps only what happened.
function signedOutHere(message) {
  account.forget();
  clear($("sessions"));
  $("sign-out-everywhere").disabled = true;
  $("sessions-status").textContent = message;
}

async function sessions() {
  const mine = account.get();
  if (!mine || mine.name.toLowerCase() !== name.toLowerCase()) return;
  let listed;
  try {
    listed = (await api("GET", "/v1/me/sessions", {token: mine.key})).sessions;
  } catch (problem) {
    if (problem.status === 401) {
      if (account.forgetIfStill(mine.key)) showError(t(mine.session ? "account.sessionEnded" : "lobby.keyReplaced"));
    }
    else showError(problem.message);
    return;
  }
  const items = listed.map((one) => {
    const end = el("button", {type: "button", "data-testid": "session-sign-out", text: t("account.signOut")});
    end.addEventListener("click", () => endOne(one).catch((problem) => showError(problem.message)));
    return el("li", {"data-testid": "session", "data-session": one.id}, [
      el("strong", {text: browserWords(one.user_agent)}),
      one.current ? el("span", {class: "notice", "data-testid": "session-current", text: " · " + t("sessions.thisBrowser")}) : "",
      el("br"), el("span", {class: "muted small", text: t("sessions.since", {date: when(one.created_at), address: one.address}) +
      " · " + t("sessions.lastUsed", {date: when(one.last_used_at)}) + " "}), end]);
  });
  clear($("sessions"), ...(items.length ? items : [el("li", {class: "muted", text: t("sessions.none")})]));
  $("sessions-panel").hidden = false;
  $("sign-out-everywhere").disabled = !items.length;
  if (location.hash === "#sessions") $("sessions-panel").scrollIntoView();
}

async function endOne(one) {
  const mine = account.get();
  await api("DELETE", "/v1/me/sessions/" + encodeURIComponent(one.id), {token: mine.key});
  if (one.current) { signedOutHere(t("sessions.signedOut")); return; }
  await sessions();
}

async function endAll() {
  const mine = account.get();
  try {
    const ended = await api("DELETE", "/v1/me/sessions", {token: mine.key});
    if (mine.session) { signedOutHere(t("sessions.allEnded", {count: ended.ended})); return; }
    await sessions();
    $("sessions-status").textContent = t("sessions.allEnded", {count: ended.ended});
  } catch (problem) { showError(problem.message); }
}

async function main() {
  await startLanguage();
  $("games-more").addEventListener("click", () => games(false).catch((problem) => showError(problem.message)));
  $("sign-out-everywhere").addEventListener("click", endAll);
  try {
    const account = await api("GET", base);
    profile(account);
    const rated = Object.keys(account.ratings || {}).filter((g) => GAMES[g]).sort();
    const charts = (await Promise.all(rated.map(chart))).filter(Boolean);
    clear($("charts"), ...(charts.length ? charts : [el("p", {class: "muted", text: t("people.noRated")})]));
    await sessions();
    await games(true);
  } catch (problem) {
    showError(problem.status === 404 ? t("people.noAccount", {name}) : problem.message);
  }
  document.body.dataset.ready = "1";
}

main();
