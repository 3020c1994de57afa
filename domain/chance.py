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

SEED_BYTES = 32
_U64 = 1 << 64
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
        self._inner = hashlib.sha256(key.translate(_XOR_IPAD))
        self._outer = hashlib.sha256(key.translate(_XOR_OPAD))

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
        """A Fisher-Yates shuffle of `items` driven by the stream of `label`."""
        result = list(items)
        stream = self.stream(label)
        for i in range(len(result) - 1, 0, -1):
            j = stream.randbelow(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def draws(self, label: str, count: int, bound: int) -> list[int]:
        """`count` integers in [0, bound) from the stream of `label` (dice faces).

        The same values as `count` calls of `stream(label).randbelow(bound)`, read a whole
        block at a time (this runs for every roll of the dice game)."""
        if count <= 0:
            return []
        if bound <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _U64 - (_U64 % bound)
        label_bytes = label.encode()
        inner_state, outer_state = self._inner, self._outer
        result: list[int] = []
        block = 0
        while len(result) < count:  # `block_u64s` inlined: one call per roll saved
            inner = inner_state.copy()
            inner.update(b"%b:%d" % (label_bytes, block))
            outer = outer_state.copy()
            outer.update(inner.digest())
            values = _BLOCK_U64S(outer.digest())
            if max(values) < limit:  # nearly always: no value falls in the biased tail
                result += map(bound.__rmod__, values)
            else:
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
