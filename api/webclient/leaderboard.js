// The leaderboards: GET /v1/ratings per game, best rating first, a page at a time; each
// account's name links to its page (built-in bots have none).
import {api} from "./api.js";
import {$, clear, el, ratingWords} from "./dom.js";
import {KINDS as GAMES} from "./gamelines.js";
import {t} from "./i18n.js";
import {startLanguage} from "./language.js";
let shown = 0;
let cursor = null;
let game = "keltis-card";
let loading = 0;  // a newer choice of game makes older pages stale

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

export function kindWords(row) {
  if (!row.account) return t("board.builtIn");
  return t(row.bot ? "board.botAccount" : "board.person");
}

export function nameCell(row) {
  if (!row.account) return el("span", {text: row.name});
  return el("a", {href: "/accounts/" + encodeURIComponent(row.name), "data-testid": "board-name", text: row.name});
}

function row(rating) {
  shown += 1;
  return el("tr", {"data-name": rating.name}, [
    el("td", {class: "num", text: String(shown)}),
    el("td", {}, [nameCell(rating)]),
    el("td", {class: "kind", text: kindWords(rating)}),
    el("td", {class: "num", "data-testid": "board-rating", text: ratingWords(rating)}),
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
    if (!shown) $("board-rows").append(el("tr", {}, [el("td", {colspan: "7", class: "muted", text: t("people.noRated")})]));
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
  $("board-caption").textContent = t("board.caption", {game: t(GAMES[game])});
  const url = new URL(location.href);
  url.searchParams.set("game", game);
  history.replaceState(null, "", url);
  await page(true);
}

async function main() {
  await startLanguage();
  for (const button of document.querySelectorAll("[data-game]")) {
    button.addEventListener("click", () => choose(button.dataset.game));
  }
  $("board-more").addEventListener("click", () => page(false));
  const asked = new URLSearchParams(location.search).get("game");
  await choose(GAMES[asked] ? asked : "keltis-card");
  document.body.dataset.ready = "1";
}

main();
