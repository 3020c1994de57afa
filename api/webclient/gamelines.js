// One line in words per game for the lobby's lists: its kind, who plays (you, people, bots),
// when it started and how it stands or ended. Never a raw id unless two lines would match.
import {personName} from "./bots.js";
import {currentLanguage, t} from "./i18n.js";

export const KINDS = {"keltis-card": "game.cardShort", "keltis-dice": "game.diceShort"};

function playerName(p, mine) {
  if (p.seat === mine) return t("lines.you");
  if (p.open) return t("lines.openSeat");
  const named = personName(p.name);
  return p.bot && named === p.name ? t("words.bot", {name: named}) : named;
}

function whoPlays(g, mine) {
  const players = g.players || [];
  if (mine === null || mine === undefined || !players.some((p) => p.seat === mine)) {
    return players.map((p) => playerName(p, null)).join(t("words.vs"));
  }
  const others = players.filter((p) => p.seat !== mine).map((p) => playerName(p, mine));
  return t("lines.you") + t("words.vs") + (others.join(", ") || t("lines.nobody"));
}

function started(g) {
  if (!g.created_at) return "";
  const at = new Date(g.created_at);
  const today = new Date().toDateString() === at.toDateString();
  const locale = [currentLanguage()];
  const time = at.toLocaleTimeString(locale, {hour: "2-digit", minute: "2-digit"});
  return t("lines.started", {when: today ? time : at.toLocaleDateString(locale, {month: "short", day: "numeric"}) + " " + time});
}

function outcome(g, mine) {
  const result = g.result || {};
  const winners = result.winners || [];
  const scores = Array.isArray(result.scores) ? " " + result.scores.join("–") : "";
  const names = (g.players || []).filter((p) => winners.includes(p.seat)).map((p) => playerName(p, mine));
  if (result.ended === "aborted") return t("lines.aborted");
  if (!names.length) return t("lines.finished") + scores;
  const shared = result.shared || names.length > 1 ? t("play.shared") : "";
  const mineWon = names.length === 1 && g.players.some((p) => p.seat === mine && winners.includes(p.seat));
  return (mineWon ? t("lines.youWon") : t("lines.won", {names: names.join(t("words.and"))})) + shared + scores;
}

function standing(g, mine) {
  switch (g.status) {
    case "waiting": return t("lines.waiting");
    case "active": return t("lines.inPlay");
    case "finished": return outcome(g, mine);
    case "gone": return t("lines.gone");
    default: return String(g.status || "").replaceAll("_", " ");
  }
}

// "Card game · you vs greedy (bot) · started 14:02 · in play"
export function describeGame(g, mine = null) {
  return [KINDS[g.game] ? t(KINDS[g.game]) : g.game, whoPlays(g, mine), started(g), standing(g, mine)].filter(Boolean).join(" · ");
}

// The lines, each one that repeats an earlier line (in `shown` or this list) told apart by
// the end of its game's id; `shown` remembers them for the next page of the same list.
export function distinctLines(lines, games, shown) {
  return lines.map((line, i) => {
    const text = shown.has(line) || lines.indexOf(line) !== i ? line + " · " + t("lines.gameId", {id: String(games[i].id).slice(-4)}) : line;
    shown.add(line);
    return text;
  });
}
