"""Seeks, the rated pool's requests: "I want a game of this kind, up to N at once". Open,
list and cancel them for an account (the API); application.seek_pass pairs them.

A seek is a small record (store.seeks), not a game: it lives while its account listens on
`GET /v1/me/events` (a stream slot of the account, store.streams) or has a webhook that
answers (no failed call since the seek opened within the last minute), or until it is
cancelled; a seek whose account stopped listening longer than the grace is closed by the
pairing pass. Its games are ordinary games (GameService) that go on without it.

Settings (environment): KELTIS_SEEKS_PER_ACCOUNT (3), KELTIS_SEEKS_PER_ADDRESS (20),
KELTIS_SEEK_GRACE_S (15).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

import orjson

from application.errors import InvalidClock, InvalidPlayers
from application.games import GameService
from domain.bots import fallback_problem
from domain.errors import KeltisError, Kind
from store.accounts import AccountRecord
from store.seeks import ACCOUNT_FULL, OPENED, SeekStore, StoredSeek

SEEK_ID_BYTES = 12
PER_ACCOUNT = 3
PER_ADDRESS = 20
GRACE_S = 15.0
MAX_GAMES = 10


class SeekNotFound(KeltisError):
    """No open seek of this account has this id (404)."""

    code = "seek_not_found"
    kind = Kind.NOT_FOUND


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
    def from_env(cls, env: Mapping[str, str] = os.environ) -> SeekBounds:
        return cls(
            int(env.get("KELTIS_SEEKS_PER_ACCOUNT", PER_ACCOUNT)),
            int(env.get("KELTIS_SEEKS_PER_ADDRESS", PER_ADDRESS)),
            int(float(env.get("KELTIS_SEEK_GRACE_S", GRACE_S)) * 1000),
        )


def pool_key(data: Mapping) -> tuple:
    """What two seeks must share to sit at one table."""
    return (
        data["game"],
        orjson.dumps(data["options"], option=orjson.OPT_SORT_KEYS),
        data["players"],
        orjson.dumps(data["clock"], option=orjson.OPT_SORT_KEYS),
        data["rated"],
    )


def open_seek(
    service: GameService,
    account: AccountRecord,
    request: Mapping,
    address: str,
    bounds: SeekBounds,
) -> dict:
    """Open a seek of `account` (its shape checked: game, players, options, clock);
    TooManySeeks at a bound. The seek as shown."""
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
    seek_id = secrets.token_urlsafe(SEEK_ID_BYTES)
    now = service.clock()
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
    return shown(StoredSeek(seek_id, data, now, now, {}), [])


def shown(found: StoredSeek, games: list[str], status: str = "open") -> dict:
    """A seek as its account sees it (never its client address)."""
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
    }


def account_seeks(service: GameService, account: AccountRecord) -> list[dict]:
    """The account's open seeks, oldest first."""
    store = SeekStore(service.client)
    found = store.load(store.account_ids(account.folded))
    games = store.games([s.id for s in found])
    return [shown(s, games[s.id]) for s in found]


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
