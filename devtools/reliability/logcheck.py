"""Read a game's log straight from Redis and check it: no gap, no duplicate, folds cleanly."""

from __future__ import annotations

import json
from dataclasses import dataclass

from api.games import presenters
from gamelog.entries import Entry, decode
from gamelog.record import GameRecord, fold_entries
from replays.build import build_replay
from replays.verify import verify
from store import keys


class BrokenLog(Exception):
    """A stored log breaks an invariant (gap, duplicate, unreadable, unfoldable)."""


@dataclass(frozen=True)
class CheckedLog:
    """A log that passed the checks, with its fold."""

    entries: list[Entry]
    record: GameRecord

    @property
    def commands(self) -> list[tuple[int, dict]]:
        """(version of the batch's first entry, command) of every command batch."""
        return [(entry.n, entry.cmd) for entry in self.entries if entry.cmd is not None]


def read_log(client, game_id: str) -> list[Entry]:
    """Every stored entry of a game, in order."""
    return [decode(raw) for raw in client.lrange(keys.log(game_id), 0, -1)]


def check_log(client, game_id: str) -> CheckedLog:
    """The log of `game_id` if its versions run 1..N without gap or duplicate and it folds."""
    entries = read_log(client, game_id)
    versions = [entry.n for entry in entries]
    if versions != list(range(1, len(entries) + 1)):
        raise BrokenLog(f"game {game_id}: versions are not 1..{len(entries)}: {versions[:20]}")
    try:
        record = fold_entries(None, game_id, entries)
    except Exception as error:
        raise BrokenLog(f"game {game_id}: the log does not fold: {error!r}") from error
    return CheckedLog(entries, record)


def view_of_fold(checked: CheckedLog, seat: int | None) -> dict | None:
    """The view the service must show `seat` for the folded log (JSON round-tripped)."""
    return json.loads(json.dumps(presenters.view_for(checked.record, seat)))


def verify_finished(checked: CheckedLog) -> str:
    """Build and verify the replay of a finished game; its one-line report (raise if bad)."""
    report = verify(build_replay(checked.record.game_id, checked.entries))
    if not report.ok:
        raise BrokenLog(report.line())
    return report.line()
