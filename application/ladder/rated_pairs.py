"""Rated games between the same two accounts (the rules: ladder.pairs): the daily limit when
a rated game is created, the weight of a repeated game when its result goes into the
ladder, and the suspicious gains the operator is told of.

- `may_rate`: GameService.create asks it for a rated game whose seats are two accounts; a
  pair that began PAIR_DAILY_LIMIT rated games of that game type in the last 24 h gets an
  unrated game instead (as lichess makes it casual): every way of making a game (POST
  /v1/games, an accepted challenge, the rated pool, an arena) goes through it.
- `weighed`: settling a result (application.games.settle, a two-board match) keeps it in the
  pair's results and writes its k into the ladder entry, so the ladder's fold (and a
  rebuild of it) scales the update by 1/k, and nothing past the limit (a rated game whose
  pair was completed only by a join later). A result that makes a winner's quick wins over
  one opponent reach SUSPICIOUS_WINS in 24 h counts on `keltis_suspicious_gains_total`.
- `suspicious`: what `keltis ratings suspicious` lists, with the ordinal the winner gained
  in those games (read from its rating history).
"""

from __future__ import annotations

from dataclasses import replace

import redis

from application.metrics import counters as metrics
from gamelog.record import GameRecord
from ladder.entries import LadderEntry, LadderSeat, participant_id
from ladder.fold import initial, rated_seats
from ladder.pairs import (
    QUICK_ENTRIES,
    SUSPICIOUS_WINS,
    WINDOW_MS,
    PairResult,
    SuspiciousGain,
    game_number,
    pair_of,
    quick_wins,
    suspicious_gains,
)
from store.ladder import history as ladder_history
from store.ladder.rated_pairs import RatedPairStore

HISTORY_READ = 1000  # rating history points read per winner to sum its gains


def may_rate(client: redis.Redis, game: str, players: list[dict], game_id: str, now: int) -> bool:
    """Whether a new rated game stays rated: True unless its seats are two accounts that
    began their daily limit of rated games of `game` in the last 24 h (then it is created
    unrated). The game is counted for the pair when it stays rated."""
    pair = pair_of(participant_id(p["account"], bot=False) for p in players if p.get("account"))
    if pair is None or len(players) != 2:
        return True
    return RatedPairStore(client).begin(game, pair, game_id, now)


def short_game(record: GameRecord) -> bool:
    """Whether a finished game was short: its log held fewer than QUICK_ENTRIES entries."""
    return record.version < QUICK_ENTRIES


def weighed(client: redis.Redis, entry: LadderEntry, short: bool) -> LadderEntry:
    """The entry with its k among its pair's rated results (unchanged unless it is a game
    between two accounts), the result kept for the pair; counts a suspicious gain once per
    result. `short`: the game was short (a quick win whatever its end)."""
    seats = rated_seats(entry)
    pair = pair_of(seat.participant for seat in seats)
    if pair is None:
        return entry
    winners = [seat for seat in seats if seat.winner]
    winner = winners[0] if len(winners) == 1 else None
    loser = next((seat for seat in seats if seat is not winner), None) if winner else None
    quick = winner is not None and (short or loser.forfeited)
    result = PairResult(
        entry.game_id,
        entry.finished_at,
        winner.participant if winner else None,
        loser.participant if loser else None,
        quick,
    )
    window, added = RatedPairStore(client).record(entry.game, pair, result)
    since = entry.finished_at - WINDOW_MS
    if added and quick and quick_wins(window, result.winner, since) >= SUSPICIOUS_WINS:
        metrics.suspicious_gain(entry.game)
    return replace(entry, pair_game=game_number(result, window))


def suspicious(
    client: redis.Redis, now: int, window_ms: int = WINDOW_MS, min_wins: int = SUSPICIOUS_WINS
) -> list[SuspiciousGain]:
    """Every account with at least `min_wins` quick wins over one opponent finished in the
    `window_ms` before `now`, most quick wins first, with the ordinal it gained in them."""
    store = RatedPairStore(client)
    since = now - window_ms
    found = []
    for game, pair in store.recent_pairs(since):
        for gain in suspicious_gains(game, store.results(game, pair, since), since, min_wins):
            found.append(replace(gain, gained=_gained(client, game, gain)))
    return sorted(found, key=lambda g: (-g.quick_wins, -g.gained, g.game, g.winner))


def _gained(client: redis.Redis, game: str, gain: SuspiciousGain) -> float:
    """The ordinal the winner gained in the games it won (from its rating history: each
    point's ordinal less the one before it, or less a new rating's)."""
    points, _ = ladder_history.page(client, game, gain.winner, None, HISTORY_READ)
    points = sorted(points, key=lambda p: p.seq)
    fresh = initial_ordinal()
    wanted = set(gain.game_ids)
    total = 0.0
    for before, point in zip([None, *points], points, strict=False):
        if point.game_id not in wanted:
            continue
        if before is not None:
            total += point.ordinal - before.ordinal
        elif point.games == 1:
            total += point.ordinal - fresh
    return total


def initial_ordinal() -> float:
    """The ordinal of a participant before its first rated game."""
    return initial(LadderSeat("", False, None, 1, False, False)).ordinal
