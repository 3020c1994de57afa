"""Tournament tallies recomputed from each game's own log (a check on standings)."""

from __future__ import annotations

import redis


def recompute_from_logs(client: redis.Redis, game_ids: list[str], labels: list[str]) -> dict:
    """Per entry label: games, sole wins, shared wins, scores, from each game's own log."""
    from application.games.service import GameService

    service = GameService(client)
    totals = {label: {"games": 0, "wins": 0, "shared": 0, "scores": []} for label in labels}
    for game_id in game_ids:
        record, _, _ = service.load(game_id)
        if not record.finished:
            raise ValueError(f"game {game_id} is not finished")
        result = record.rules.result(record.state)
        for seat, player in enumerate(record.players):
            row = totals[player["name"]]
            row["games"] += 1
            row["scores"].append(result["scores"][seat])
            if seat in result["winners"]:
                row["wins" if len(result["winners"]) == 1 else "shared"] += 1
    return totals
