"""Finished games made fast, for tests and benchmarks: each game of built-in bots is created,
played to its end in process (application.bots.play_out) and appended in one batch."""

from __future__ import annotations

from application.bots import play_out
from application.games import GameService
from gamelog.record import GameRecord
from store.clock import now_ms


def finish_bot_game(
    games: GameService,
    game: str = "keltis-dice",
    bots: tuple[str, ...] = ("random", "random"),
    **placed,
) -> GameRecord:
    """One finished game of `bots` (its whole play appended at once); `placed`: more of
    GameService.create's arguments (game_id, tournament)."""
    record, _, _ = games.create(game, [{"bot": bot} for bot in bots], {}, **placed)
    entries, after = play_out(record, now_ms())
    if entries and not games.append_batch(record, entries, after):
        raise RuntimeError(f"game {record.game_id} moved while it was played out")
    return after
