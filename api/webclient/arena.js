// The arena pages: /arenas lists them, /arenas/<id> shows one with its live leaderboard
// (GET /v1/arenas/{id}/stream: NDJSON, reconnected with `after` when it drops).
import {api, ndjsonBatches} from "/web/api.js";
import {$, clear, el, ratingWords} from "/web/dom.js";
import {currentLanguage, t, tOr} from "/web/i18n.js";
import {startLanguage} from "/web/language.js";

const RECENT = 30;
const RETRY_MS = 2000;

function showError(text) {
  const box = $("arena-error");
  box.textContent = text;
  box.hidden = !text;
}

function when(ms) {
  return new Date(ms).toLocaleString([currentLanguage()]);
}

async function listPage() {
  $("arena-list-box").hidden = false;
  const found = await api("GET", "/v1/arenas?limit=50");
  const items = found.arenas.map((a) => el("li", {"data-testid": "arena-item"}, [
    el("a", {href: "/arenas/" + encodeURIComponent(a.id), text: a.name}),
    " " + t("arena.item", {game: a.game, players: a.players, status: arenaStatus(a.status), until: when(a.ends_at)}),
  ]));
  const none = t("arena.none");
  clear($("arena-list"), ...(items.length ? items : [el("li", {class: "muted", text: none})]));
}

function renderBoard(rows) {
  const body = $("leaderboard").querySelector("tbody");
  clear(body, ...rows.map((r) => el("tr", {"data-testid": "board-row"}, [
    el("td", {text: String(r.rank)}),
    el("td", {text: r.account}),
    el("td", {text: String(r.points)}),
    el("td", {text: String(r.games)}),
    el("td", {text: String(r.score)}),
    el("td", {text: String(r.forfeits)}),
    el("td", {text: r.rating ? ratingWords(r.rating) : "-"}),
    el("td", {}, [r.game_id ? el("a", {href: "/play/" + encodeURIComponent(r.game_id), text: r.state}) : r.state]),
  ])));
}

function addGame(line) {
  const list = $("recent");
  const names = line.players.map((name, seat) => name + (line.winners.includes(seat) ? t("arena.won") : "")
    + (line.scores ? " " + line.scores[seat] : ""));
  const item = el("li", {"data-testid": "recent-game"}, [
    el("a", {href: "/play/" + encodeURIComponent(line.game), text: line.game}),
    " " + names.join(t("words.vs")) + (line.void ? t("arena.void") : ""),
  ]);
  list.prepend(item);
  while (list.children.length > RECENT) list.lastChild.remove();
}

async function follow(id, state) {
  const path = "/v1/arenas/" + encodeURIComponent(id) + "/stream?after=" + state.after;
  for await (const lines of ndjsonBatches(path)) {
    for (const line of lines) {
      if (line.type === "leaderboard") {
        renderBoard(line.leaderboard);
        $("arena-status").textContent = arenaStatus(line.status);
      } else if (line.type === "game_finished") {
        state.after = line.position;
        addGame(line);
      } else if (line.type === "arena_finished") {
        $("arena-status").textContent = arenaStatus("finished");
        return true;
      }
    }
  }
  return false;
}

async function arenaPage(id) {
  $("board-box").hidden = false;
  $("recent-box").hidden = false;
  const arena = await api("GET", "/v1/arenas/" + encodeURIComponent(id));
  $("arena-title").textContent = arena.name;
  $("arena-status").textContent = arenaStatus(arena.status);
  $("arena-facts").textContent = t("arena.facts", {game: arena.game, players: arena.players, seconds: arena.clock.move_seconds,
                                                   from: when(arena.starts_at), to: when(arena.ends_at)});
  renderBoard(arena.leaderboard);
  const state = {after: 0};
  for (;;) {
    try {
      if (await follow(id, state)) return;
      showError("");
    } catch (problem) {
      showError(t("arena.paused", {why: problem.message || problem}));
    }
    await new Promise((done) => setTimeout(done, RETRY_MS));
  }
}

// An arena's status (scheduled, running, finished) in words.
const arenaStatus = (status) => tOr("arena.status." + status, status);

const match = location.pathname.match(/^\/arenas\/([A-Za-z0-9_-]+)$/);
startLanguage().then(() => (match ? arenaPage(match[1]) : listPage()))
  .catch((problem) => showError(problem.message || String(problem)));
