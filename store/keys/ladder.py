"""Keys of the ladder, rating histories and rated games between the same two accounts."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- the ladder (one log of rated games' results; ratings are its fold) ------------------
# The log and its games hash carry `{ladder}` (one append script names both); each game
# type's fold cursor, ratings, board and rating histories carry `{l:<game>}` (one fold script
# per game type names them together), so a cluster spreads the ratings over the game types.


def _ladder(part: str) -> str:
    return f"{PREFIX}:ladder:{{ladder}}:{part}"


def _game(game: str, part: str) -> str:
    return f"{PREFIX}:ladder:{{l:{game}}}:{part}"


def ladder_log() -> str:
    """The ladder's append-only list of entries (JSON, one per finished rated game); entry k
    (1-based) is ladder sequence number k."""
    return _ladder("log")


def ladder_games() -> str:
    """Hash: game id -> its ladder sequence number (written with the entry: once per game)."""
    return _ladder("games")


def ladder_cursor(game: str) -> str:
    """String: how many ladder entries the stored ratings of game `game` have folded (the
    log's positions, entries of other game types passed over)."""
    return _game(game, "cursor")


def ladder_ratings(game: str) -> str:
    """Hash: participant id (ladder.entries.participant_id) -> JSON rating in game `game`."""
    return _game(game, "ratings")


def ladder_board(game: str) -> str:
    """Sorted set: participant id -> ordinal in game `game` (the ratings listing's order)."""
    return _game(game, "board")


def games_to_settle() -> str:
    """Sorted set of finished rated games whose result may not be in the ladder yet, scored
    by when they became due (ms) or, once a worker claimed one, until when its claim holds
    (an index over the logs, written with the finishing append)."""
    return f"{PREFIX}:index:to-settle"


# ----- rating history (the account page's rating chart) --------------------


def ladder_history(game: str, participant: str) -> str:
    """Sorted set of an account's rating after each of its rated games of `game`, scored by
    ladder sequence number (members: ladder.history.HistoryPoint JSON). Written by the
    ladder's fold with the ratings; a rebuild rewrites it. Carries its game's `{l:<game>}`
    like the ratings, so the fold's script names it with them."""
    return _game(game, f"history:{participant}")


def ladder_history_pattern() -> str:
    """SCAN pattern of every rating history key."""
    return f"{PREFIX}:ladder:{{l:*}}:history:*"


# ----- the ladder's keys before it was spread by game (read only by store.ladder.migrate) --


def legacy_ladder_cursor() -> str:
    return _ladder("cursor")


def legacy_ladder_game_keys_pattern() -> str:
    """SCAN pattern of the old per-game keys (ratings, board, history) on `{ladder}`."""
    return _ladder("[rbh]*:*")


def legacy_ladder_prefix() -> str:
    return _ladder("")


# ----- rated games between the same two accounts (ladder.pairs) ---------------------------
# One pair is two accounts' participant ids (sorted); each key names one pair of one game
# type, and each is used alone, so they carry no hash tag of their own.


def _pair(game: str, pair: tuple[str, str], part: str) -> str:
    return f"{PREFIX}:pairs:{game}:{pair[0]}|{pair[1]}:{part}"


def pair_begun(game: str, pair: tuple[str, str]) -> str:
    """Sorted set, with a TTL: the rated games a pair began in the last 24 h (game id -> ms
    created), what the daily limit counts (application.ladder.rated_pairs)."""
    return _pair(game, pair, "begun")


def pair_results(game: str, pair: tuple[str, str]) -> str:
    """Sorted set, with a TTL: the pair's rated results (ladder.pairs.PairResult JSON ->
    ms finished), written when a result goes into the ladder."""
    return _pair(game, pair, "results")


def pairs_recent() -> str:
    """Sorted set of pairs with recent rated results ("<game>|<a>|<b>" -> ms of the last),
    what `keltis ratings suspicious` walks."""
    return f"{PREFIX}:pairs:recent"


def no_starts(account: str) -> str:
    """Sorted set, with a TTL: an account's no-starts (game id -> ms the game ended), rated
    games aborted because its seat never moved (application.ladder.no_starts)."""
    return f"{PREFIX}:nostarts:{account}"


def no_starts_recent() -> str:
    """Sorted set of accounts with recent no-starts (folded name -> ms of the last), what
    `keltis ratings suspicious` walks."""
    return f"{PREFIX}:nostarts:recent"
