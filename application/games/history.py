"""Time travel: a game as it stood at an earlier version, folded from its log's head.

The game's opening (the rules' first events, appended in one batch with the last seat) is
folded whole: a version inside it stands for the version before it began, so no state is
ever made from half a deal.
"""

from __future__ import annotations

from collections.abc import Iterator

from application.games.errors import VersionNotFound
from gamelog.entries import Entry
from gamelog.events import SERVICE_EVENTS
from gamelog.record import GameRecord, fold_entries


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
    return _cut(opening_span(entries), at)


def opening_span(entries: list[Entry]) -> tuple[int, int] | None:
    """The versions of the game's opening (the rules' events before its first command):
    the version before its first event and its last event's; None before it began."""
    first_command = next((i for i, e in enumerate(entries) if e.cmd is not None), len(entries))
    opening = [
        i
        for i, entry in enumerate(entries[:first_command])
        if entry.event.get("type") not in SERVICE_EVENTS
    ]
    return (opening[0], opening[-1] + 1) if opening else None


def _cut(span: tuple[int, int] | None, at: int) -> int:
    if span is not None and span[0] < at < span[1]:
        return span[0]
    return at


def every_version(game_id: str, entries: list[Entry]) -> Iterator[tuple[int, GameRecord]]:
    """(N, the game as it stood at version N) for every version of its entries from
    version 1, folded once from the head (pure: no I/O, so a build thread may run it)."""
    span = opening_span(entries)
    record, folded = None, 0
    for at in range(1, len(entries) + 1):
        cut = _cut(span, at)
        if cut > folded:
            record = fold_entries(record, game_id, entries[folded:cut])
            folded = cut
        yield at, record
