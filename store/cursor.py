"""Cursor paging over a sorted set, newest (highest score) first.

A page starts strictly after a `Position`: the (score, member) of the last item the caller
was given. Sorted sets order ties by member, so (score, member) pairs are totally ordered
and a walk moves strictly down that order: it never returns an item twice, and an item that
stays in the set with its score is met exactly once, however many items are added or removed
while the walk goes on. An item added with a higher score than the position (a game created
during the walk) is behind the walk and not met; an item removed before the walk reaches it
(a game whose status moved it to another status's set) is not met.

One script finds the page's first rank (a binary search over the ties of the position's
score, members compared bytewise as Redis orders them) and reads the page, so the set cannot
change between the two steps. It names one key: legal on a Redis Cluster.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

import orjson
import redis

MAX_MEMBER = 200
MEMBER = re.compile(r"^[\x21-\x7e]{1,200}$")  # ids and names: visible ASCII

PAGE_AFTER = """
local key = KEYS[1]
local limit = tonumber(ARGV[2])
local start = 0
if ARGV[1] == '1' then
  local score, member = ARGV[3], ARGV[4]
  local function below(a, b)  -- a < b, bytewise (Redis's own order of equal-score members)
    local n = math.min(#a, #b)
    for i = 1, n do
      local x, y = string.byte(a, i), string.byte(b, i)
      if x ~= y then return x < y end
    end
    return #a < #b
  end
  local lo = redis.call('ZCOUNT', key, '(' .. score, '+inf')
  local hi = lo + redis.call('ZCOUNT', key, score, score)
  while lo < hi do  -- ties sit at reverse ranks [lo, hi), members descending
    local mid = math.floor((lo + hi) / 2)
    local at = redis.call('ZREVRANGE', key, mid, mid)[1]
    if below(at, member) then hi = mid else lo = mid + 1 end
  end
  start = lo
end
return redis.call('ZREVRANGE', key, start, start + limit - 1, 'WITHSCORES')
"""


class BadCursor(ValueError):
    """A cursor this service did not hand out (malformed, or holding odd values)."""


@dataclass(frozen=True)
class Position:
    """Where a walk stands: the score and member of the last item handed out."""

    score: float
    member: str

    def encode(self) -> str:
        """The opaque cursor a client passes back (base64url of JSON, no padding)."""
        raw = orjson.dumps([self.score, self.member])
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    @classmethod
    def decode(cls, cursor: str) -> Position:
        """The position a cursor of `encode` names; BadCursor for anything else."""
        if not isinstance(cursor, str) or not 1 <= len(cursor) <= 400:
            raise BadCursor("a cursor is a string this service handed out")
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
            score, member = orjson.loads(raw)
        except (binascii.Error, ValueError, TypeError) as error:
            raise BadCursor("a cursor is a string this service handed out") from error
        number = isinstance(score, int | float) and not isinstance(score, bool)
        if not number or abs(score) > 2**53 or not isinstance(member, str):
            raise BadCursor("a cursor is a string this service handed out")
        if not MEMBER.match(member):
            raise BadCursor("a cursor is a string this service handed out")
        return cls(float(score), member)


def score_text(score: float) -> str:
    """A score as Redis parses it back to the same double."""
    score = float(score)
    return str(int(score)) if score.is_integer() else repr(score)


class Pager:
    """Reads pages of sorted sets after a position (one script, loaded once per client)."""

    def __init__(self, client: redis.Redis):
        self.script = client.register_script(PAGE_AFTER)

    def page(
        self, key: str, after: Position | None, limit: int
    ) -> tuple[list[str], Position | None]:
        """Up to `limit` members after `after` (from the top when None), highest first, and
        the position to go on from (None when the set holds nothing further)."""
        members, _, position = self.page_with_scores(key, after, limit)
        return members, position

    def page_with_scores(
        self, key: str, after: Position | None, limit: int
    ) -> tuple[list[str], list[float], Position | None]:
        """`page`, with each member's score."""
        args = ["0", limit + 1] if after is None else ["1", limit + 1]
        if after is not None:
            args += [score_text(after.score), after.member]
        flat = self.script(keys=[key], args=args)
        pairs = [(_text(flat[i]), float(flat[i + 1])) for i in range(0, len(flat), 2)]
        members = [member for member, _ in pairs[:limit]]
        scores = [score for _, score in pairs[:limit]]
        if len(pairs) <= limit:
            return members, scores, None
        last_member, last_score = pairs[limit - 1]
        return members, scores, Position(last_score, last_member)


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else value
