"""Rated games between the same two accounts in Redis: per pair and game type, the rated
games it began (what the daily limit counts) and its rated results (what the weight of a
repeated game and the suspicious gains read), each a sorted set by time with a TTL, and an
index of pairs with recent results. Storage only: application/ladder/rated_pairs.py decides.
"""

from __future__ import annotations

import orjson
import redis

from ladder.pairs import PAIR_DAILY_LIMIT, WINDOW_MS, PairResult
from store import keys
from store.core.codec import text
from store.core.scripts import load_script

KEEP_MS = 7 * 24 * 3600 * 1000  # results kept for the operator's look back (a week)

Pair = tuple[str, str]


class RatedPairStore:
    """Reads and writes the pairs' keys."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.begin_script = client.register_script(load_script("pair_begin.lua"))

    def begin(self, game: str, pair: Pair, game_id: str, now: int) -> bool:
        """Count a rated game the pair begins now; False (not counted) when the pair began
        PAIR_DAILY_LIMIT rated games in the 24 h before. Counting one game id twice (a
        retried creation) counts it once."""
        args = [game_id, now, WINDOW_MS, PAIR_DAILY_LIMIT]
        return bool(self.begin_script(keys=[keys.pair_begun(game, pair)], args=args))

    def record(self, game: str, pair: Pair, result: PairResult) -> tuple[list[PairResult], bool]:
        """Keep a rated result of the pair (once however often called); the pair's results
        of the window before it and itself, and whether this call added it."""
        key = keys.pair_results(game, pair)
        member = orjson.dumps(result.to_dict(), option=orjson.OPT_SORT_KEYS)
        pipe = self.client.pipeline(transaction=True)  # the pair's key alone: one slot
        pipe.zadd(key, {member: result.at})
        pipe.zremrangebyscore(key, "-inf", f"({result.at - KEEP_MS}")
        pipe.pexpire(key, KEEP_MS)
        pipe.zrangebyscore(key, f"({result.at - WINDOW_MS}", result.at)
        added, *_, raw = pipe.execute()
        # The index of recent pairs sits on another slot of a cluster: its own round trip.
        pipe = self.client.pipeline(transaction=True)
        pipe.zadd(keys.pairs_recent(), {f"{game}|{pair[0]}|{pair[1]}": result.at}, gt=True)
        pipe.zremrangebyscore(keys.pairs_recent(), "-inf", f"({result.at - KEEP_MS}")
        pipe.execute()
        return [_result(item) for item in raw], bool(added)

    def recent_pairs(self, since: int) -> list[tuple[str, Pair]]:
        """(game type, pair) of every pair with a rated result after `since` (ms)."""
        found = []
        for raw in self.client.zrangebyscore(keys.pairs_recent(), f"({since}", "+inf"):
            game, first, second = text(raw).split("|")
            found.append((game, (first, second)))
        return found

    def results(self, game: str, pair: Pair, since: int) -> list[PairResult]:
        """The pair's rated results after `since` (ms), oldest first."""
        raw = self.client.zrangebyscore(keys.pair_results(game, pair), f"({since}", "+inf")
        return [_result(item) for item in raw]


def _result(raw: bytes | str) -> PairResult:
    return PairResult.from_dict(orjson.loads(raw))
