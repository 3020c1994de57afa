"""Bulk export: the replays of finished games, one at a time, as a walk over an index.

The walk reads the index a page at a time (store.core.cursor) and builds one replay at a time,
so the export holds one page of ids and one replay, however many games it covers. Each
yielded line carries the cursor of its game: an export cut short resumes after the last
line it wrote. Only replays the API would serve go out: a live game has none (R2) and a
game of a duplicate deal stays sealed until its deal is over (application.games.seals); both are
skipped, and so is any game whose replay GET .../replay would refuse (its log gone, or not
readable as a replay: a game type this server does not know), so one bad game never breaks
the stream.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import orjson

from application.arenas.export import arena_walk
from application.bots.analysis import with_analysis
from domain.errors import KeltisError
from replays.errors import ReplayError
from store import keys
from store.accounts.records import fold
from store.archive import listing as archive_listing
from store.archive.tier import ArchiveStore
from store.core.cursor import Position
from store.tournaments.records import TournamentStore
from tournaments.seeds import game_id as tournament_game_id

PAGE = 100  # ids read from the index at a time
FINISHED = "finished"


@dataclass(frozen=True)
class ExportFilter:
    """Which finished games go out: of one game type, created in [since, until) (ms), of one
    tournament, with a seat held by one account. None: no condition."""

    game: str | None = None
    since: int | None = None
    until: int | None = None
    tournament: str | None = None
    account: str | None = None
    arena: str | None = None  # one arena's games (application.arenas.export)

    def admits(self, summary: dict) -> bool:
        """Whether an indexed game summary passes every condition but the tournament's."""
        if summary["status"] != FINISHED:
            return False
        if self.game is not None and summary["game"] != self.game:
            return False
        if self.since is not None and summary["created_at"] < self.since:
            return False
        if self.until is not None and summary["created_at"] >= self.until:
            return False
        if self.account is not None:
            folded = fold(self.account)
            held = {(p.get("account") or "").lower() for p in summary["players"]}
            return folded in held
        return True


def export_lines(
    games,
    chosen: ExportFilter,
    after: Position | None,
    limit: int | None = None,
    max_s: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[dict]:
    """`{"cursor", "replay"}` per exported game, newest first, after `after`; then one last
    line `{"end": true, "exported", "next_cursor"}`. next_cursor is null when the walk is
    over; it is where to go on when `limit` games went out or the export ran `max_s`
    seconds (a stream's lifetime) first: after the last game looked at, exported or skipped.
    `games` is an application.games.service.GameService."""
    exported, last = 0, None
    ends = None if max_s is None else clock() + max_s
    for game_id, position in candidates(games.client, chosen, after, games.store.archive):
        out_of_time = ends is not None and last is not None and clock() >= ends
        if out_of_time or (limit is not None and exported >= limit):
            yield {"end": True, "exported": exported, "next_cursor": last}
            return
        last = position.encode()
        try:
            replay = with_analysis(games.client, game_id, games.replay(game_id))
        except (KeltisError, ReplayError):  # refused as GET .../replay would refuse it
            continue
        exported += 1
        yield {"cursor": last, "replay": replay}
    yield {"end": True, "exported": exported, "next_cursor": None}


def candidates(
    client, chosen: ExportFilter, after: Position | None, archive: ArchiveStore | None = None
) -> Iterator[tuple]:
    """(game id, its position) of each game the filter admits, by its index summary (the
    games in the archive tier too, with `archive`: store.archive.listing)."""
    if chosen.tournament is not None:
        walk = _tournament_walk(client, chosen.tournament, after)
    elif chosen.arena is not None:
        walk = arena_walk(client, chosen.arena, after)
    else:
        walk = _index_walk(client, chosen, after, archive)
    for ids_and_positions in walk:
        ids = [game_id for game_id, _ in ids_and_positions]
        summaries = archive_listing.read_summaries(client, archive, ids)
        for (game_id, position), raw in zip(ids_and_positions, summaries, strict=True):
            if raw is not None and chosen.admits(orjson.loads(raw)):
                yield game_id, position


def _index_walk(
    client, chosen: ExportFilter, after: Position | None, archive: ArchiveStore | None
) -> Iterator[list]:
    """Pages of (id, position) from the sorted set that holds the fewest candidates, by
    (created_at, id) newest first, from `until` down to `since`; merged with the archive's
    finished games of the filter's game type (an account's set keeps its archived games)."""
    if chosen.account is not None:
        key, archive = keys.account_games(fold(chosen.account)), None
    elif chosen.game is not None:
        key = keys.games_by_game_and_status(chosen.game, FINISHED)
    else:
        key = keys.games_by_status(FINISHED)
    if after is None and chosen.until is not None:
        after = Position(chosen.until, "")  # strictly below `until`: "" precedes every id
    while True:
        ids, scores, next_position = archive_listing.page_with_scores(
            client, archive, key, after, PAGE, FINISHED, chosen.game, chosen.since
        )
        page = [
            (game_id, Position(score, game_id))
            for game_id, score in zip(ids, scores, strict=True)
            if chosen.since is None or score >= chosen.since
        ]
        if page:
            yield page
        if next_position is None or len(page) < len(ids):
            return
        after = next_position


def _tournament_walk(client, tournament: str, after: Position | None) -> Iterator[list]:
    """Pages of (id, position) of a tournament's games, last game first (position: its
    index). TournamentNotFound for an unknown tournament."""
    spec, _ = TournamentStore(client).load(tournament)
    top = spec.games - 1 if after is None else min(spec.games, int(after.score)) - 1
    for first in range(top, -1, -PAGE):
        indexes = range(first, max(-1, first - PAGE), -1)
        yield [
            (tournament_game_id(tournament, i), Position(i, tournament_game_id(tournament, i)))
            for i in indexes
        ]
