"""Randomness as data: a deterministic stream derived from a secret 256-bit seed.

Derivation (documented so that anyone can re-derive every shuffle and roll):

    block(label, i) = HMAC-SHA256(key=seed, msg=utf8(label) + b":" + ascii(decimal i))
    stream(label)   = block(label, 0) || block(label, 1) || ...
    u64             = the next 8 bytes of the stream, big-endian unsigned
    randbelow(n)    = draw u64 until u < 2**64 - (2**64 mod n); return u mod n
    shuffle(items)  = Fisher-Yates: for i from len-1 down to 1: j = randbelow(i+1); swap i, j

Labels in use: "deck" (the card game's shuffle), "roll:<k>" (the dice game's k-th roll or
reroll, k counted from 0 over the whole game). Python's `random` module is never used.
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache

try:  # the interpreter's own SHA-256: its hash states copy several times cheaper than
    # OpenSSL's, and every block hashes two copied states (the same digests either way)
    from _sha256 import sha256 as _sha256
except ImportError:  # pragma: no cover - Python 3.12 renamed it; some builds lack it
    try:
        from _sha2 import sha256 as _sha256
    except ImportError:
        _sha256 = hashlib.sha256

SEED_BYTES = 32
_U64 = 1 << 64
# randbelow's limit of each small bound (a die has 6 faces): values from it up are rejected.
_SMALL_BOUND = 256
_LIMITS = (0, *(_U64 - _U64 % bound for bound in range(1, _SMALL_BOUND + 1)))
_BLOCK_U64S = struct.Struct(">4Q").unpack  # one 32-byte block as four big-endian u64
_SHA256_BLOCK = 64  # HMAC pads the key to the hash's block size


def seed_commitment(seed: bytes) -> str:
    """The public SHA-256 (hex) of a seed, published when a game is created."""
    return hashlib.sha256(seed).hexdigest()


class Stream:
    """An endless sequence of unbiased integers for one label of one seed."""

    __slots__ = ("_block", "_chance", "_prefix", "_values")

    def __init__(self, chance: Chance, label: str):
        self._chance = chance
        self._prefix = label.encode() + b":"
        self._block = 0
        self._values: list[int] = []  # u64s of the current block not yet used, last first

    def _next_u64(self) -> int:
        values = self._values
        if not values:
            values.extend(reversed(self._chance.block_u64s(self._prefix, self._block)))
            self._block += 1
        return values.pop()

    def randbelow(self, n: int) -> int:
        """An integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _U64 - (_U64 % n)
        while True:
            value = self._next_u64()
            if value < limit:
                return value % n


@lru_cache(maxsize=4096)
def _first_messages(label: str) -> tuple[bytes, bytes]:
    """The HMAC messages of a label's blocks 0 and 1: a roll needs at most two blocks, and
    every game rolls the same labels, so they are encoded once, not on every roll."""
    prefix = label.encode() + b":"
    return prefix + b"0", prefix + b"1"


# Each byte XORed with HMAC's inner and outer pads, as `bytes.translate` tables.
_XOR_IPAD = bytes(b ^ 0x36 for b in range(256))
_XOR_OPAD = bytes(b ^ 0x5C for b in range(256))


