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
import re
import struct
from dataclasses import dataclass

import redis

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
    """A string that is not of a cursor's form (CURSOR_PATTERN)."""


# A cursor: the score's IEEE 754 bits (16 lower-case hex digits, never an infinity or a NaN:
# exponent bits not all ones), then the member, base64url without padding (1 to 201 bytes).
# Every string of this form names a position, and a walk may start after any position, so
# every such string is accepted (openapi.yaml states the pattern); nothing else is.
CURSOR_PATTERN = (
    r"^(?:[0-689a-e][0-9a-f]{2}|[7f](?:[0-9a-e][0-9a-f]|f[0-9a-e]))[0-9a-f]{13}"
    r"(?:[A-Za-z0-9_-]{4}){0,66}[A-Za-z0-9_-]{2,4}$"
)
_CURSOR = re.compile(CURSOR_PATTERN.replace("$", r"\Z"))


@dataclass(frozen=True)
class Position:
    """Where a walk stands: the score and member of the last item handed out (a member
    from a client's cursor that is not UTF-8 stays bytes: Redis compares bytes)."""

    score: float
    member: str | bytes

    def encode(self) -> str:
        """The opaque cursor a client passes back (CURSOR_PATTERN)."""
        member = self.member if isinstance(self.member, bytes) else self.member.encode()
        tail = base64.urlsafe_b64encode(member).rstrip(b"=").decode()
        return struct.pack(">d", self.score).hex() + tail

    @classmethod
    def decode(cls, cursor: str) -> Position:
        """The position a cursor names; BadCursor for a string not of a cursor's form."""
        if not isinstance(cursor, str) or not _CURSOR.match(cursor):
            raise BadCursor("a cursor is a string of the form next_cursor has")
        (score,) = struct.unpack(">d", bytes.fromhex(cursor[:16]))
        tail = cursor[16:]
        raw = base64.urlsafe_b64decode(tail + "=" * (-len(tail) % 4))
        try:
            member: str | bytes = raw.decode()
        except UnicodeDecodeError:
            member = raw
        return cls(score, member)


def score_text(score: float) -> str:
    """A score as Redis parses it back to the same double."""
    score = float(score)
    if score.is_integer() and abs(score) < 2**53:
        return str(int(score))
    return repr(score)


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
