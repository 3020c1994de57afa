"""The public side of an account (the web client's account page): its games, as anyone may
list them, and its rating history per game type (store.ladder.history).

Public games are those in play or finished; a game of a duplicate deal that is still sealed
(application.games.seals) is kept out, as the public listings keep it out (store.games.index: a
game is
in `games_by_created` exactly while it is listed), and a page's cursor never names one.
"""

from __future__ import annotations

import orjson
import redis

from application.accounts.errors import AccountNotFound
from application.common.errors import UnknownGame
from domain.registry import game_names
from ladder.entries import participant_id
from store import keys
from store.accounts.records import AccountStore, fold
from store.archive.tier import archive_from_env
from store.core.cursor import Pager, Position
from store.games.index import IN_PLAY
from store.ladder import history as ladder_history

PUBLIC = IN_PLAY | {"finished"}  # the statuses an account page lists
CHUNK = 50  # ids read per step of a walk
MAX_SCAN = 2000  # ids one page may step over (far more than an account's sealed games)


def _account(client: redis.Redis, name: str):
    record = AccountStore(client).get(name)
    if record is None:
        raise AccountNotFound("no account of this name")
    return record


def _wanted(status: str | None, summary: dict) -> bool:
    if status == "active":
        return summary["status"] in IN_PLAY
    if status is not None:
        return summary["status"] == status
    return summary["status"] in PUBLIC


def games_page(
    client: redis.Redis, name: str, status: str | None, after: Position | None, limit: int
) -> tuple[dict, str | None]:
    """One page of an account's public games, newest first (`status`: "active" for those
    in play, "finished", or None for both), and the next cursor (None at the end).

    The walk reads the account's game set a chunk at a time and skips what is not shown;
    the cursor it hands out is the last public game it stepped over (shown, or of another
    status), never a sealed one."""
    record = _account(client, name)
    folded = fold(record.name)
    key = keys.account_playing(folded) if status == "active" else keys.account_games(folded)
    pager = Pager(client)
    shown: list[dict] = []
    position, cursor, scanned, more = after, after, 0, True
    while more and len(shown) < limit and scanned < MAX_SCAN:
        ids, scores, next_position = pager.page_with_scores(key, position, CHUNK)
        more = next_position is not None
        if not ids:
            break
        summaries, listed = _read(client, ids)
        for index, (game_id, score) in enumerate(zip(ids, scores, strict=True)):
            scanned += 1
            position = Position(score, game_id)
            raw = summaries[index]
            if raw is None or listed[index] is None:
                continue  # gone, or sealed: not listed, not a cursor
            cursor = position
            summary = orjson.loads(raw)
            if _wanted(status, summary):
                shown.append(summary)
                if len(shown) == limit:
                    more = more or index < len(ids) - 1
                    break
    next_cursor = cursor.encode() if more and cursor is not None else None
    return {"name": record.name, "games": shown}, next_cursor


def _read(client: redis.Redis, ids: list[str]) -> tuple[list, list]:
    """The summaries of `ids` and whether each is listed (None: not listed). A game in the
    archive tier is read from there, and is listed (store.archive.listing)."""
    pipe = client.pipeline(transaction=False)
    pipe.hmget(keys.game_summaries(), ids)
    for game_id in ids:
        pipe.zscore(keys.games_by_created(), game_id)
    found = pipe.execute()
    summaries, listed = found[0], found[1:]
    archive = archive_from_env()
    if archive is None or all(raw is not None for raw in summaries):
        return summaries, listed
    archived = archive.summaries([g for g, raw in zip(ids, summaries, strict=True) if raw is None])
    for at, game_id in enumerate(ids):
        if game_id in archived:
            summaries[at], listed[at] = archived[game_id], True
    return summaries, listed


def rating_history(
    client: redis.Redis, name: str, game: str, before: int | None, limit: int
) -> tuple[dict, str | None]:
    """One page of an account's rating history in `game`, newest first (each point: its
    rating after one rated game), and the next cursor (None at the end)."""
    if game not in game_names():
        raise UnknownGame(f"unknown game {game!r}")
    record = _account(client, name)
    found, next_before = ladder_history.page(
        client, game, participant_id(record.name, bot=False), before, limit
    )
    payload = {"name": record.name, "game": game, "points": [p.shown() for p in found]}
    return payload, None if next_before is None else str(next_before)
