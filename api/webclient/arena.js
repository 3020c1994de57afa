// The arena pages: /arenas lists them, /arenas/<id> shows one with its live leaderboard
// (GET /v1/arenas/{id}/stream: NDJSON, reconnected with `after` when it drops).
import {api, ndjsonBatches} from "/web/api.js";
import {$, el, clear} from "/web/dom.js";

const RECENT = 30;
const RETRY_MS = 2000;

function showError(text) {
  const box = $("arena-error");
  box.textContent = text;
  box.hidden = !text;
}

function when(ms) {
  return new Date(ms).toLocaleString();
}

async function listPage() {
  $("arena-list-box").hidden = false;
  const found = await api("GET", "/v1/arenas?limit=50");
  const items = found.arenas.map((a) => el("li", {"data-testid": "arena-item"}, [
    el("a", {href: "/arenas/" + encodeURIComponent(a.id), text: a.name}),
    " " + a.game + ", " + a.players + " a table, " + a.status + ", until " + when(a.ends_at),
  ]));
  clear($("arena-list"), ...(items.length ? items : [el("li", {class: "muted", text: "No arena yet."})]));
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
    el("td", {text: r.rating ? r.rating.ordinal.toFixed(1) : "-"}),
    el("td", {}, [r.game_id ? el("a", {href: "/play/" + encodeURIComponent(r.game_id), text: r.state}) : r.state]),
  ])));
}

function addGame(line) {
  const list = $("recent");
  const names = line.players.map((name, seat) => name + (line.winners.includes(seat) ? " (won)" : "")
    + (line.scores ? " " + line.scores[seat] : ""));
  const item = el("li", {"data-testid": "recent-game"}, [
    el("a", {href: "/play/" + encodeURIComponent(line.game), text: line.game}),
    " " + names.join(" vs ") + (line.void ? " (void)" : ""),
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
        $("arena-status").textContent = line.status;
      } else if (line.type === "game_finished") {
        state.after = line.position;
        addGame(line);
      } else if (line.type === "arena_finished") {
        $("arena-status").textContent = "finished";
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
  $("arena-status").textContent = arena.status;
  $("arena-facts").textContent = arena.game + ", " + arena.players + " a table, "
    + arena.clock.move_seconds + " s a move; " + when(arena.starts_at) + " to " + when(arena.ends_at);
  renderBoard(arena.leaderboard);
  const state = {after: 0};
  for (;;) {
    try {
      if (await follow(id, state)) return;
      showError("");
    } catch (problem) {
      showError("Live updates paused: " + (problem.message || problem) + "; retrying.");
    }
    await new Promise((done) => setTimeout(done, RETRY_MS));
  }
}

const match = location.pathname.match(/^\/arenas\/([A-Za-z0-9_-]+)$/);
(match ? arenaPage(match[1]) : listPage()).catch((problem) => showError(problem.message || String(problem)));
