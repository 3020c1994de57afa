"""The one-shot moves of the ladder's keys onto each game type's `{l:<game>}` (run by
`keltis reindex`, in this order):

- `move_legacy_ladder`: the per-game keys (ratings, board, rating histories, the fold
  cursor) from the single `{ladder}` slot. A game type whose cursor exists already was
  folded again from the log's start by a new worker: its old keys are dropped, not copied
  over the newer ones.
- `move_ladder_logs`: the single log of every game type's entries and its games hash, from
  `{ladder}` to one log per game type. A sequence number becomes a position in its game
  type's log, so the cursors (which counted positions of the single log) and the rating
  histories' points are renumbered to match; the ratings and boards stay as they are (a game
  type's fold sees its entries in the same order).

Each writes key by key (on a cluster the old and new keys sit on different slots), every
step safe to run again after a crash part way; running either again finds nothing to move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import redis

from domain.registry import game_names
from ladder.entries import LadderEntry
from ladder.history import HistoryPoint
from store import keys
from store.core.codec import text
from store.ladder.records import LadderStore

READ_CHUNK = 1000  # entries per LRANGE
WRITE_CHUNK = 200  # values per RPUSH, HSET or ZADD


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
    """Move the old per-game keys and cursor; the number of keys moved. The cursor goes to
    where the single log's per-game cursors were kept (`move_ladder_logs` renumbers it)."""
    old_cursor = client.get(keys.legacy_ladder_cursor())
    names = sorted(game_names())
    folded = {game for game in names if _has_cursor(client, game)}
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
                client.set(keys.legacy_ladder_log_cursor(game), old_cursor)
        client.delete(keys.legacy_ladder_cursor())
    return moved


def _has_cursor(client: redis.Redis, game: str) -> bool:
    """Whether a game type was folded since its per-game keys left `{ladder}`."""
    cursors = (keys.legacy_ladder_log_cursor(game), keys.ladder_cursor(game))
    return any(client.exists(key) for key in cursors)


def move_ladder_logs(client: redis.Redis) -> int:
    """Split the single log into one log per game type (entries in the order they had,
    their bytes unchanged), with each game type's games hash, cursor and histories
    renumbered to positions in its own log; the number of entries moved.

    Entries a new worker appended to a game type's log before the move (it should not have
    settled yet: docs/OPERATIONS.md) go after the moved ones, a game in both kept once, and
    that game type's ratings are folded again from its whole log (LadderStore.rebuild)."""
    names = sorted(game_names())
    raw_entries = _read_list(client, keys.legacy_ladder_log())
    if not raw_entries:
        for game in names:  # a cursor over an empty log: nothing folded
            client.delete(keys.legacy_ladder_log_cursor(game))
        client.delete(keys.legacy_ladder_games())
        return 0
    entries = [LadderEntry.from_json(raw) for raw in raw_entries]
    old_ids = {entry.game_id for entry in entries}
    refold = False
    for game in sorted(set(names) | {entry.game for entry in entries}):
        mine = [
            (at, raw)
            for at, (raw, e) in enumerate(zip(raw_entries, entries, strict=True))
            if e.game == game
        ]
        refold |= _move_game(client, game, mine, old_ids)
    if refold:
        LadderStore(client).rebuild()
    client.delete(keys.legacy_ladder_games())
    client.delete(keys.legacy_ladder_log())
    return len(entries)


def _move_game(
    client: redis.Redis, game: str, mine: list[tuple[int, bytes]], old_ids: set[str]
) -> bool:
    """Move one game type's entries (`mine`: their 0-based positions in the single log and
    their bytes); whether its log held entries appended since (then its fold is redone)."""
    log = keys.ladder_log(game)
    held = _read_list(client, log)
    since = [raw for raw in held if LadderEntry.from_json(raw).game_id not in old_ids]
    final = [raw for _, raw in mine] + since
    if final != held:
        _replace(client, game, log, _rpush_chunk(keys.ladder_moving(game)), final)
    seq_of = {LadderEntry.from_json(raw).game_id: at + 1 for at, raw in enumerate(final)}
    games_hash = keys.ladder_games(game)
    stored = {text(k): int(v) for k, v in client.hgetall(games_hash).items()}
    if stored != seq_of:
        _replace(client, game, games_hash, _hset_chunk(keys.ladder_moving(game)), seq_of.items())
    for raw_key in list(client.scan_iter(match=keys.ladder_history_pattern(game))):
        _renumber_history(client, game, text(raw_key), seq_of)
    old_cursor = client.get(keys.legacy_ladder_log_cursor(game))
    if old_cursor is not None:
        # The single log's cursor counted every game type's entries: this game type has
        # folded those of its own entries that lay within it.
        folded = sum(at < int(old_cursor) for at, _ in mine)
        client.set(keys.ladder_cursor(game), folded)
        client.delete(keys.legacy_ladder_log_cursor(game))
    return bool(since)


def _renumber_history(client: redis.Redis, game: str, key: str, seq_of: dict[str, int]) -> None:
    """Rescore a rating history by its games' sequence numbers in the game type's log (a
    member that is not a point, or whose game the log lacks, stays as it is)."""
    stored = client.zrange(key, 0, -1, withscores=True)
    renumbered = []
    for member, score in stored:
        try:
            point = HistoryPoint.from_member(member)
        except (KeyError, TypeError, ValueError):  # orjson.JSONDecodeError is a ValueError
            renumbered.append((member, score))
            continue
        seq = seq_of.get(point.game_id, point.seq)
        renumbered.append((replace(point, seq=seq).to_member(), float(seq)))
    if sorted(renumbered) != sorted((bytes(m), s) for m, s in stored):
        _replace(client, game, key, _zadd_chunk(keys.ladder_moving(game)), renumbered)


def _rpush_chunk(moving: str):
    return lambda pipe, chunk: pipe.rpush(moving, *chunk)


def _hset_chunk(moving: str):
    return lambda pipe, chunk: pipe.hset(moving, mapping=dict(chunk))


def _zadd_chunk(moving: str):
    return lambda pipe, chunk: pipe.zadd(moving, dict(chunk))


def _replace(client: redis.Redis, game: str, key: str, write, values: Iterable) -> None:
    """Write `values` (list items, hash fields or sorted set members) into the game type's
    moving key, in chunks (`write(pipe, chunk)`), then RENAME it onto `key` in one step: a
    crash leaves `key` whole, old or new."""
    values = list(values)
    moving = keys.ladder_moving(game)
    client.delete(moving)
    if not values:
        client.delete(key)
        return
    pipe = client.pipeline(transaction=False)
    for at in range(0, len(values), WRITE_CHUNK):
        write(pipe, values[at : at + WRITE_CHUNK])
    pipe.execute()
    client.rename(moving, key)


def _read_list(client: redis.Redis, key: str) -> list[bytes]:
    found: list[bytes] = []
    while True:
        raw = client.lrange(key, len(found), len(found) + READ_CHUNK - 1)
        found += raw
        if len(raw) < READ_CHUNK:
            return found
