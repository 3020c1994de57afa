// The lobby: create a game (seats: you, open, built-in bots), lists of games, tournaments.
import {api, listGames, seats} from "./api.js";
import {$, clear, el} from "./dom.js";

const GAME_NAMES = {"keltis-card": "cards", "keltis-dice": "dice"};
let bots = {};

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

function botChoices(game) {
  const names = bots[game] || [];
  // The service lists its bots; greedy (or the last one listed) is the default opponent.
  return names;
}

function seatRows() {
  const game = $("game").value;
  const count = Number($("count").value);
  const names = botChoices(game);
  const strongest = names.includes("greedy") ? "greedy" : names[names.length - 1];
  const rows = [];
  for (let seat = 0; seat < count; seat += 1) {
    const select = el("select", {id: "seat-" + seat, "data-testid": "seat-" + seat}, [
      el("option", {value: "me", text: "me"}),
      el("option", {value: "open", text: "open seat (share the link)"}),
      el("option", {value: "invite", text: "open seat with a join code"}),
      ...names.map((bot) => el("option", {value: "bot:" + bot, text: bot + " bot"})),
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
  const names = botChoices(game);
  return {move_seconds: seconds, fallback: names.includes("greedy") ? "greedy" : names[0]};
}

function players() {
  const me = $("name").value.trim() || "me";
  const count = Number($("count").value);
  const list = [];
  let mine = null;
  for (let seat = 0; seat < count; seat += 1) {
    const choice = $("seat-" + seat).value;
    if (choice === "me") {
      if (mine !== null) throw new Error("Only one seat can be yours on this browser.");
      mine = seat;
      list.push({name: me});
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
  $("create").disabled = true;
  try {
    const made = await api("POST", "/v1/games", {body});
    localStorage.setItem("keltis.name", $("name").value.trim());
    const token = made.seats.find((s) => s.seat === chosen.mine);
    if (token) seats.set(made.id, {seat: token.seat, token: token.token, name: token.name});
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

function describe(g) {
  const who = g.players.map((p) => p.open ? "open seat" : p.name + (p.bot ? " (bot)" : "")).join(" vs ");
  return (GAME_NAMES[g.game] || g.game) + ": " + who;
}

function gameItem(g, status) {
  const play = "/play/" + encodeURIComponent(g.id);
  const links = [el("a", {href: play, text: status === "waiting" ? "join" : status === "finished" ? "final table" : "watch"})];
  if (status === "finished") links.push(" · ", el("a", {href: "/v1/games/" + encodeURIComponent(g.id) + "/replay.html", text: "replay"}));
  return el("li", {"data-game": g.id}, [el("span", {text: describe(g) + " "}), ...links]);
}

async function fillList(status) {
  const box = $("list-" + status);
  let cursor = null;
  const more = el("button", {type: "button", class: "more", text: "more", on: {click: () => page()}});
  const page = async () => {
    try {
      const {games, next} = await listGames({status, limit: "8"}, cursor);
      cursor = next;
      more.remove();
      box.append(...games.map((g) => gameItem(g, status)));
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

function myGames() {
  const list = JSON.parse(localStorage.getItem("keltis.mine") || "[]");
  const items = list.filter((g) => seats.get(g.id)).map((g) =>
    el("li", {}, [el("a", {href: "/play/" + encodeURIComponent(g.id), text: (GAME_NAMES[g.game] || g.game) + " game " + g.id})]));
  clear($("my-games"), ...(items.length ? items : [el("li", {class: "muted", text: "none yet"})]));
}

async function main() {
  $("name").value = localStorage.getItem("keltis.name") || "";
  $("create-form").addEventListener("submit", create);
  $("game").addEventListener("change", seatRows);
  $("count").addEventListener("change", seatRows);
  $("clock").addEventListener("change", () => { $("clock-hint").hidden = !$("clock").value; });
  try {
    const answer = await api("GET", "/v1/bots");
    bots = Object.fromEntries(answer.games.map((g) => [g.game, g.bots]));
  } catch (problem) { showError(problem.message); }
  seatRows();
  myGames();
  document.body.dataset.ready = "1";
  await Promise.all(["waiting", "active", "finished"].map(fillList));
  document.body.dataset.lists = "1";
}

main();
