"""Indexes over all games (listing, bot turns due); rebuildable from the logs at any time."""

from __future__ import annotations

import orjson
import redis

from gamelog.record import STATUSES, GameRecord, Status
from store import keys
from store.archive import listing as archive_listing
from store.archive.tier import ArchiveStore
from store.core.cursor import Position
from store.core.scripts import load_script


def summary(record: GameRecord) -> dict:
    """The public summary of a game kept in the index (no hidden information)."""
    return {
        "id": record.game_id,
        "game": record.game,
        "status": record.status,
        "version": record.version,
        "to_move": record.to_move,
        "players": [public_player(seat, p) for seat, p in enumerate(record.players)],
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "deadline": record.deadline,
        "rated": record.rated,
    }


def public_player(seat: int, player: dict) -> dict:
    """A seat as anyone may see it."""
    shown = {
        "seat": seat,
        "name": player.get("name"),
        "bot": player.get("bot"),
        "open": bool(player.get("open")),
        "invite": bool(player.get("invite")),
    }
    if player.get("account"):
        shown["account"] = player["account"]
    return shown


class Writes:
    """Index writes collected instead of sent: the subset of a pipeline `update` uses."""

    def __init__(self):
        self.commands: list[tuple[str, str, list]] = []

    def hset(self, key: str, field: str, value) -> None:
        self.commands.append(("HSET", key, [field, value]))

    def zadd(self, key: str, mapping: dict, nx: bool = False) -> None:
        scored = [item for member, score in mapping.items() for item in (score, member)]
        self.commands.append(("ZADD", key, ["NX", *scored] if nx else scored))

    def zrem(self, key: str, member: str) -> None:
        self.commands.append(("ZREM", key, [member]))

    def publish(self, channel: str, message: bytes) -> None:
        self.commands.append(("PUBLISH", None, [channel, message]))


def after_append_call(
    record: GameRecord,
    before: GameRecord | None,
    log_key: str,
    last_entry: bytes,
    notices: tuple[list[str], bytes] | None = None,
) -> tuple[list[str], list]:
    """The keys and arguments of `store/lua/index_after_append.lua` for `update`'s writes:
    made only if the log holds `last_entry` at `record.version` (the append before them
    happened).

    `notices` (channels, message) are published by the same script, after the writes, so a
    notification tells of a version only once the log holds it. Standalone Redis only: the
    script names the game's log and index keys together."""
    writes = Writes()
    update(writes, record, before)
    for channel in notices[0] if notices else ():
        writes.publish(channel, notices[1])
    script_keys, args = [log_key], [record.version, last_entry]
    for command, key, arguments in writes.commands:
        if key is not None and key not in script_keys:
            script_keys.append(key)
        position = 0 if key is None else script_keys.index(key) + 1
        args.extend((command, position, len(arguments), *arguments))
    return script_keys, args


def of_a_deal(record: GameRecord) -> bool:
    """Whether a game belongs to a duplicate deal (`deal_games` in its placement): sealed
    until every game of its deal is over (application.games.seals), and kept out of the listings
    until then."""
    return bool(record.tournament and record.tournament.get("deal_games"))


