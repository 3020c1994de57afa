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
import hmac

SEED_BYTES = 32
_U64 = 1 << 64


def seed_commitment(seed: bytes) -> str:
    """The public SHA-256 (hex) of a seed, published when a game is created."""
    return hashlib.sha256(seed).hexdigest()


class Stream:
    """An endless sequence of unbiased integers for one label of one seed."""

    __slots__ = ("_block", "_buffer", "_keyed", "_label", "_offset")

    def __init__(self, keyed: hmac.HMAC, label: str):
        self._keyed = keyed
        self._label = label.encode()
        self._block = 0
        self._buffer = b""
        self._offset = 0

    def _next_u64(self) -> int:
        if self._offset + 8 > len(self._buffer):
            msg = self._label + b":" + str(self._block).encode()
            mac = self._keyed.copy()
            mac.update(msg)
            self._buffer = mac.digest()
            self._block += 1
            self._offset = 0
        value = int.from_bytes(self._buffer[self._offset : self._offset + 8], "big")
        self._offset += 8
        return value

    def randbelow(self, n: int) -> int:
        """An integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _U64 - (_U64 % n)
        while True:
            value = self._next_u64()
            if value < limit:
                return value % n


class Chance:
    """All randomness of one game, derived from its seed. Pure: same seed, same results."""

    __slots__ = ("_keyed", "seed")

    def __init__(self, seed: bytes):
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed has {SEED_BYTES} bytes")
        self.seed = seed
        # The key schedule of HMAC is computed once and copied for every block.
        self._keyed = hmac.new(seed, digestmod=hashlib.sha256)

    @classmethod
    def from_hex(cls, seed_hex: str) -> Chance:
        """Build from the hex form kept in the log."""
        return cls(bytes.fromhex(seed_hex))

    def stream(self, label: str) -> Stream:
        """The integer stream of one label."""
        return Stream(self._keyed, label)

    def shuffled(self, items, label: str) -> list:
        """A Fisher-Yates shuffle of `items` driven by the stream of `label`."""
        result = list(items)
        stream = self.stream(label)
        for i in range(len(result) - 1, 0, -1):
            j = stream.randbelow(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def draws(self, label: str, count: int, bound: int) -> list[int]:
        """`count` integers in [0, bound) from the stream of `label` (dice faces)."""
        stream = self.stream(label)
        return [stream.randbelow(bound) for _ in range(count)]
