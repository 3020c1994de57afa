"""Arenas in Redis: the spec, the bots that joined, who waits and who plays, the games not
recorded yet, the leaderboard counts and the feed of recorded games (store.keys: every key of
one arena carries `{r:<id>}`, so its scripts stay legal on a Redis Cluster).

Two scripts keep the promises: CLAIM seats a table of waiting bots all at once or not at all
(two workers racing can never seat one bot twice), RECORD counts a game once and frees its
bots (or pauses one that forfeited game after game). Storage only: application/arenas/service.py
decides who plays whom.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import redis

from store import keys
from store.core import notify
from store.core.codec import text, text_fields
from store.core.cursor import Pager, Position

ARENA_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,40}$")


def _j(value) -> str:
    return json.dumps(value, separators=(",", ":"))


# KEYS: meta, free, busy, running, games, recent; ARGV: now, game id prefix, JSON plan,
# then the folded accounts. All of them waiting and the arena not closed: they leave the
# waiting set, the game gets the next sequence number, each account is busy with it.
CLAIM = """
if redis.call('HEXISTS', KEYS[1], 'closed_at') == 1 then return false end
for i = 4, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then return false end
end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local gid = ARGV[2] .. seq
for i = 4, #ARGV do
  redis.call('ZREM', KEYS[2], ARGV[i])
  redis.call('HSET', KEYS[3], ARGV[i], gid)
  local others = {}
  for j = 4, #ARGV do if j ~= i then table.insert(others, ARGV[j]) end end
  redis.call('HSET', KEYS[6], ARGV[i], cjson.encode(others))
end
redis.call('HSET', KEYS[4], gid, ARGV[3])
redis.call('ZADD', KEYS[5], seq, gid)
return gid
"""

# KEYS: running, busy, members, free, paused, streaks, board, feed; ARGV: game id, now,
# feed line JSON, JSON seats [{account, name, win, score, forfeited}], forfeits to pause,
# channel. Counts the game once (0 when recorded before); a void game (aborted: a seat never
# moved) counts in no row but still adds a forfeit to its seat's streak, so a bot that never
# moves is paused as one that keeps forfeiting is.
RECORD = """
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local seats = cjson.decode(ARGV[4])
local void = cjson.decode(ARGV[3])['void']
for _, seat in ipairs(seats) do
  local a = seat['account']
  if redis.call('HGET', KEYS[2], a) == ARGV[1] then redis.call('HDEL', KEYS[2], a) end
  local streak = 0
  if not (void and void ~= cjson.null) then
    local raw = redis.call('HGET', KEYS[7], a)
    local row = {name = seat['name'], games = 0, wins = 0, score = 0, forfeits = 0}
    if raw then row = cjson.decode(raw) end
    row['games'] = row['games'] + 1
    if seat['win'] then row['wins'] = row['wins'] + 1 end
    if seat['score'] ~= cjson.null then row['score'] = row['score'] + seat['score'] end
    if seat['forfeited'] then
      row['forfeits'] = row['forfeits'] + 1
      streak = redis.call('HINCRBY', KEYS[6], a, 1)
    else
      redis.call('HSET', KEYS[6], a, 0)
    end
    redis.call('HSET', KEYS[7], a, cjson.encode(row))
  elseif seat['forfeited'] then
    streak = redis.call('HINCRBY', KEYS[6], a, 1)
  end
  if redis.call('HEXISTS', KEYS[3], a) == 1 and redis.call('HEXISTS', KEYS[2], a) == 0 then
    if streak >= tonumber(ARGV[5]) then
      redis.call('HSET', KEYS[5], a, ARGV[2])
    elseif redis.call('HEXISTS', KEYS[5], a) == 0 then
      redis.call('ZADD', KEYS[4], ARGV[2], a)
    end
  end
end
redis.call('RPUSH', KEYS[8], ARGV[3])
redis.call('PUBLISH', ARGV[6], 'game')
return 1
"""

# KEYS: members, free, busy, paused, streaks; ARGV: folded name, member JSON, now. Joins (or
# joins again: a paused bot is paired again) and waits unless it plays an arena game.
JOIN = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('HSET', KEYS[5], ARGV[1], 0)
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0 then
  redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[1])
end
return 1
"""


@dataclass(frozen=True)
class ArenaState:
    """One read of an arena's moving parts."""

    members: dict[str, dict]  # folded -> {name, joined_at}
    free: dict[str, int]  # folded -> waiting since (ms)
    busy: dict[str, str]  # folded -> game id
    paused: dict[str, int]  # folded -> paused at (ms)
    running: dict[str, dict]  # game id -> {accounts, names, created_at}
    board: dict[str, dict]  # folded -> counts


