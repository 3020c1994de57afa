// An account's page (/accounts/<name>): its profile (GET /v1/accounts/{name}), a rating
// chart per game it played rated (GET .../ratings/history), and its public games
// (GET .../games), each list a page at a time.
import {api} from "./api.js";
import {ratingChart, ratingTable} from "./chart.js";
import {$, clear, el} from "./dom.js";

const GAMES = {"keltis-card": "Card game", "keltis-dice": "Dice game"};
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
    el("li", {text: account.bot ? "a bot account" : "a person's account"}),
    el("li", {text: "since " + new Date(account.created_at).toISOString().slice(0, 10)}),
  ];
  for (const game of Object.keys(GAMES)) {
    const played = (account.games_played || {})[game] || 0;
    const rating = (account.ratings || {})[game];
    const words = GAMES[game] + ": " + played + " game" + (played === 1 ? "" : "s");
    facts.push(el("li", {"data-testid": "rating-" + game}, [words, rating ? el("span", {}, [
      ", rating " + rating.ordinal.toFixed(2) + " (mu " + rating.mu.toFixed(2) + ", sigma " + rating.sigma.toFixed(2) +
      ", " + rating.games + " rated) · ", el("a", {href: "/leaderboard?game=" + game, text: "leaderboard"})]) : ""]));
  }
  clear($("profile"), el("ul", {class: "facts-list"}, facts));
}

// One game's chart: the newest HISTORY_PAGE points, and older ones on request.
async function chart(game) {
  const box = el("div", {class: "chart", "data-testid": "chart-box-" + game});
  const label = GAMES[game] + " rating (ordinal) of " + name;
  let points = [];
  let cursor = null;
  const older = el("button", {type: "button", class: "more", text: "older games"});
  const draw = () => clear(box, el("h3", {text: GAMES[game]}), ratingChart(points, label, "chart-" + game),
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
    if (p.open) return el("span", {text: "open seat"});
    if (p.account) {
      const link = el("a", {href: "/accounts/" + encodeURIComponent(p.account), text: p.account});
      return p.account.toLowerCase() === name.toLowerCase() ? el("strong", {}, [link]) : link;
    }
    return el("span", {text: p.name + (p.bot ? " (bot)" : "")});
  }).flatMap((part, i) => (i ? [" vs ", part] : [part]));
}

function gameItem(g) {
  const finished = g.status === "finished";
  const links = [el("a", {href: "/play/" + encodeURIComponent(g.id), text: finished ? "final table" : "watch"})];
  if (finished) links.push(" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: "replay"}));
  const words = (GAMES[g.game] || g.game) + (g.rated ? ", rated" : "") + ", " + (finished ? "finished" : "in play") + ": ";
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
      $("account-games").append(el("li", {class: "muted", text: "no games in play or finished"}));
    }
  } finally {
    $("games-more").disabled = false;
  }
}

async function main() {
  $("games-more").addEventListener("click", () => games(false).catch((problem) => showError(problem.message)));
  try {
    const account = await api("GET", base);
    profile(account);
    const rated = Object.keys(account.ratings || {}).filter((g) => GAMES[g]).sort();
    const charts = (await Promise.all(rated.map(chart))).filter(Boolean);
    clear($("charts"), ...(charts.length ? charts : [el("p", {class: "muted", text: "no rated games yet"})]));
    await games(true);
  } catch (problem) {
    showError(problem.status === 404 ? "There is no account named " + name + "." : problem.message);
  }
  document.body.dataset.ready = "1";
}

main();