def update(
    pipe: redis.client.Pipeline | Writes,
    record: GameRecord,
    before: GameRecord | None = None,
    listed: bool | None = None,
) -> None:
    """Queue the index writes for a game's new version on `pipe`.

    `before` is the version `record` directly follows, whose own index writes were made with
    its append; writes that cannot change anything after it are left out (a game is listed
    once; its status sets change only with its status; a game whose bot was not due has no
    bot-turn entry to remove). Without `before` every entry of the game is written afresh,
    so a rebuild also takes it out of the sets of every other status.

    `listed` (default: unless the game belongs to a duplicate deal) says whether the game
    goes into the listings (by creation, game type, status: GET /v1/games and the export
    walk them). A game of a deal is listed only once its deal is over: the tournament
    writes its entries afresh with `listed` then (application.tournaments.service.record_game);
    an unlisted rewrite takes it out of every listing.
    """
    listed = not of_a_deal(record) if listed is None else listed
    if not listed:
        if before is None:
            _unlist(pipe, record)
    elif before is None:
        created = {record.game_id: record.created_at}
        pipe.zadd(keys.games_by_created(), created, nx=True)
        pipe.zadd(keys.games_by_game(record.game), created, nx=True)
    pipe.hset(
        keys.game_summaries(),
        record.game_id,
        orjson.dumps(summary(record)),
    )
    if listed and (before is None or before.status != record.status):
        _file_by_status(pipe, record, STATUSES if before is None else (before.status,))
    if _bot_due(record):
        pipe.zadd(keys.bot_turns(), {record.game_id: record.updated_at})
    elif before is None or _bot_due(before):
        pipe.zrem(keys.bot_turns(), record.game_id)
    deadline = record.deadline
    if deadline is not None:
        pipe.zadd(keys.deadlines(), {record.game_id: deadline})
    elif before is None or before.deadline is not None:
        pipe.zrem(keys.deadlines(), record.game_id)
    if account_to_move(record):
        pipe.zadd(keys.account_turns(), {record.game_id: record.updated_at})
    elif before is None or account_to_move(before):
        pipe.zrem(keys.account_turns(), record.game_id)
    _file_accounts(pipe, record, before)
    if before is not None and ladder_due(record) and not before.finished:
        pipe.zadd(keys.games_to_settle(), {record.game_id: record.updated_at})
    placed = record.tournament
    just_over = record.finished and (before is None or not before.finished)
    if compactable(record) and (before is None or not compactable(before)):
        pipe.zadd(keys.games_to_compact(), {record.game_id: record.updated_at})
    if placed and placed.get("open") and just_over:  # its tournament goes on (open_tournaments)
        pipe.zadd(keys.tournaments_due(), {placed["id"]: record.updated_at})


def compactable(record: GameRecord) -> bool:
    """Whether a game takes no more entries, so its log may be compacted: finished (by its
    rules, early, or cancelled) or expired. The append that makes it so files it in
    `games_to_compact` (application.operations.compaction drains it)."""
    return record.finished or record.expired


def ladder_due(record: GameRecord) -> bool:
    """Whether a game's result goes into the ladder: a rated game that finished (by its
    rules, timeouts, forfeits or resignations; not expired, not cancelled). The append that
    finishes it files it in `games_to_settle` (application.games.settle drains it)."""
    return record.rated and record.finished and not record.cancelled


def account_to_move(record: GameRecord) -> str | None:
    """The account holding the seat to move (None when no account is to move, the seat
    forfeited, or the game is not in play)."""
    seat = record.to_move
    if seat is None or record.finished or record.bot_of(seat) is not None:
        return None
    return record.players[seat].get("account")


IN_PLAY = frozenset({"active", "final_round"})


def _file_accounts(pipe, record: GameRecord, before: GameRecord | None) -> None:
    """The per-account game sets: a seat taken by an account (at creation or join) files the
    game under it; a status change moves it in or out of the account's games in play."""
    member = {record.game_id: record.created_at}
    status_changed = before is None or before.status != record.status
    for seat, player in enumerate(record.players):
        account = player.get("account")
        if account is None:
            continue
        folded = account.lower()
        if before is None or before.players[seat].get("account") != account:
            pipe.zadd(keys.account_games(folded), member)
            pipe.zadd(keys.account_games_of(folded, record.game), member)
        elif not status_changed:
            continue
        if record.status in IN_PLAY:
            pipe.zadd(keys.account_playing(folded), member)
        else:
            pipe.zrem(keys.account_playing(folded), record.game_id)


def _file_by_status(
    pipe: redis.client.Pipeline, record: GameRecord, stale: tuple[str, ...]
) -> None:
    """Add the game to its status's sets, then take it out of those of the `stale` statuses.

    One key per command: the index keys span games, so on a Redis Cluster each set may sit
    on another node (a cluster pipeline sends each command to its key's node).
    """
    member = {record.game_id: record.created_at}
    pipe.zadd(keys.games_by_status(record.status), member)
    pipe.zadd(keys.games_by_game_and_status(record.game, record.status), member)
    for status in stale:
        if status != record.status:
            pipe.zrem(keys.games_by_status(status), record.game_id)
            pipe.zrem(keys.games_by_game_and_status(record.game, status), record.game_id)


