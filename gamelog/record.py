"""A game folded from its log: the service's own events plus the game's state."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import Any

from domain import game as game_phases
from domain.registry import get_rules
from gamelog.entries import Entry
from gamelog.errors import CorruptLog
from gamelog.events import GAME_CREATED, GAME_EXPIRED, SEAT_JOINED


class Status(StrEnum):
    """Where a game stands: waiting for seats (or expired waiting), then the rules' own
    phases."""

    WAITING = "waiting"
    EXPIRED = "expired"
    ACTIVE = game_phases.ACTIVE
    FINAL_ROUND = game_phases.FINAL_ROUND
    FINISHED = game_phases.FINISHED


STATUSES = tuple(Status)


@dataclass(frozen=True)
class GameRecord:
    """Everything the service knows about one game at one version. Immutable."""

    game_id: str
    game: str
    options: dict
    players: tuple[dict, ...]
    seed_hex: str
    created_at: int
    invites: dict = field(default_factory=dict)  # open seat -> SHA-256 of its join code
    version: int = 0
    updated_at: int = 0
    state: Any = None
    expired: bool = False

    @property
    def rules(self):
        """The game's rules object."""
        return _rules_of(self.game)

    @property
    def open_seats(self) -> list[int]:
        return [seat for seat, player in enumerate(self.players) if player.get("open")]

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def status(self) -> Status:
        if self.state is None:
            return Status.EXPIRED if self.expired else Status.WAITING
        return Status(self.rules.phase(self.state))

    @property
    def finished(self) -> bool:
        return self.status is Status.FINISHED

    @property
    def to_move(self) -> int | None:
        return None if self.state is None else self.rules.to_move(self.state)

    def bot_to_move(self) -> str | None:
        """The bot name of the seat to move, if that seat is a bot."""
        seat = self.to_move
        return None if seat is None else self.players[seat].get("bot")


@cache
def _rules_of(game: str):
    """`get_rules`, looked up once per game name (records ask for it on every property)."""
    return get_rules(game)


def fold_entries(record: GameRecord | None, game_id: str, entries: list[Entry]) -> GameRecord:
    """The record after `entries` (whole batches), starting from `record` (None: empty log).

    The game's opening events (appended with the last seat, in one batch) are folded with
    `rules.fold`; every later event with `rules.evolve`.
    """
    opening: list[dict] = []
    for entry in entries:
        event = entry.event
        if entry.cmd is not None and opening:
            record = _start(record, opening)
            opening = []
        kind = event.get("type")
        if kind == GAME_CREATED:
            record = _created(game_id, entry)
        elif record is None:
            raise CorruptLog(f"the log of game {game_id} does not open with {GAME_CREATED}")
        elif kind == SEAT_JOINED:
            players = list(record.players)
            joined = {"name": event["name"]}
            if event.get("account"):
                joined["account"] = event["account"]
            players[event["seat"]] = joined
            record = replace(record, players=tuple(players))
        elif kind == GAME_EXPIRED:
            record = replace(record, expired=True)
        elif record.state is None:
            opening.append(event)
        else:
            record = replace(record, state=record.rules.evolve(record.state, event))
        record = replace(record, version=entry.n, updated_at=entry.at)
    if opening:
        record = _start(record, opening)
    return record


def _created(game_id: str, entry: Entry) -> GameRecord:
    event = entry.event
    return GameRecord(
        game_id=game_id,
        game=event["game"],
        options=event["options"],
        players=tuple(dict(p) for p in event["players"]),
        seed_hex=event["hidden"]["seed"],
        created_at=entry.at,
        invites={int(seat): h for seat, h in event["hidden"].get("invites", {}).items()},
    )


def _start(record: GameRecord, opening: list[dict]) -> GameRecord:
    return replace(record, state=record.rules.fold(opening))
