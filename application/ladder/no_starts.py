"""No-starts: a seat that never makes its first move aborts a rated game with no loss
(gamelog.results), so seeing a hand and letting the clock run out would dodge any game. As
lichess counts such aborts and limits the account, the service counts them per account and
keeps a serial no-starter out of the pool.

An account's seat of an aborted rated game is a no-start when that seat never moved while
another seat did, or when it was the seat to move first (seat 0, S2) and did not. Settling
the game (application.games.settle) records it once and counts it on
`keltis_no_starts_total{game}`; `keltis ratings suspicious` lists the accounts; an account
with more than KELTIS_NO_STARTS_PER_DAY of them in 24 h opens no seek (429 too_many_no_starts,
Retry-After: until the oldest of them is a day old)."""

from __future__ import annotations

from dataclasses import dataclass

import redis

import settings
from application.metrics import counters as metrics
from domain.errors import KeltisError, Kind
from gamelog.record import GameRecord
from gamelog.results import is_aborted
from ladder.pairs import WINDOW_MS
from store.ladder.no_starts import NoStartStore

FIRST_SEAT = 0  # the seat that plays first (S2)


class TooManyNoStarts(KeltisError):
    """The account let too many rated games abort by never moving in the last 24 h: it
    opens no seek until the oldest of them is a day old (429, Retry-After)."""

    code = "too_many_no_starts"
    kind = Kind.RATE_LIMITED

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = max(1, retry_after_s)


@dataclass(frozen=True)
class NoStarter:
    """An account's no-starts in a window, newest game last (what the operator is shown)."""

    account: str
    no_starts: int
    game_ids: tuple[str, ...]


def no_starters(record: GameRecord) -> list[str]:
    """The (folded) accounts whose seats are no-starts of a game that is over: none unless it
    was aborted; an account's seat that never moved while another did, or the first seat
    that never moved."""
    if not record.finished or not is_aborted(record):
        return []
    found = []
    for seat, player in enumerate(record.players):
        account = player.get("account")
        if not account or seat in record.moved:
            continue
        if record.moved or seat == FIRST_SEAT:
            found.append(account.lower())
    return found


def record(client: redis.Redis, game: GameRecord) -> list[str]:
    """Keep the no-starts of a game that is over (once however often called); the accounts
    this call counted."""
    store = NoStartStore(client)
    counted = [a for a in no_starters(game) if store.record(a, game.game_id, game.updated_at)]
    for _ in counted:
        metrics.no_start(game.game)
    return counted


def check_pool(client: redis.Redis, account: str, now: int, limit: int | None = None) -> None:
    """TooManyNoStarts when `account` has more than `limit` (default: the setting; 0: no
    limit) no-starts in the 24 h before `now`."""
    limit = settings.current().no_starts_per_day if limit is None else limit
    if limit <= 0:
        return
    found = NoStartStore(client).since(account.lower(), now - WINDOW_MS)
    if len(found) <= limit:
        return
    # The pool opens again once no more than `limit` remain in the window.
    frees_at = found[len(found) - limit - 1][1] + WINDOW_MS
    raise TooManyNoStarts(
        f"{len(found)} of your rated games in the last 24 h were aborted because your seat never"
        f" moved (at most {limit}): the pool takes your seeks again later",
        -(-(frees_at - now) // 1000),
    )


def listing(client: redis.Redis, now: int, window_ms: int = WINDOW_MS, minimum: int = 1):
    """The accounts with at least `minimum` no-starts in the `window_ms` before `now`, most
    first."""
    store = NoStartStore(client)
    since = now - window_ms
    found = []
    for account in store.recent_accounts(since):
        games = store.since(account, since)
        if len(games) >= minimum:
            found.append(NoStarter(account, len(games), tuple(g for g, _ in games)))
    return sorted(found, key=lambda n: (-n.no_starts, n.account))
