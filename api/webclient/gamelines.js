// One line in words per game for the lobby's lists: its kind, who plays (you, people, bots),
// when it started and how it stands or ended. Never a raw id unless two lines would match.
const KINDS = {"keltis-card": "Card game", "keltis-dice": "Dice game"};

function playerName(p, mine) {
  if (p.seat === mine) return "you";
  if (p.open) return "an open seat";
  return p.name + (p.bot ? " (bot)" : "");
}

function whoPlays(g, mine) {
  const players = g.players || [];
  if (mine === null || mine === undefined || !players.some((p) => p.seat === mine)) {
    return players.map((p) => playerName(p, null)).join(" vs ");
  }
  const others = players.filter((p) => p.seat !== mine).map((p) => playerName(p, mine));
  return "you vs " + (others.join(", ") || "nobody yet");
}

function started(g) {
  if (!g.created_at) return "";
  const at = new Date(g.created_at);
  const today = new Date().toDateString() === at.toDateString();
  const time = at.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
  return "started " + (today ? time : at.toLocaleDateString([], {month: "short", day: "numeric"}) + " " + time);
}

function outcome(g, mine) {
  const result = g.result || {};
  const winners = result.winners || [];
  const scores = Array.isArray(result.scores) ? " " + result.scores.join("–") : "";
  const names = (g.players || []).filter((p) => winners.includes(p.seat)).map((p) => playerName(p, mine));
  if (!names.length) return "finished" + scores;
  const shared = result.shared || names.length > 1 ? " (shared)" : "";
  return (names.length === 1 && names[0] === "you" ? "you won" : names.join(" and ") + " won") + shared + scores;
}

function standing(g, mine) {
  switch (g.status) {
    case "waiting": return "waiting for players";
    case "active": return "in play";
    case "finished": return outcome(g, mine);
    case "gone": return "no longer on the server";
    default: return String(g.status || "").replaceAll("_", " ");
  }
}

// "Card game · you vs greedy (bot) · started 14:02 · in play"
export function describeGame(g, mine = null) {
  return [KINDS[g.game] || g.game, whoPlays(g, mine), started(g), standing(g, mine)].filter(Boolean).join(" · ");
}

// The lines, each one that repeats an earlier line (in `shown` or this list) told apart by
// the end of its game's id; `shown` remembers them for the next page of the same list.
export function distinctLines(lines, games, shown) {
  return lines.map((line, i) => {
    const text = shown.has(line) || lines.indexOf(line) !== i ? line + " · game …" + String(games[i].id).slice(-4) : line;
    shown.add(line);
    return text;
  });
}
