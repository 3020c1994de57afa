"""The one-shot move of the ladder's per-game keys (ratings, board, rating histories, the
fold cursor) from the single `{ladder}` slot to each game type's `{l:<game>}` (run by
`keltis reindex`). The log and its games hash keep their names. A game type whose new
cursor exists already was folded again from the log's start by a new worker: its old keys
are dropped, not copied over the newer ones. Running it again finds nothing to move."""

from __future__ import annotations

import redis

from domain.registry import game_names
from store import keys
from store.core.codec import text


def new_name(old: str) -> tuple[str, str] | None:
    """(game type, new key) of an old per-game ladder key (None: not one)."""
    kind, _, rest = old[len(keys.legacy_ladder_prefix()) :].partition(":")
    if kind == "ratings":
        return rest, keys.ladder_ratings(rest)
    if kind == "board":
        return rest, keys.ladder_board(rest)
    if kind == "history":
        game, _, participant = rest.partition(":")
        return (game, keys.ladder_history(game, participant)) if participant else None
    return None


def move_legacy_ladder(client: redis.Redis) -> int:
    """Move the old per-game keys and cursor; the number of keys moved."""
    old_cursor = client.get(keys.legacy_ladder_cursor())
    names = sorted(game_names())
    folded = {game for game in names if client.exists(keys.ladder_cursor(game))}
    moved = 0
    for raw_key in list(client.scan_iter(match=keys.legacy_ladder_game_keys_pattern())):
        old = text(raw_key)
        found = new_name(old)
        if found is None:
            continue
        game, new = found
        dumped = None if game in folded else client.dump(old)
        if dumped is not None:
            client.restore(new, 0, dumped, replace=True)
            moved += 1
        client.delete(old)
    if old_cursor is not None:
        for game in names:
            if game not in folded:
                client.set(keys.ladder_cursor(game), old_cursor)
        client.delete(keys.legacy_ladder_cursor())
    return moved