def _unlist(pipe, record: GameRecord) -> None:
    """Take a game out of every listing (by creation, by game type, by status)."""
    pipe.zrem(keys.games_by_created(), record.game_id)
    pipe.zrem(keys.games_by_game(record.game), record.game_id)
    for status in STATUSES:
        pipe.zrem(keys.games_by_status(status), record.game_id)
        pipe.zrem(keys.games_by_game_and_status(record.game, status), record.game_id)


def _bot_due(record: GameRecord) -> bool:
    return bool(record.bot_to_move()) and not record.finished


def list_games(
    client: redis.Redis,
    status: str | None,
    game: str | None,
    after: Position | None,
    limit: int,
    archive: ArchiveStore | None = None,
) -> tuple[list[dict], Position | None]:
    """Summaries, newest first, filtered; returns them and the position to go on from (None
    at the end). With an `archive`, its games are listed too (store.archive.listing).

    The filter picks one sorted set (every game, by status, by game, or by both), so a page
    reads `limit` ids and their summaries however many games are stored. The walk goes by
    (created_at, id) (store.core.cursor): a game is never listed twice, and a game created during
    the walk is not listed. A status filter lists a game that has the status when the walk
    reaches it; one whose status moved it out of the set before that is not listed (it
    would have been listed had the walk reached it first). A summary that no longer matches
    the filter (its status changed between the two reads) is left out of the page.
    """
    key = listing_key(status, game)
    ids, _, next_position = archive_listing.page_with_scores(
        client, archive, key, after, limit, status=status, game=game
    )
    if not ids:
        return [], next_position
    found = []
    for item in archive_listing.read_summaries(client, archive, ids):
        if item is None:
            continue
        data = orjson.loads(item)
        if (status is None or data["status"] == status) and (game is None or data["game"] == game):
            found.append(data)
    return found, next_position


LIVE_STATUSES = (Status.WAITING, Status.ACTIVE, Status.FINAL_ROUND)


def any_live(client: redis.Redis, game_ids: list[str]) -> bool:
    """Whether the index lists one of `game_ids` as live (waiting for seats or in play)."""
    if not game_ids:
        return False
    pipe = client.pipeline(transaction=False)
    for status in LIVE_STATUSES:
        for game_id in game_ids:
            pipe.zscore(keys.games_by_status(status), game_id)
    return any(score is not None for score in pipe.execute())


def listing_key(status: str | None, game: str | None) -> str:
    """The sorted set holding exactly the games a listing filter asks for."""
    if status is not None and game is not None:
        return keys.games_by_game_and_status(game, status)
    if status is not None:
        return keys.games_by_status(status)
    if game is not None:
        return keys.games_by_game(game)
    return keys.games_by_created()


def forget_deadline(client: redis.Redis, game_id: str) -> None:
    """Drop a game's deadline entry (its log is gone or unreadable)."""
    client.zrem(keys.deadlines(), game_id)


def defer_deadline(client: redis.Redis, game_id: str, deadline_ms: int, until_ms: int) -> bool:
    """Move a game's deadline entry from `deadline_ms` (as read) to `until_ms`, unless the game
    has written another deadline since; True when moved."""
    script = client.register_script(load_script("zadd_if_score.lua"))
    return bool(script(keys=[keys.deadlines()], args=[game_id, deadline_ms, until_ms]))


def deadlines_due(client: redis.Redis, now_ms: int, limit: int) -> list[tuple[str, int]]:
    """(game id, deadline) of up to `limit` games whose deadline is at or before `now_ms`,
    earliest first."""
    found = client.zrangebyscore(keys.deadlines(), "-inf", now_ms, 0, limit, withscores=True)
    return [(gid.decode() if isinstance(gid, bytes) else gid, int(at)) for gid, at in found]


def bot_turns_due(client: redis.Redis, older_than_ms: int) -> list[str]:
    """Ids of games whose bot has been due since before `older_than_ms`."""
    return [
        gid.decode() if isinstance(gid, bytes) else gid
        for gid in client.zrangebyscore(keys.bot_turns(), "-inf", older_than_ms)
    ]
