"""Games of built-in bots for tests, benchmarks and the reliability proofs: new ones whose
bots workers are to play, and finished ones made fast (created, played to their end in
process by application.bots.turns.play_out and appended in one batch)."""

from __future__ import annotations

from application.bots.turns import play_out
from application.games.service import GameService
from gamelog.record import GameRecord
from store.core.clock import now_ms


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


def new_bot_games(games: GameService, per_kind: int) -> list[GameRecord]:
    """`per_kind` new games of greedy against random in each of keltis-card and keltis-dice,
    none played yet (their bot turns are due)."""
    bots = [{"name": "b0", "bot": "greedy"}, {"name": "b1", "bot": "random"}]
    return [
        games.create(game, bots, {})[0]
        for game in ("keltis-card", "keltis-dice")
        for _ in range(per_kind)
    ]
