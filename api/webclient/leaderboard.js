// The leaderboards: GET /v1/ratings per game, best ordinal first, a page at a time; each
// account's name links to its page (built-in bots have none).
import {api} from "./api.js";
import {$, clear, el} from "./dom.js";

const GAMES = {"keltis-card": "Card game", "keltis-dice": "Dice game"};
let shown = 0;
let cursor = null;
let game = "keltis-card";
let loading = 0;  // a newer choice of game makes older pages stale

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

export function kindWords(row) {
  if (!row.account) return "built-in bot";
  return row.bot ? "bot account" : "person";
}

export function nameCell(row) {
  if (!row.account) return el("span", {text: row.name});
  return el("a", {href: "/accounts/" + encodeURIComponent(row.name), "data-testid": "board-name", text: row.name});
}

function row(rating) {
  shown += 1;
  const num = (value) => el("td", {class: "num", text: value.toFixed(2)});
  return el("tr", {"data-name": rating.name}, [
    el("td", {class: "num", text: String(shown)}),
    el("td", {}, [nameCell(rating)]),
    el("td", {class: "kind", text: kindWords(rating)}),
    num(rating.ordinal),
    el("td", {class: "num wide", text: rating.mu.toFixed(2)}),
    el("td", {class: "num wide", text: rating.sigma.toFixed(2)}),
    el("td", {class: "num", text: String(rating.games)}),
  ]);
}

async function page(first) {
  const mine = first ? ++loading : loading;
  const query = new URLSearchParams({game, limit: "25"});
  if (!first && cursor) query.set("cursor", cursor);
  $("board-more").disabled = true;
  try {
    const answer = await api("GET", "/v1/ratings?" + query.toString());
    if (mine !== loading) return;
    if (first) { shown = 0; clear($("board-rows")); }
    $("board-rows").append(...answer.ratings.map(row));
    if (!shown) $("board-rows").append(el("tr", {}, [el("td", {colspan: "7", class: "muted", text: "no rated games yet"})]));
    cursor = answer.next_cursor;
    $("board-more").hidden = !cursor;
    showError("");
  } catch (problem) {
    if (mine === loading) showError(problem.message);
  } finally {
    $("board-more").disabled = false;
  }
}

async function choose(chosen) {
  game = chosen;
  for (const button of document.querySelectorAll("[data-game]")) {
    button.setAttribute("aria-pressed", String(button.dataset.game === game));
  }
  $("board-caption").textContent = GAMES[game] + ": ratings";
  const url = new URL(location.href);
  url.searchParams.set("game", game);
  history.replaceState(null, "", url);
  await page(true);
}

async function main() {
  for (const button of document.querySelectorAll("[data-game]")) {
    button.addEventListener("click", () => choose(button.dataset.game));
  }
  $("board-more").addEventListener("click", () => page(false));
  const asked = new URLSearchParams(location.search).get("game");
  await choose(GAMES[asked] ? asked : "keltis-card");
  document.body.dataset.ready = "1";
}

main();
