// The bots of GET /v1/bots with a word on their strength: what the service says of a bot
// (its `levels` entry {name, level, strength, rating}, or a bot given as such an object),
// else a built-in hint for the known names.
const BUILT_IN = {
  random: {strength: "beginner", description: "plays any legal move"},
  greedy: {strength: "medium", description: "takes the best move it sees now"},
  mcts: {strength: "strong", description: "looks ahead by playing many games out"},
};

// One bot as {name, level, strength, rating, description}, from a name or the service's entry.
export function botInfo(entry, described) {
  const given = typeof entry === "string" ? {...(described || {}), name: entry} : {...entry, name: entry.name || entry.bot};
  const known = BUILT_IN[String(given.name).split(":")[0]] || {};
  const rating = given.rating === undefined || given.rating === null ? null : Math.round(Number(given.rating));
  return {name: String(given.name), level: given.level || null, strength: given.strength || known.strength || "",
          rating, description: given.description || known.description || ""};
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

// "greedy bot (medium)", "level 3, about 27 rating (medium)": a seat choice's words.
export function botLabel(bot) {
  if (bot.level) {
    return "level " + bot.level + (bot.rating === null ? "" : ", about " + bot.rating + " rating") +
      (bot.strength ? " (" + bot.strength + ")" : "");
  }
  return bot.name + " bot" + (bot.strength ? " (" + bot.strength + ")" : "");
}

// "medium, about 27 rating": the strength in a few words.
export function strengthWords(bot) {
  return [bot.strength, bot.rating === null ? "" : "about " + bot.rating + " rating"].filter(Boolean).join(", ");
}
