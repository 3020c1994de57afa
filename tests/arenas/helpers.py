"""Helpers of the arena tests: bot accounts, and bots that move for some accounts."""

from __future__ import annotations

import secrets

from application.accounts.service import AccountService
from application.bots.turns import bots_of, rng_for, run_of_turns
from application.games.service import GameService
from domain.autoplay import play_bots
from domain.chance import Chance
from store.accounts.records import fold


def bot_accounts(client, count: int, prefix: str = "ar") -> list:
    """`count` new bot accounts (records), without webhooks."""
    accounts = AccountService(client, policy=None)
    tag = secrets.token_hex(4)
    return [accounts.sign_up(f"{prefix}{tag}x{n}", True, None).record for n in range(count)]


def move_for(service: GameService, game_id: str, live: set[str]) -> int:
    """Play every turn due of the seats held by `live` accounts (folded names), as their
    clients would (the game's `random` bot chooses); the turns played."""
    record, _, _ = service.load(game_id)
    if not record.started or record.finished:
        return 0
    policy = record.rules.bots["random"]
    bots = bots_of(record)
    for seat, player in enumerate(record.players):
        if bots[seat] is None and fold(player.get("account") or "") in live:
            bots[seat] = policy
    chance = Chance.from_hex(record.seed_hex)
    turns = list(
        play_bots(record.rules, record.state, bots, chance, rng_for(record), record.version, 3000)
    )
    if not turns:
        return 0
    entries, after = run_of_turns(record, turns, service.clock())
    return len(turns) if service.append_batch(record, entries, after) else 0
