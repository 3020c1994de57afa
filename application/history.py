"""Time travel: a game as it stood at an earlier version, folded from its log's head.

The game's opening (the rules' first events, appended in one batch with the last seat) is
folded whole: a version inside it stands for the version before it began, so no state is
ever made from half a deal.
"""

from __future__ import annotations

from application.errors import VersionNotFound
from application.games import GameService
from gamelog.entries import Entry
from gamelog.events import SERVICE_EVENTS
from gamelog.record import GameRecord, fold_entries


def record_at(service: GameService, record: GameRecord, at: int) -> GameRecord:
    """The game of `record` (its newest version) as it stood at version `at`;
    VersionNotFound past its newest version."""
    check_at(record, at)
    if at == record.version:
        return record
    return fold_at(record.game_id, service.entries_after(record.game_id, 0, record.version), at)


def check_at(record: GameRecord, at: int) -> None:
    """VersionNotFound unless `at` is a version of the game (1 to its newest)."""
    if at > record.version or at < 1:
        raise VersionNotFound(f"the game has versions 1 to {record.version}, not {at}")


def fold_at(game_id: str, entries: list[Entry], at: int) -> GameRecord:
    """The game as it stood at version `at`, folded from its entries from version 1 (pure:
    no I/O, so a build thread may run it)."""
    return fold_entries(None, game_id, entries[: whole_opening(entries, at)])


def whole_opening(entries: list[Entry], at: int) -> int:
    """`at`, or the version before the game's opening when `at` falls inside it (the
    opening: the rules' events before the first command)."""
    first_command = next((i for i, e in enumerate(entries) if e.cmd is not None), len(entries))
    opening = [
        i
        for i, entry in enumerate(entries[:first_command])
        if entry.event.get("type") not in SERVICE_EVENTS
    ]
    if opening and opening[0] < at < opening[-1] + 1:
        return opening[0]
    return at
