"""Settling finished rated games: each one's result goes into the ladder exactly once.

The append that finishes a rated game files it in the `games_to_settle` index in the same
script (store.games.index.ladder_due), so a finished game is never forgotten. A worker's settle
thread (workers/settle.py) claims due games for a while, appends each one's ladder entry
(`settle`: the ladder's own script dedupes by game id, so two workers settling one game, or
one settling it again after a crash, append it once), takes it out of the set, then folds the
new entries into the stored ratings (store.ladder.records.LadderStore.fold_pending). A worker that
dies between finishing and settling leaves the game in the set; its claim lapses and another
worker settles it.

`settle` is the one place a finished rated game's outcome is recorded; it reads the game's
outcome as tournament standings do (gamelog.outcome). A game of a duplicate deal that is
still sealed (application.games.seals) is not settled yet: it waits in the set until its deal is
over (the tournament files the deal's games as due at once when it releases them), so the
ladder tells nothing of a deal before its last game ends.
"""

from __future__ import annotations

import logging

import orjson

from application.games.errors import GameNotFound
from application.games.seals import deal_sealed
from application.games.service import GameService
from application.ladder import no_starts
from application.ladder.rated_pairs import short_game, weighed
from gamelog.errors import CorruptLog
from gamelog.outcome import outcome_of
from gamelog.record import GameRecord
from ladder.entries import LadderEntry, LadderSeat
from store import keys
from store.core.clock import now_ms
from store.core.codec import text
from store.games.index import ladder_due
from store.ladder.records import Appended, LadderStore
from store.tournaments.records import TournamentStore

log = logging.getLogger(__name__)

CLAIM_MS = 10_000  # a claimed game is due again after this long (its worker died)
SETTLE_BATCH = 100


def ladder_entry(record: GameRecord) -> LadderEntry | None:
    """The ladder entry of a finished rated game, from its outcome (gamelog.outcome, the
    same reading tournament standings take); None when it has no result to rate (not over,
    void: cancelled, or aborted because a seat never made a move of its own) or a seat has
    no one to rate."""
    outcome = outcome_of(record)
    if outcome is None or outcome.void:
        return None
    seats = []
    for player, seat in zip(record.players, outcome.seats, strict=True):
        if player.get("account"):
            name, bot = player["account"], False
        elif player.get("bot"):
            name, bot = player["bot"], True
        else:
            return None
        seats.append(LadderSeat(name, bot, seat.score, seat.rank, seat.winner, seat.forfeited))
    return LadderEntry(record.game_id, record.game, record.updated_at, tuple(seats))


def settle(service: GameService, record: GameRecord) -> Appended | None:
    """Record a finished rated game's result in the ladder (once, however often called);
    None when the game has no result for the ladder."""
    if not ladder_due(record):
        return None
    if outcome_of(record).void:  # aborted: a seat never moved (a ghost, a dodge)
        no_starts.record(service.client, record)  # the dodger's count, once
        return None
    entry = ladder_entry(record)
    if entry is None:
        log.warning("game %s is rated but has a seat with no one to rate", record.game_id)
        return None
    entry = weighed(service.client, entry, short_game(record))  # a pair's k-th game: 1/k
    return LadderStore(service.client).append(entry)


def settle_due(service: GameService, limit: int = SETTLE_BATCH, now: int | None = None) -> int:
    """Claim up to `limit` due games, settle each, take them out of the set, then fold the
    ladder's new entries into the stored ratings; the number of games this call appended."""
    ladder = LadderStore(service.client)
    now = now_ms() if now is None else now
    settled = 0
    for game_id in ladder.claim_due(now, CLAIM_MS, limit):
        try:
            record, _, _ = service.load(game_id)
        except (GameNotFound, CorruptLog) as error:
            log.warning("settle skips game %s: %s", game_id, error)
            ladder.settled(game_id)
            continue
        if deal_sealed(service.client, record.tournament):
            if not _deal_cut_short(service, record):
                continue  # its claim lapses: due again later, or at once when its deal ends
        else:
            appended = settle(service, record)
            if appended is not None and appended.new:
                settled += 1
        ladder.settled(game_id)
    ladder.fold_pending()
    return settled


def _deal_cut_short(service: GameService, record: GameRecord) -> bool:
    """Whether a sealed game's deal will never end (its tournament was cancelled): it stays
    sealed and out of the ladder, so it is not asked about again."""
    return TournamentStore(service.client).is_cancelled(record.tournament["id"])


def requeue_unsettled(service: GameService, chunk: int = 1000) -> int:
    """File every finished rated game missing from the ladder in the set to settle (after
    `keltis reindex`: read from the rebuilt index); the number filed."""
    client = service.client
    ladder = LadderStore(client)
    key = keys.games_by_status("finished")
    filed = 0
    for start in range(0, client.zcard(key), chunk):
        ids = [text(game_id) for game_id in client.zrange(key, start, start + chunk - 1)]
        rated: dict[str, int] = {}
        for game_id, raw in zip(ids, client.hmget(keys.game_summaries(), ids), strict=True):
            summary = orjson.loads(raw) if raw is not None else {}
            if summary.get("rated"):
                rated[game_id] = summary["updated_at"]
        seqs = ladder.sequence_of(list(rated))
        pairs = zip(rated.items(), seqs, strict=True)
        missing = {game_id: at for (game_id, at), seq in pairs if seq is None}
        ladder.to_settle(missing)
        filed += len(missing)
    return filed
