"""Keys of the ladder, rating histories and rated games between the same two accounts."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- the ladder (one log per game type of its rated games' results; ratings are its fold) --
# Every key of a game type's ladder carries `{l:<game>}`: its log and games hash (one append
# script names both), its fold cursor, ratings, board and rating histories (one fold script
# names them together), so a cluster spreads the appends and the folds over the game types,
# and a fold reads only its own log. A game type's ratings depend on its own entries only,
# so nothing needs an order across game types.


def _game(game: str, part: str) -> str:
    return f"{PREFIX}:ladder:{{l:{game}}}:{part}"


def ladder_log(game: str) -> str:
    """The append-only list of game type `game`'s ladder entries (JSON, one per finished
    rated game); entry k (1-based) is that game type's ladder sequence number k."""
    return _game(game, "log")


def ladder_games(game: str) -> str:
    """Hash: game id -> its sequence number in `game`'s log (written with the entry: once
    per game)."""
    return _game(game, "games")


def ladder_cursor(game: str) -> str:
    """String: how many entries of game `game`'s log its stored ratings have folded. (Named
    apart from the cursor of the single log, which counted that log's positions.)"""
    return _game(game, "folded")


def ladder_ratings(game: str) -> str:
    """Hash: participant id (ladder.entries.participant_id) -> JSON rating in game `game`."""
    return _game(game, "ratings")


def ladder_board(game: str) -> str:
    """Sorted set: participant id -> ordinal in game `game` (the ratings listing's order)."""
    return _game(game, "board")


def games_to_settle() -> str:
    """Sorted set of finished rated games whose result may not be in the ladder yet, scored
    by when they became due (ms) or, once a worker claimed one, until when its claim holds
    (an index over the game logs, written with the finishing append)."""
    return f"{PREFIX}:index:to-settle"


# ----- rating history (the account page's rating chart) --------------------


def ladder_history(game: str, participant: str) -> str:
    """Sorted set of an account's rating after each of its rated games of `game`, scored by
    the game's sequence number in `game`'s log (members: ladder.history.HistoryPoint
    JSON). Written by the ladder's fold with the ratings; a rebuild rewrites it. Carries its
    game's `{l:<game>}` like the ratings, so the fold's script names it with them."""
    return _game(game, f"history:{participant}")


def ladder_history_pattern(game: str = "*") -> str:
    """SCAN pattern of every rating history key of game type `game` (default: of all)."""
    return f"{PREFIX}:ladder:{{l:{game}}}:history:*"


# ----- the ladder's keys of before (read only by store.ladder.migrate) -----------------------
# First everything sat on `{ladder}`; then each game type's cursor, ratings, board and
# histories moved to `{l:<game>}` while the log and its games hash stayed on `{ladder}`.


def _ladder(part: str) -> str:
    return f"{PREFIX}:ladder:{{ladder}}:{part}"


def legacy_ladder_cursor() -> str:
    return _ladder("cursor")


def legacy_ladder_game_keys_pattern() -> str:
    """SCAN pattern of the old per-game keys (ratings, board, history) on `{ladder}`."""
    return _ladder("[rbh]*:*")


def legacy_ladder_prefix() -> str:
    return _ladder("")


def legacy_ladder_log() -> str:
    """The single log of every game type's entries (entry k: sequence number k)."""
    return _ladder("log")


def legacy_ladder_games() -> str:
    """Hash: game id -> its position in the single log."""
    return _ladder("games")


def legacy_ladder_log_cursor(game: str) -> str:
    """String: how many positions of the single log game type `game` had folded."""
    return _game(game, "cursor")


def ladder_moving(game: str) -> str:
    """A key the move writes a new key of game type `game` into before renaming it onto
    its place (on the game type's slot, so RENAME is legal on a cluster)."""
    return _game(game, "moving")


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