class Chance:
    """All randomness of one game, derived from its seed. Pure: same seed, same results."""

    __slots__ = ("_inner", "_outer", "seed")

    def __init__(self, seed: bytes):
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed has {SEED_BYTES} bytes")
        self.seed = seed
        # HMAC-SHA256 by its definition (RFC 2104), the padded-key states hashed once and
        # copied for every block: the same bytes as `hmac.new(seed, msg, sha256)`, cheaper.
        key = bytes(seed).ljust(_SHA256_BLOCK, b"\0")
        self._inner = _sha256(key.translate(_XOR_IPAD))
        self._outer = _sha256(key.translate(_XOR_OPAD))

    def block_u64s(self, prefix: bytes, index: int) -> tuple[int, int, int, int]:
        """block(label, index) as four u64; `prefix` is `utf8(label) + b":"`."""
        inner = self._inner.copy()
        inner.update(b"%b%d" % (prefix, index))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return _BLOCK_U64S(outer.digest())

    @classmethod
    def from_hex(cls, seed_hex: str) -> Chance:
        """Build from the hex form kept in the log."""
        return cls(bytes.fromhex(seed_hex))

    def stream(self, label: str) -> Stream:
        """The integer stream of one label."""
        return Stream(self, label)

    def shuffled(self, items, label: str) -> list:
        """A Fisher-Yates shuffle of `items` driven by the stream of `label`.

        The same swaps as `stream(label).randbelow(i + 1)` for each i, with the blocks the
        shuffle needs hashed in one go (this runs at the start of every card game)."""
        result = list(items)
        count = len(result)
        if count > _SMALL_BOUND:
            stream = self.stream(label)
            for i in range(count - 1, 0, -1):
                j = stream.randbelow(i + 1)
                result[i], result[j] = result[j], result[i]
            return result
        prefix = label.encode() + b":"
        values: list[int] = []
        for block in range((count + 2) // 4):  # 4 values a block, one a swap
            values += self.block_u64s(prefix, block)
        at = 0
        for i in range(count - 1, 0, -1):
            value = values[at]
            at += 1
            if value >= _LIMITS[i + 1]:  # almost never: the biased tail is drawn again
                value, at = self._redrawn(values, prefix, at, i + 1)
            j = value % (i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def _redrawn(self, values: list[int], prefix: bytes, at: int, bound: int) -> tuple[int, int]:
        """The next value of the stream in `values` (read from `at`) below `bound`'s limit,
        and where reading goes on; the blocks the rest of the shuffle needs are appended."""
        limit = _LIMITS[bound]
        while True:
            if at == len(values):
                values += self.block_u64s(prefix, len(values) // 4)
            value = values[at]
            at += 1
            if value < limit:
                break
        while len(values) < at + bound - 2:  # the swaps left after this one
            values += self.block_u64s(prefix, len(values) // 4)
        return value, at

    def draws(self, label: str, count: int, bound: int) -> list[int]:
        """`count` integers in [0, bound) from the stream of `label` (dice faces).

        The same values as `count` calls of `stream(label).randbelow(bound)`, read a whole
        block at a time (this runs for every roll of the dice game)."""
        if count <= 0:
            return []
        if bound <= 0:
            raise ValueError("randbelow needs a positive bound")
        if count > 8 or bound > _SMALL_BOUND:
            return self._draws(label, count, bound)
        # Up to two blocks, `block_u64s` inlined and each value taken by name: a roll is
        # drawn on nearly every step of the dice game, and a comprehension costs a frame.
        limit = _LIMITS[bound]
        messages = _first_messages(label)
        inner = self._inner.copy()
        inner.update(messages[0])
        outer = self._outer.copy()
        outer.update(inner.digest())
        a, b, c, d = _BLOCK_U64S(outer.digest())
        if a >= limit or b >= limit or c >= limit or d >= limit:  # almost never
            return self._draws(label, count, bound)
        result = [a % bound, b % bound, c % bound, d % bound]
        if count <= 4:
            del result[count:]
            return result
        inner = self._inner.copy()
        inner.update(messages[1])
        outer = self._outer.copy()
        outer.update(inner.digest())
        values = _BLOCK_U64S(outer.digest())[: count - 4]
        if max(values) >= limit:
            return self._draws(label, count, bound)
        result += [value % bound for value in values]
        return result

    def _draws(self, label: str, count: int, bound: int) -> list[int]:
        """`draws` for any count and bound, rejecting the biased tail value by value."""
        limit = _U64 - (_U64 % bound)
        prefix = label.encode() + b":"
        result: list[int] = []
        block = 0
        while len(result) < count:
            values = self.block_u64s(prefix, block)
            result += [value % bound for value in values if value < limit]
            block += 1
        del result[count:]
        return result


@lru_cache(maxsize=1024)
def chance_of(seed_hex: str) -> Chance:
    """`Chance.from_hex`, kept for the seeds of the games played lately: a Chance never
    changes once made (its streams copy its hash states), and a move would otherwise hash
    its game's seed into the HMAC pads again."""
    return Chance.from_hex(seed_hex)
