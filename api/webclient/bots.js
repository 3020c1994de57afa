// The bots of GET /v1/bots with a word on their strength: what the service says of a bot
// (its `levels` entry {name, level, strength, rating}, or a bot given as such an object),
// else a built-in hint for the known names.
import {t, tOr} from "./i18n.js";

const BUILT_IN = {random: "bots.random", greedy: "bots.greedy", mcts: "bots.mcts"};

// The service's strength words, in the reader's language where the catalog has them.
const strengthWord = (word) => (word ? tOr("strength." + word, word) : word);

// One bot as {name, level, strength, rating, description}, from a name or the service's entry.
export function botInfo(entry, described) {
  const given = typeof entry === "string" ? {...(described || {}), name: entry} : {...entry, name: entry.name || entry.bot};
  const base = (name) => String(name || "").split(":")[0];
  const hint = BUILT_IN[base(given.name)] || BUILT_IN[base(given.recipe)];
  const known = hint ? {strength: t(hint + ".strength"), description: t(hint + ".description")} : {};
  const rating = given.rating === undefined || given.rating === null ? null : Math.round(Number(given.rating));
  return {name: String(given.name), level: given.level || null, strength: strengthWord(given.strength) || known.strength || "",
          rating, description: given.description || known.description || "", recipe: given.recipe || null};
}

// The bots a person chooses from, one entry per distinct bot: the levels, weakest first,
// then any bot that is no level's recipe (another package's); `greedy`, `random` and
// `mcts` are levels already, under the level's name.
export function personBots(list) {
  const levels = list.filter((bot) => bot.level).sort((a, b) => a.level - b.level);
  const recipes = new Set(levels.map((bot) => bot.recipe).filter(Boolean));
  return [...levels, ...list.filter((bot) => !bot.level && !recipes.has(bot.name))];
}

// The level a bot name is the recipe of, in a person-facing list ("greedy" -> level 4's
// entry), else the entry of that name, else null.
export function personBot(list, name) {
  return list.find((bot) => bot.recipe === name) || list.find((bot) => bot.name === name) || null;
}

// A bot seat's name for people: "level:3" reads "Level 3 bot" ("level:3-2", a second one,
// "Level 3 bot 2"); any other name as it is.
export function personName(name) {
  const level = /^level:([1-9])(?:-([0-9]+))?$/.exec(String(name));
  return level ? t("bots.level", {level: level[1]}) + (level[2] ? " " + level[2] : "") : String(name);
}

// What a bot is called beside a seat's name: "greedy bot", "Level 3 bot".
export function botWord(bot) {
  const named = personName(bot);
  return named === String(bot) ? t("bots.named", {name: bot}) : named;
}

// {game: [botInfo, ...]} from GET /v1/bots: its bots, each with its level entry if any; a
// bot that is a level's recipe in that game takes that level's strength word and rating.
export function botsByGame(answer) {
  return Object.fromEntries(answer.games.map((g) => {
    const levels = new Map((g.levels || []).map((level) => [level.name, level]));
    const recipes = new Map((g.levels || []).filter((level) => level.recipe)
      .map((level) => [level.recipe, {strength: level.strength, rating: level.rating}]));
    return [g.game, (g.bots || []).map((bot) => {
      const name = typeof bot === "string" ? bot : bot.name;
      return botInfo(bot, levels.get(name) || recipes.get(name));
    })];
  }));
}

// "Level 3 bot (medium, about 27 rating)", "other bot": a seat choice's words.
export function botLabel(bot) {
  const words = strengthWords(bot);
  return (bot.level ? t("bots.level", {level: bot.level}) : t("bots.named", {name: bot.name})) + (words ? " (" + words + ")" : "");
}

// "medium, about 27 rating": the strength in a few words.
export function strengthWords(bot) {
  return [bot.strength, bot.rating === null ? "" : t("bots.about", {rating: bot.rating})].filter(Boolean).join(", ");
}
