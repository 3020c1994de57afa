"""Seeks, the rated pool's requests: "I want a game of this kind, up to N at once". Open,
list and cancel them for an account (the API); application.seeks.worker_pass pairs them.

A seek is a small record (store.seeks.records), not a game: it lives while its account listens on
`GET /v1/me/events` (a stream slot of the account, store.live.streams) or has a webhook that
answers (no failed call since the seek opened within the last minute), or until it is
cancelled; a seek whose account stopped listening longer than the grace is closed by the
pairing pass. Its games are ordinary games (GameService) that go on without it.

Settings (environment): KELTIS_SEEKS_PER_ACCOUNT (3), KELTIS_SEEKS_PER_ADDRESS (20),
KELTIS_SEEK_GRACE_S (15).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import settings
from application.bots import webhook_probe
from application.common.ids import random_id
from application.games.errors import InvalidClock, InvalidPlayers
from application.games.service import GameService
from application.ladder import no_starts
from application.seeks import pool_bots
from application.seeks.pairing import PairingRules
from application.webhooks.policy import WebhookPolicy, policy_from_env
from domain.bots import fallback_problem
from domain.errors import KeltisError, Kind
from store.accounts.records import AccountRecord
from store.seeks.records import ACCOUNT_FULL, OPENED, SeekStore, StoredSeek, listening

SEEK_ID_BYTES = 12
PER_ACCOUNT = 3
PER_ADDRESS = 20
GRACE_S = 15.0
MAX_GAMES = 10


class SeekNotFound(KeltisError):
    """No open seek of this account has this id (404)."""

    code = "seek_not_found"
    kind = Kind.NOT_FOUND


class WebhookNotAnswering(KeltisError):
    """A webhook bot without an event stream placed a seek, and its webhook did not answer
    a probe (409): the pool seats only players connected now."""

    code = "webhook_not_answering"
    kind = Kind.CONFLICT


class TooManySeeks(KeltisError):
    """The account (or the client address) holds as many open seeks as it may (429)."""

    code = "too_many_seeks"
    kind = Kind.RATE_LIMITED
    retry_after_s = 10


@dataclass(frozen=True, slots=True)
class SeekBounds:
    """Open seeks per account and per client address (0: no bound), and how long a seek
    outlives its account's last stream."""

    per_account: int = PER_ACCOUNT
    per_address: int = PER_ADDRESS
    grace_ms: int = int(GRACE_S * 1000)

    @classmethod
    def from_env(cls) -> SeekBounds:
        configured = settings.current()
        return cls(
            configured.seeks_per_account,
            configured.seeks_per_address,
            int(configured.seek_grace_s * 1000),
        )


def open_seek(
    service: GameService,
    account: AccountRecord,
    request: Mapping,
    address: str,
    bounds: SeekBounds,
    policy: WebhookPolicy | None = None,
    pool: PairingRules | None = None,
) -> dict:
    """Open a seek of `account` (its shape checked: game, players, options, clock);
    TooManySeeks at a bound; WebhookNotAnswering for a webhook account without an event
    stream whose webhook does not answer (`policy`: where webhooks may be called). The seek as
    shown, with the pool bots that join it if no person does (`pool`: the pairing rules;
    default: the settings'). TooManyNoStarts for an account that let more than
    KELTIS_NO_STARTS_PER_DAY rated games abort by never moving in 24 h."""
    rules = service.rules_for(request["game"])
    players = request.get("players", 2)
    if not rules.min_players <= players <= rules.max_players:
        raise InvalidPlayers(
            f"{rules.name} takes {rules.min_players} to {rules.max_players} players"
        )
    clock = request.get("clock")
    if clock is not None:
        problem = fallback_problem(rules.bots, clock["fallback"])
        if problem is not None:
            raise InvalidClock(problem)
        clock = dict(clock)
    now = service.clock()
    no_starts.check_pool(service.client, account.folded, now)  # a serial dodger waits
    # A webhook bot is probed now, so a dead one never enters the pool; an account that
    # pulls may still be opening its stream (its seek waits unpaired until it does).
    if account.webhook and not listening(service.client, [account.folded], now):
        policy = policy or policy_from_env(service.client)
        if not webhook_probe.connected(service.client, policy, account, now):
            raise WebhookNotAnswering(
                "no event stream of this account is open and its webhook does not answer: "
                "listen on GET /v1/me/events, or make the webhook answer"
            )
    seek_id = random_id(SEEK_ID_BYTES)
    data = {
        "id": seek_id,
        "account": account.name,
        "game": rules.name,
        "options": rules.normalize_options(request.get("options") or {}),
        "players": players,
        "clock": clock,
        "rated": request.get("rated", True),
        "max_games": request.get("max_games", 1),
        "created_at": now,
        "address": address,
    }
    store = SeekStore(service.client)
    opened = store.open(seek_id, data, now, bounds.per_account, bounds.per_address)
    if opened != OPENED:
        who = "account" if opened == ACCOUNT_FULL else "client address"
        bound = bounds.per_account if opened == ACCOUNT_FULL else bounds.per_address
        raise TooManySeeks(f"at most {bound} open seeks per {who}: cancel one first")
    store.ring()
    upcoming = pool_bots.upcoming(service, data, now, now, pool)
    return shown(StoredSeek(seek_id, data, now, now, {}), [], upcoming=upcoming)


def shown(
    found: StoredSeek, games: list[str], status: str = "open", upcoming: dict | None = None
) -> dict:
    """A seek as its account sees it (never its client address); `upcoming`: its pool bots
    (application.seeks.pool_bots.upcoming), None when none join it."""
    data = found.data
    return {
        "id": found.id,
        "status": status,
        "account": data["account"],
        "game": data["game"],
        "options": data["options"],
        "players": data["players"],
        "clock": data["clock"],
        "rated": data["rated"],
        "max_games": data["max_games"],
        "playing": len(found.playing),
        "games": games,
        "created_at": data["created_at"],
        "pool_bots": upcoming,
    }


def account_seeks(
    service: GameService, account: AccountRecord, pool: PairingRules | None = None
) -> list[dict]:
    """The account's open seeks, oldest first (a seek with a game in play is owed no pool
    bot until it ends)."""
    store = SeekStore(service.client)
    found = store.load(store.account_ids(account.folded))
    games = store.games([s.id for s in found])
    now = service.clock()
    listed = []
    for seek in found:
        upcoming = None
        if not seek.playing:
            upcoming = pool_bots.upcoming(service, seek.data, seek.since, now, pool)
        listed.append(shown(seek, games[seek.id], upcoming=upcoming))
    return listed


def cancel_seek(service: GameService, account: AccountRecord, seek_id: str) -> dict:
    """Close one of the account's open seeks (its games go on); SeekNotFound otherwise
    (another account's seek looks the same as none)."""
    store = SeekStore(service.client)
    found = store.load([seek_id]) if len(seek_id) <= 64 else []
    if not found or found[0].folded != account.folded:
        raise SeekNotFound("no open seek of this account has this id")
    games = store.games([seek_id])[seek_id]
    if not store.close(found[0]):
        raise SeekNotFound("no open seek of this account has this id")
    return shown(found[0], games, status="cancelled")