class ArenaStore:
    """Reads and writes arena records."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self._claim = client.register_script(CLAIM)
        self._record = client.register_script(RECORD)
        self._join = client.register_script(JOIN)

    # ----- spec and lifetime --------------------------------------------------------------

    def create(self, aid: str, spec: dict) -> None:
        """Record a new arena (its spec is written once) and mark it live."""
        self.client.set(keys.arena_spec(aid), _j(spec), nx=True)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(keys.arenas_by_created(), {aid: spec["created_at"]}, nx=True)
        pipe.sadd(keys.arenas_live(), aid)
        pipe.execute()

    def spec(self, aid: str) -> dict | None:
        """The spec, None when there is no such arena."""
        if not ARENA_ID_PATTERN.match(aid):
            return None
        raw = self.client.get(keys.arena_spec(aid))
        return None if raw is None else json.loads(raw)

    def meta(self, aid: str) -> dict[str, str]:
        return text_fields(self.client.hgetall(keys.arena_meta(aid)))

    def close(self, aid: str, at: int) -> bool:
        """No game starts any more; True if this call closed it."""
        closed = self.client.hsetnx(keys.arena_meta(aid), "closed_at", at)
        notify.tell(self.client, [keys.arena_channel(aid)], b"closed")
        return bool(closed)

    def finish(self, aid: str, at: int) -> bool:
        """The arena is over (closed, no game left): off the live set; True if this call."""
        done = self.client.hsetnx(keys.arena_meta(aid), "finished_at", at)
        self.client.srem(keys.arenas_live(), aid)
        notify.tell(self.client, [keys.arena_channel(aid)], b"finished")
        return bool(done)

    def live(self) -> list[str]:
        return sorted(text(a) for a in self.client.smembers(keys.arenas_live()))

    def page(self, after: Position | None, limit: int) -> tuple[list[str], Position | None]:
        """Arena ids, newest first, after a cursor position."""
        return Pager(self.client).page(keys.arenas_by_created(), after, limit)

    # ----- entries --------------------------------------------------------------------------

    def join(self, aid: str, folded: str, name: str, now: int, bot: bool = False) -> None:
        member = _j({"name": name, "joined_at": now, **({"bot": True} if bot else {})})
        self._join(
            keys=[
                keys.arena_members(aid),
                keys.arena_free(aid),
                keys.arena_busy(aid),
                keys.arena_paused(aid),
                keys.arena_streaks(aid),
            ],
            args=[folded, member, now],
        )

    def leave(self, aid: str, folded: str) -> bool:
        """Not paired again (its running game goes on); True if it was a member."""
        pipe = self.client.pipeline(transaction=True)
        pipe.hdel(keys.arena_members(aid), folded)
        pipe.zrem(keys.arena_free(aid), folded)
        pipe.hdel(keys.arena_paused(aid), folded)
        return bool(pipe.execute()[0])

    def state(self, aid: str) -> ArenaState:
        """Members, waiting, busy, paused, running games and counts (one round trip)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hgetall(keys.arena_members(aid))
        pipe.zrange(keys.arena_free(aid), 0, -1, withscores=True)
        pipe.hgetall(keys.arena_busy(aid))
        pipe.hgetall(keys.arena_paused(aid))
        pipe.hgetall(keys.arena_running(aid))
        pipe.hgetall(keys.arena_board(aid))
        members, free, busy, paused, running, board = pipe.execute()
        return ArenaState(
            {text(k): json.loads(v) for k, v in members.items()},
            {text(k): int(v) for k, v in free},
            text_fields(busy),
            {text(k): int(v) for k, v in paused.items()},
            {text(k): json.loads(v) for k, v in running.items()},
            {text(k): json.loads(v) for k, v in board.items()},
        )

    def recent(self, aid: str, folded: list[str]) -> dict[str, set[str]]:
        """Each account's opponents in its last arena game."""
        if not folded:
            return {}
        raw = self.client.hmget(keys.arena_recent(aid), folded)
        return {a: set(json.loads(r)) if r else set() for a, r in zip(folded, raw, strict=True)}

    # ----- games ----------------------------------------------------------------------------

    def claim(self, aid: str, folded: list[str], plan: dict, prefix: str, now: int) -> str | None:
        """Seat these waiting bots in one new game: its id, or None when one of them is no
        longer waiting (another pass seated it, it left) or the arena closed."""
        found = self._claim(
            keys=[
                keys.arena_meta(aid),
                keys.arena_free(aid),
                keys.arena_busy(aid),
                keys.arena_running(aid),
                keys.arena_games(aid),
                keys.arena_recent(aid),
            ],
            args=[now, prefix, _j(plan), *folded],
        )
        return None if found is None else text(found)

    def record(
        self, aid: str, game_id: str, line: dict, seats: list[dict], pause_after: int, now: int
    ) -> bool:
        """Count a game that is over once, free its bots (unless they left, or are paused
        now for forfeiting `pause_after` games in a row) and add its line to the feed."""
        done = self._record(
            keys=[
                keys.arena_running(aid),
                keys.arena_busy(aid),
                keys.arena_members(aid),
                keys.arena_free(aid),
                keys.arena_paused(aid),
                keys.arena_streaks(aid),
                keys.arena_board(aid),
                keys.arena_feed(aid),
            ],
            args=[game_id, now, _j(line), _j(seats), pause_after, keys.arena_channel(aid)],
        )
        if done:
            notify.told_by_script(self.client, [keys.arena_channel(aid)], b"recorded")
        return bool(done)

    def game_ids(self, aid: str) -> list[str]:
        """Every game of the arena, in the order created."""
        return [text(g) for g in self.client.zrange(keys.arena_games(aid), 0, -1)]

    def feed(self, aid: str, position: int, limit: int = 200) -> list[dict]:
        """The recorded games' lines after the first `position` ones."""
        raw = self.client.lrange(keys.arena_feed(aid), position, position + limit - 1)
        return [json.loads(r) for r in raw]

    def feed_length(self, aid: str) -> int:
        return int(self.client.llen(keys.arena_feed(aid)))
